// Ingenico Concert (E and E+), serial. A message is STX text ETX LRC, LRC = XOR of every byte
// after STX through ETX. Sessions: ENQ -> ACK, message -> ACK (NAK = send again), EOT.
import { ascii, type Decoded, fail, hexNumber, latin1, ok } from '../bytes.js';

export const STX = 0x02;
const ETX = 0x03;
export const EOT = 0x04;
export const ENQ = 0x05;
export const ACK = 0x06;
export const NAK = 0x15;

export function lrc(bytes: Uint8Array): number {
  let x = 0;
  for (const b of bytes) x ^= b;
  return x;
}

export function encodeMessage(text: string): Uint8Array {
  const body = ascii(text + '\u0003');
  return Uint8Array.from([STX, ...body, lrc(body)]);
}

export function decodeMessage(bytes: Uint8Array): Decoded<string> {
  if (bytes.length === 0) return fail('truncated', 'empty');
  if (bytes[0] !== STX) return fail('malformed', 'a message starts with STX (02)');
  const etx = bytes.indexOf(ETX, 1);
  if (etx < 0) return fail('truncated', 'no ETX');
  if (etx + 1 >= bytes.length) return fail('truncated', 'LRC missing after ETX');
  if (etx + 2 < bytes.length)
    return fail('malformed', `${bytes.length - etx - 2} bytes after the LRC`);
  const want = lrc(bytes.subarray(1, etx + 1));
  const got = bytes[etx + 1] as number;
  if (want !== got)
    return fail('bad-checksum', `LRC ${hexNumber(got)} does not match ${hexNumber(want)}`);
  return ok(latin1(bytes.subarray(1, etx)));
}

/** E+ request fields (34 characters). */
export interface ConcertRequest {
  pos: string; // 2
  amount_cents: number; // 8
  answer_flag: string; // 1: '1' = the answer carries REP
  mode: string; // 1: '1' card
  type: string; // 1: '0' debit, '1' credit (refund), '2' cancellation, '4' pre-authorisation
  currency: string; // 3 numeric
  private_data: string; // 10
  delay: string; // 4: 'A010' answer at the end of the transaction
  authorisation: string; // 4: 'B010'
}

export function encodeRequest(r: ConcertRequest): string {
  const text =
    r.pos.padStart(2, '0').slice(-2) +
    String(r.amount_cents).padStart(8, '0') +
    r.answer_flag +
    r.mode +
    r.type +
    r.currency.padStart(3, '0') +
    r.private_data.padEnd(10, ' ').slice(0, 10) +
    r.delay +
    r.authorisation;
  if (text.length !== 34 || String(r.amount_cents).length > 8)
    throw new RangeError('Concert E+ requests are 34 characters');
  return text;
}

export function parseRequest(text: string): Decoded<ConcertRequest> {
  if (text.length !== 34 && text.length !== 26)
    return fail(
      text.length < 26 ? 'truncated' : 'malformed',
      `a request is 34 (E+) or 26 (E) characters, not ${text.length}`,
    );
  const amount = text.slice(2, 10);
  if (!/^\d{8}$/.test(amount)) return fail('malformed', 'amount is 8 digits');
  return ok({
    pos: text.slice(0, 2),
    amount_cents: Number(amount),
    answer_flag: text.slice(10, 11),
    mode: text.slice(11, 12),
    type: text.slice(12, 13),
    currency: text.slice(13, 16),
    private_data: text.slice(16, 26),
    delay: text.slice(26, 30),
    authorisation: text.slice(30, 34),
  });
}

/** The answer: POS (2), status (1), amount (8), mode (1), REP (55), currency (3), private (10). */
export interface ConcertAnswer {
  pos: string;
  status: string; // '0' accepted, '7' refused
  amount_cents: number;
  mode: string;
  rep: string;
  currency: string;
  private_data: string;
}

export function encodeAnswer(a: ConcertAnswer): string {
  return (
    a.pos.padStart(2, '0').slice(-2) +
    a.status +
    String(a.amount_cents).padStart(8, '0') +
    a.mode +
    a.rep.padEnd(55, ' ').slice(0, 55) +
    a.currency.padStart(3, '0') +
    a.private_data.padEnd(10, ' ').slice(0, 10)
  );
}

export function parseAnswer(text: string): Decoded<ConcertAnswer> {
  // E+ answers carry REP (80 characters); without REP they are 25.
  if (text.length !== 80 && text.length !== 25) {
    return fail(
      text.length < 25 ? 'truncated' : 'malformed',
      `an answer is 80 or 25 characters, not ${text.length}`,
    );
  }
  const amount = text.slice(3, 11);
  if (!/^\d{8}$/.test(amount)) return fail('malformed', 'amount is 8 digits');
  const withRep = text.length === 80;
  return ok({
    pos: text.slice(0, 2),
    status: text.slice(2, 3),
    amount_cents: Number(amount),
    mode: text.slice(11, 12),
    rep: withRep ? text.slice(12, 67) : '',
    currency: withRep ? text.slice(67, 70) : text.slice(12, 15),
    private_data: withRep ? text.slice(70, 80) : text.slice(15, 25),
  });
}

/** A message frame reader: control bytes outside a message are events; a message ends at its LRC. */
export type ConcertEvent =
  { kind: 'control'; byte: number } | { kind: 'message'; bytes: Uint8Array };

export class ConcertStream {
  private buf: number[] | null = null;
  private afterEtx = false;
  noise = 0;

  get pending(): boolean {
    return this.buf !== null;
  }

  reset(): void {
    this.buf = null;
    this.afterEtx = false;
  }

  push(chunk: Uint8Array): ConcertEvent[] {
    const out: ConcertEvent[] = [];
    for (const b of chunk) {
      if (this.buf === null) {
        if (b === STX) this.buf = [b];
        else if (b === ENQ || b === ACK || b === NAK || b === EOT)
          out.push({ kind: 'control', byte: b });
        else this.noise++;
        continue;
      }
      this.buf.push(b);
      if (this.afterEtx) {
        out.push({ kind: 'message', bytes: Uint8Array.from(this.buf) });
        this.reset();
      } else if (b === ETX) this.afterEtx = true;
      else if (this.buf.length > 512) this.reset();
    }
    return out;
  }
}
