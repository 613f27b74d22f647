// Small helpers over src/money for the engine's recurring shapes: a JSON number in, a rounded
// JSON number out, a percentage of an amount, a per-unit share. Every computation is exact
// (bigint decimals); rounding is half away from zero unless a ceiling asks for `down`.
import {
  type Dec,
  ZERO,
  cmp,
  dec,
  div,
  fromMinor,
  isZero,
  mul,
  pow10,
  round,
  roundedToNumber,
  sub,
  type RoundingMode,
} from '../money/index.js';

export const HUNDRED = dec(100);
export const ONE = dec(1);

/** An exact decimal from an optional JSON number (absent = 0). */
export function num(value: number | null | undefined): Dec {
  return value === null || value === undefined ? ZERO : dec(value);
}

/** The JSON number of a value rounded to `digits` (money's toNumber: the nearest double). */
export function wire(value: Dec, digits: number): number {
  if (value.units === 0n) return 0; // what rounding zero gives, without building it
  return roundedToNumber(value, digits);
}

/** The JSON number of an exact value (no rounding). */
export const wireExact = (value: Dec): number => wire(value, value.scale);

/** a x b / c rounded once to `digits`; c must not be zero. */
export function mulDiv(
  a: Dec,
  b: Dec,
  c: Dec,
  digits: number,
  mode: RoundingMode = 'half-away',
): Dec {
  return div(mul(a, b), c, digits, mode);
}

/** `percent` % of `amount`, rounded once to `digits`. */
export function percentOf(
  amount: Dec,
  percent: Dec,
  digits: number,
  mode: RoundingMode = 'half-away',
): Dec {
  if (amount.scale === digits && amount.units >= 0n && percent.units >= 0n) {
    // amount.units x percent.units / (100 x 10^percent.scale), on the integers: a
    // non-negative quotient rounds half away as floor((2n + d) / 2d), down as n / d.
    const n = amount.units * percent.units;
    const d = percentDenominator(percent.scale);
    if (mode === 'half-away') return fromMinor((2n * n + d) / (2n * d), digits);
    if (mode === 'down' || mode === 'floor') return fromMinor(n / d, digits);
  }
  return div(mul(amount, percent), HUNDRED, digits, mode);
}

const PERCENT_DENOMINATORS = Array.from({ length: 16 }, (_, k) => 100n * 10n ** BigInt(k));
/** 100 x 10^scale: the denominator of a percentage given at `scale`. */
export const percentDenominator = (scale: number): bigint =>
  PERCENT_DENOMINATORS[scale] ?? 100n * 10n ** BigInt(scale);

export const clamp = (value: Dec, low: Dec, high: Dec): Dec =>
  cmp(value, low) < 0 ? low : cmp(value, high) > 0 ? high : value;

/** The whole and partial units of a quantity: 2.35 -> 3 units (two whole, one of 0.35). */
export function unitCount(units: Dec): bigint {
  if (units.units >= 0n) {
    // floor and remainder of units / 10^scale, without building decimals
    const p = pow10(units.scale);
    const whole = units.units / p;
    return units.units % p === 0n ? whole : whole + 1n;
  }
  const whole = floorInt(units);
  return sub(units, fromMinor(whole, 0)).units === 0n ? whole : whole + 1n;
}

/** The integer part of a non-negative decimal. */
export function floorInt(value: Dec): bigint {
  return round(value, 0, 'floor').units;
}

/** The quantity covered by `count` units of a line of `units` (whole units first). */
export function coveredQuantity(units: Dec, count: bigint): Dec {
  const all = unitCount(units);
  if (count >= all) return units;
  return fromMinor(count, 0);
}

export { ZERO, isZero, pow10 };

/** How many decimal digits a JSON number carries (1.25 -> 2, 1e-7 -> 7, 1.50 -> 1). */
export function decimalPlacesOf(value: number): number {
  let { units, scale } = dec(value);
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return scale;
}
