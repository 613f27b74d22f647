// Bank-card numbers: recognise them (Luhn plus an issuer range) and mask them (first 6, last 4)
// before they leave the reader. A clear PAN is never stored, logged or put in an event.

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** An issuer range as `from-to` over the leading digits (`51-55`, `2221-2720`) or one prefix (`4`). */
export type IinRange = string;

/** Public card-scheme ranges (Visa, Mastercard, Amex, Discover, JCB, UnionPay, Maestro, Mir). */
export const DEFAULT_BANK_RANGES: readonly IinRange[] = [
  '4',
  '51-55',
  '2221-2720',
  '34',
  '37',
  '6011',
  '644-649',
  '65',
  '3528-3589',
  '62',
  '50',
  '56-69',
  '2200-2204',
];

export function inRanges(pan: string, ranges: readonly IinRange[]): boolean {
  for (const range of ranges) {
    const [from, to = from] = range.split('-') as [string, string?];
    const prefix = pan.slice(0, from.length);
    if (prefix.length < from.length) continue;
    const n = Number(prefix);
    if (n >= Number(from) && n <= Number(to)) return true;
  }
  return false;
}

/** A bank card: Luhn-valid and in a bank range. Loyalty cards with Luhn PANs elsewhere stay loyalty cards. */
export function isBankCard(
  pan: string,
  ranges: readonly IinRange[] = DEFAULT_BANK_RANGES,
): boolean {
  return luhnValid(pan) && inRanges(pan, ranges);
}

/** First 6 and last 4 digits kept, the rest `*`; short numbers keep only the last 4. */
export function maskPan(pan: string): string {
  if (pan.length <= 10) return '*'.repeat(Math.max(0, pan.length - 4)) + pan.slice(-4);
  return pan.slice(0, 6) + '*'.repeat(pan.length - 10) + pan.slice(-4);
}
