// GS1 element strings: application identifiers (AI) with their fixed or variable lengths.
// Variable-length fields end at GS (0x1D) or at the end of the data.
import { type Decoded, fail, ok } from './bytes.js';

export interface Gs1Element {
  ai: string;
  value: string;
}

const GS = '\u001d';

/** AI prefix -> [AI length, fixed data length or null for variable, max length]. */
function aiSpec(data: string): [number, number | null, number] | null {
  const two = data.slice(0, 2);
  const n2 = Number(two);
  if (!/^\d{2}/.test(data)) return null;
  if (two === '00') return [2, 18, 18];
  if (two === '01' || two === '02' || two === '03') return [2, 14, 14];
  if (two === '04') return [2, 16, 16];
  if (two === '10' || two === '21' || two === '22') return [2, null, 20];
  if (n2 >= 11 && n2 <= 17) return [2, 6, 6];
  if (two === '20') return [2, 2, 2];
  if (two === '30' || two === '37') return [2, null, 8];
  if (two === '90') return [2, null, 30];
  if (n2 >= 91 && n2 <= 99) return [2, null, 90];
  const three = data.slice(0, 3);
  if (!/^\d{3}/.test(data)) return null;
  const n3 = Number(three);
  if (n3 === 235) return [3, null, 28];
  if (n3 === 240 || n3 === 241 || n3 === 250 || n3 === 251 || n3 === 253 || n3 === 254)
    return [3, null, 30];
  if (n3 === 242) return [3, null, 6];
  if (n3 === 243 || n3 === 255) return [3, null, 25];
  if (n3 === 400 || n3 === 401 || n3 === 403) return [3, null, 30];
  if (n3 === 402) return [3, 17, 17];
  if (n3 >= 410 && n3 <= 417) return [3, 13, 13];
  if (n3 === 420) return [3, null, 20];
  if (n3 === 421) return [3, null, 12];
  if (n3 === 422 || n3 === 424 || n3 === 426) return [3, 3, 3];
  if (n3 === 423 || n3 === 425) return [3, null, 15];
  const four = data.slice(0, 4);
  if (!/^\d{4}/.test(data)) return null;
  const n4 = Number(four);
  if (n4 >= 3100 && n4 <= 3699) return [4, 6, 6];
  if (n4 >= 3900 && n4 <= 3939) return [4, null, 18];
  if (n4 === 7001) return [4, 13, 13];
  if (n4 === 7003) return [4, 10, 10];
  if (n4 === 8003 || n4 === 8004 || n4 === 8020) return [4, null, 30];
  if (n4 === 8200) return [4, null, 70];
  return null;
}

export function parseGs1(text: string): Decoded<Gs1Element[]> {
  let data = text.startsWith(GS) ? text.slice(1) : text;
  const out: Gs1Element[] = [];
  while (data.length > 0) {
    const spec = aiSpec(data);
    if (spec === null)
      return fail('malformed', `unknown GS1 application identifier at "${data.slice(0, 4)}"`);
    const [aiLen, fixed, max] = spec;
    const ai = data.slice(0, aiLen);
    data = data.slice(aiLen);
    let value: string;
    if (fixed !== null) {
      if (data.length < fixed) return fail('truncated', `AI (${ai}) needs ${fixed} characters`);
      value = data.slice(0, fixed);
      data = data.slice(fixed);
      if (data.startsWith(GS)) data = data.slice(1);
    } else {
      const end = data.indexOf(GS);
      value = end < 0 ? data : data.slice(0, end);
      data = end < 0 ? '' : data.slice(end + 1);
      if (value.length === 0 || value.length > max) {
        return fail('malformed', `AI (${ai}) takes 1 to ${max} characters`);
      }
    }
    if (fixed !== null && !/^\d+$/.test(value)) return fail('malformed', `AI (${ai}) is numeric`);
    out.push({ ai, value });
  }
  if (out.length === 0) return fail('truncated', 'no GS1 element');
  return ok(out);
}

/** The mod-10 check digit of EAN-8, EAN-13, GTIN-14 and SSCC (weights 3 and 1 from the right). */
export function gtinCheckValid(digits: string): boolean {
  if (!/^\d{8,18}$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 2, w = 3; i >= 0; i--, w = 4 - w)
    sum += (digits.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(digits.length - 1) - 48;
}
