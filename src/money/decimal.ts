// Exact decimal numbers: an integer count of 10^-scale units (bigint), so sums, products and
// roundings never pass through binary floating point. Wire values stay JSON numbers; they
// enter through `dec` (the number's shortest round-trip decimal form) and leave through
// `toNumber`.

/** value = units / 10^scale. Immutable; scale >= 0. */
export interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

/**
 * How to round: `half-away` (half away from zero, the rounding of engine.md 1), `down`
 * (towards zero: "rounded down" ceilings), `floor`, `ceil`.
 */
export type RoundingMode = 'half-away' | 'down' | 'floor' | 'ceil';

// 10^n for the scales money meets, built once; larger ones are computed when asked.
const POW10: readonly bigint[] = Array.from({ length: 41 }, (_, n) => 10n ** BigInt(n));
/** 10^n as a bigint. */
export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
// 10^0 .. 10^22: every one is an exact double.
const DOUBLE_POW10: readonly number[] = Array.from({ length: 23 }, (_, n) => Number(`1e${n}`));

export const ZERO: Dec = Object.freeze({ units: 0n, scale: 0 });

/**
 * Every decimal but ZERO is one of these. An instance of a class has no allocation site, an
 * object literal has one: V8 decides per site whether its objects are born old
 * (pretenuring), and the rule set's decimals, built at startup and kept, would send every
 * later decimal of that one site to the old generation, which then fills with a check's
 * garbage and needs full collections.
 */
class Decimal implements Dec {
  // Fields spelled out, not parameter properties: child processes load src/ through Node's
  // type stripping, which refuses them.
  readonly units: bigint;
  readonly scale: number;
  constructor(units: bigint, scale: number) {
    this.units = units;
    this.scale = scale;
  }
}

function make(units: bigint, scale: number): Dec {
  return new Decimal(units, scale);
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal string (`-12.345`, `1e-7`); null when it is not one. */
export function parseDec(text: string): Dec | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, sign, int = '', frac = '', exp] = m;
  let scale = frac.length - (exp ? Number(exp) : 0);
  let units = BigInt(int + frac);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return make(sign === '-' ? -units : units, scale);
}

/** An exact decimal from a JSON number (its shortest round-trip form), a string or an integer. */
export function dec(value: number | string | bigint): Dec {
  if (typeof value === 'bigint') return make(value, 0);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    if (Number.isInteger(value) && Number.isSafeInteger(value)) return make(BigInt(value), 0);
    const scaled = shortestScaled(value);
    if (scaled !== null) return scaled;
  }
  const d = parseDec(String(value));
  if (!d) throw new RangeError(`not a decimal number: ${String(value)}`);
  return d;
}

/**
 * The shortest decimal form of a non-integer double without printing it: the first k (1..15)
 * for which an integer m has m / 10^k === x (IEEE division, m and 10^k exact doubles) gives
 * m x 10^-k, the value String(x) spells. Why it is the same: a decimal that rounds to x with
 * fewer significant digits has fewer decimals (a smaller k was tried first); with
 * |m| < 2^51 the decimals 10^-k apart are wider than x's rounding interval, so m is the only
 * one at k; and m is Math.round(x * 10^k) or a neighbour (that product is within 1/4 of
 * exact). Null beyond that ground: the caller reads the text instead.
 */
function shortestScaled(x: number): Dec | null {
  for (let k = 1; k <= 15; k++) {
    const p = DOUBLE_POW10[k]!;
    const t = x * p;
    if (!(Math.abs(t) < 2 ** 51)) return null;
    const m = Math.round(t);
    if (m / p === x) return make(BigInt(m), k);
    if ((m - 1) / p === x) return make(BigInt(m - 1), k);
    if ((m + 1) / p === x) return make(BigInt(m + 1), k);
  }
  return null;
}

/** `units` minor units at `digits` decimal digits (e.g. 1234 cents at 2 -> 12.34). */
export function fromMinor(units: bigint | number, digits: number): Dec {
  return make(BigInt(units), digits);
}

// Operands are aligned inline (no tuple): these run in the engine's innermost loops.
export function add(a: Dec, b: Dec): Dec {
  if (a.scale === b.scale) return make(a.units + b.units, a.scale);
  if (a.scale > b.scale) return make(a.units + b.units * pow10(a.scale - b.scale), a.scale);
  return make(a.units * pow10(b.scale - a.scale) + b.units, b.scale);
}

export function sub(a: Dec, b: Dec): Dec {
  if (a.scale === b.scale) return make(a.units - b.units, a.scale);
  if (a.scale > b.scale) return make(a.units - b.units * pow10(a.scale - b.scale), a.scale);
  return make(a.units * pow10(b.scale - a.scale) - b.units, b.scale);
}

export function sum(values: readonly Dec[]): Dec {
  let total = ZERO;
  for (const v of values) total = add(total, v);
  return total;
}

export function neg(a: Dec): Dec {
  return make(-a.units, a.scale);
}

export function abs(a: Dec): Dec {
  return a.units < 0n ? neg(a) : a;
}

/** Exact product. */
export function mul(a: Dec, b: Dec): Dec {
  return make(a.units * b.units, a.scale + b.scale);
}

/** Divides the integer n by the positive integer d, rounding the quotient by `mode`. */
function divRound(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates towards zero
  const r = n - q * d;
  if (r === 0n) return q;
  const negative = n < 0n;
  switch (mode) {
    case 'down':
      return q;
    case 'floor':
      return negative ? q - 1n : q;
    case 'ceil':
      return negative ? q : q + 1n;
    case 'half-away': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice >= d) return negative ? q - 1n : q + 1n;
      return q;
    }
  }
}

/** Rounds to `digits` decimal digits (half away from zero unless told otherwise). */
export function round(a: Dec, digits: number, mode: RoundingMode = 'half-away'): Dec {
  if (a.scale === digits) return a; // immutable: already there
  if (a.scale < digits) return make(a.units * pow10(digits - a.scale), digits);
  return make(divRound(a.units, pow10(a.scale - digits), mode), digits);
}

/** a / b rounded to `digits` decimal digits; b must not be zero. */
export function div(a: Dec, b: Dec, digits: number, mode: RoundingMode = 'half-away'): Dec {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / 10^a.s) / (b.units / 10^b.s); scale the numerator to land on `digits`.
  const shift = digits + b.scale - a.scale;
  const num = shift >= 0 ? a.units * pow10(shift) : a.units;
  const den = shift >= 0 ? b.units : b.units * pow10(-shift);
  return make(divRound(num, den, mode), digits);
}

/** toNumber(div(a, b, digits, 'half-away')), without building the quotient; b must not be zero. */
export function quotientToNumber(a: Dec, b: Dec, digits: number): number {
  return unitsQuotientToNumber(a.units, a.scale, b, digits);
}

/**
 * quotientToNumber of units / 10^scale, without building the dividend either. Within 64 bits
 * (|units| < 2^31, a shift of at most 9 digits, 0 < b.units < 2^62) the division runs on
 * machine integers: BigInt.asIntN(64, ...) is the identity there and keeps V8 from
 * allocating a heap BigInt per step; otherwise the bigint route.
 */
export function unitsQuotientToNumber(
  units: bigint,
  scale: number,
  b: Dec,
  digits: number,
): number {
  if (b.units === 0n) throw new RangeError('division by zero');
  const shift = digits + b.scale - scale;
  if (
    shift >= 0 &&
    shift <= 9 &&
    units > -FACTOR31 &&
    units < FACTOR31 &&
    b.units > 0n &&
    b.units < FACTOR62
  ) {
    const den = b.units;
    const num = BigInt.asIntN(64, units * POW10[shift]!);
    const q = BigInt.asIntN(64, num / den); // truncated towards zero
    // Twice the remainder (|r| < den < 2^62): one more unit away from zero at half or above.
    const twice = BigInt.asIntN(64, 2n * BigInt.asIntN(64, num - BigInt.asIntN(64, q * den)));
    if (twice >= den) SCRATCH[0] = BigInt.asIntN(64, q + 1n);
    else if (BigInt.asIntN(64, -twice) >= den) SCRATCH[0] = BigInt.asIntN(64, q - 1n);
    else SCRATCH[0] = q;
    return scratchToNumber(digits);
  }
  const num = shift >= 0 ? units * pow10(shift) : units;
  const den = shift >= 0 ? b.units : b.units * pow10(-shift);
  return unitsToNumber(divRound(num, den, 'half-away'), digits);
}

const FACTOR30 = 2n ** 30n;
const FACTOR31 = 2n ** 31n;
const FACTOR62 = 2n ** 62n;

/** round(mul(a, b), digits, 'half-away'), without building the exact product. */
export function mulRounded(a: Dec, b: Dec, digits: number): Dec {
  return make(mulRoundedUnits(a, b, digits), digits);
}

/** The minor units of mulRounded(a, b, digits), without building a decimal on its fast path. */
export function mulRoundedUnits(a: Dec, b: Dec, digits: number): bigint {
  const scale = a.scale + b.scale;
  if (
    scale > digits &&
    scale - digits <= 17 &&
    a.units >= 0n &&
    a.units < FACTOR30 &&
    b.units >= 0n &&
    b.units < FACTOR30
  ) {
    // Everything below 2^63 (a product below 2^60, 2 x 10^17 at most): machine integers; a
    // non-negative quotient rounds half away as floor((2n + d) / 2d).
    const d = POW10[scale - digits]!;
    const n = BigInt.asIntN(64, a.units * b.units);
    return BigInt.asIntN(64, BigInt.asIntN(64, 2n * n + d) / BigInt.asIntN(64, 2n * d));
  }
  return round(mul(a, b), digits).units;
}

/** The integer count of minor units at `digits`, rounding by `mode` when needed. */
export function toMinor(a: Dec, digits: number, mode: RoundingMode = 'half-away'): bigint {
  return round(a, digits, mode).units;
}

export function cmp(a: Dec, b: Dec): -1 | 0 | 1 {
  let x = a.units;
  let y = b.units;
  if (a.scale > b.scale) y *= pow10(a.scale - b.scale);
  else if (a.scale < b.scale) x *= pow10(b.scale - a.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const eq = (a: Dec, b: Dec): boolean => cmp(a, b) === 0;
export const lt = (a: Dec, b: Dec): boolean => cmp(a, b) < 0;
export const lte = (a: Dec, b: Dec): boolean => cmp(a, b) <= 0;
export const gt = (a: Dec, b: Dec): boolean => cmp(a, b) > 0;
export const gte = (a: Dec, b: Dec): boolean => cmp(a, b) >= 0;
export const isZero = (a: Dec): boolean => a.units === 0n;
export const isNegative = (a: Dec): boolean => a.units < 0n;
export const min = (a: Dec, b: Dec): Dec => (cmp(a, b) <= 0 ? a : b);
export const max = (a: Dec, b: Dec): Dec => (cmp(a, b) >= 0 ? a : b);

/** The plain decimal text, with exactly `digits` decimals when given, else the value's own. */
export function toFixed(a: Dec, digits?: number): string {
  const d = digits === undefined ? a : round(a, digits);
  const negative = d.units < 0n;
  let text = (negative ? -d.units : d.units).toString();
  if (d.scale > 0) {
    text = text.padStart(d.scale + 1, '0');
    text = `${text.slice(0, -d.scale)}.${text.slice(-d.scale)}`;
  }
  return negative ? `-${text}` : text;
}

/**
 * The JSON number for this value: the nearest double to the exact decimal. When the units
 * and 10^scale are both exact doubles (|units| <= 2^53 - 1, scale <= 22), IEEE division
 * rounds their exact quotient to the nearest double, the same double the decimal text
 * parses to, without building the text; otherwise the text route.
 */
export function toNumber(a: Dec): number {
  return unitsToNumber(a.units, a.scale);
}

/** toNumber of units / 10^scale, without building the decimal. */
export function unitsToNumber(units: bigint, scale: number): number {
  if (scale <= 22 && units <= SAFE && units >= -SAFE) {
    SCRATCH[0] = units;
    return scratchToNumber(scale);
  }
  return toNumberByText(make(units, scale));
}

// A 64-bit integer becomes a double through a BigInt64Array slot read back as two 32-bit
// halves: V8 stores a machine integer into the slot as it is, where Number(bigint) first
// boxes it into a heap BigInt (some 40 bytes a call).
const SCRATCH = new BigInt64Array(1);
const HALVES = new Int32Array(SCRATCH.buffer);
SCRATCH[0] = 1n;
const LOW = HALVES[0] === 1 ? 0 : 1; // the platform's byte order
const HIGH = 1 - LOW;

/**
 * toNumber of SCRATCH[0] / 10^scale. hi x 2^32 + lo is the slot's value, exact below 2^53 in
 * magnitude, and at or beyond it never rounds back below: the text route takes those.
 */
function scratchToNumber(scale: number): number {
  const whole = HALVES[HIGH]! * 4294967296 + (HALVES[LOW]! >>> 0);
  if (scale <= 22 && whole <= MAX_SAFE && whole >= -MAX_SAFE) {
    const n = whole / DOUBLE_POW10[scale]!;
    return n === 0 ? 0 : n; // never -0
  }
  return toNumberByText(make(SCRATCH[0]!, scale));
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** toNumber(round(a, digits, 'half-away')), without building the rounded decimal. */
export function roundedToNumber(a: Dec, digits: number): number {
  return roundedUnitsToNumber(a.units, a.scale, digits);
}

/**
 * roundedToNumber of units / 10^scale. Dividing by 10^k (k <= 18) with |units| < 2^62 runs
 * on machine integers (see unitsQuotientToNumber); anything else the bigint route.
 */
export function roundedUnitsToNumber(units: bigint, scale: number, digits: number): number {
  if (scale <= digits) return unitsToNumber(units, scale); // already exact there
  const k = scale - digits;
  if (k <= 18 && units > -FACTOR62 && units < FACTOR62) {
    const den = POW10[k]!;
    const q = BigInt.asIntN(64, units / den);
    const twice = BigInt.asIntN(64, 2n * BigInt.asIntN(64, units - BigInt.asIntN(64, q * den)));
    if (twice >= den) SCRATCH[0] = BigInt.asIntN(64, q + 1n);
    else if (BigInt.asIntN(64, -twice) >= den) SCRATCH[0] = BigInt.asIntN(64, q - 1n);
    else SCRATCH[0] = q;
    return scratchToNumber(digits);
  }
  return unitsToNumber(divRound(units, pow10(k), 'half-away'), digits);
}

/** The JSON number through the exact decimal text (the reference route). */
export function toNumberByText(a: Dec): number {
  const n = Number(toFixed(a));
  return Object.is(n, -0) ? 0 : n;
}
