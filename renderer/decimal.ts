// Exact decimals for the few sums the screen makes itself (what is left to pay, change, the
// litres a fuel prepay buys): scaled bigints, never binary floats. Totals of a check always
// come from the engine; this is only for what the cashier types.

/** A decimal as an integer count of 10^-scale units. */
export interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

export const ZERO: Dec = { units: 0n, scale: 0 };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parse a typed amount: digits with one `.` or `,`; null when it is not a plain decimal. */
export function parseDec(text: string): Dec | null {
  const m = DECIMAL.exec(text.trim().replace(',', '.'));
  if (!m) return null;
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return null;
  const units = BigInt((int || '0') + frac);
  return { units: m[1] === '-' ? -units : units, scale: frac.length };
}

/** The shortest decimal form of a JSON number, exponent forms expanded (`1e-7` -> `0.0000001`). */
export function numberText(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(s);
  if (!m) return s;
  const sign = m[1] ?? '';
  const digits = (m[2] ?? '') + (m[3] ?? '');
  const point = (m[2] ?? '').length + Number(m[4]);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A JSON number as an exact decimal (its shortest decimal form, which is what was sent). */
export function fromNumber(n: number): Dec {
  const d = parseDec(numberText(n));
  if (d === null) throw new RangeError(`not a finite number: ${n}`);
  return d;
}

function rescale(d: Dec, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function add(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function sub(a: Dec, b: Dec): Dec {
  return add(a, { units: -b.units, scale: b.scale });
}

export function compare(a: Dec, b: Dec): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(d: Dec): boolean {
  return d.units === 0n;
}

/** Integer division of bigints rounded half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (ad * 2n);
  return negative ? -q : q;
}

/** Round to `digits` decimals, half away from zero. */
export function round(d: Dec, digits: number): Dec {
  if (d.scale <= digits) return { units: rescale(d, digits), scale: digits };
  return { units: divRound(d.units, 10n ** BigInt(d.scale - digits)), scale: digits };
}

/** a / b rounded half away from zero to `digits` decimals; null when b is zero. */
export function divide(a: Dec, b: Dec, digits: number): Dec | null {
  if (b.units === 0n) return null;
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); scale the numerator so the
  // integer quotient lands on `digits` decimals.
  const shift = digits + b.scale - a.scale;
  const num = shift >= 0 ? a.units * 10n ** BigInt(shift) : a.units;
  const den = shift >= 0 ? b.units : b.units * 10n ** BigInt(-shift);
  return { units: divRound(num, den), scale: digits };
}

/** Plain decimal text with exactly `scale` decimals (`-0.50`). */
export function toText(d: Dec): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = d.scale > 0 ? `.${digits.slice(digits.length - d.scale)}` : '';
  return `${negative ? '-' : ''}${int}${frac}`;
}

/** The JSON number a decimal is sent as; conversion only, no arithmetic. */
export function toNumber(d: Dec): number {
  return Number(toText(d));
}
