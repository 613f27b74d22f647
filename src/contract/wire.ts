// The wire conventions of data-contract.md, shared by every surface.
//
// Unknown fields (docs/contract.md): every resource is defined once, by a function that takes
// an object factory. `strictObject` builds the variant our own UI and API accept (an unknown
// field is refused, naming it); `looseObject` builds the variant for what the central service
// sends (it may add fields, and we keep them). Both variants have the same static type.
import { z } from 'zod';

/** Builds an object schema; strict or loose at run time, one static type for both. */
export type ObjectFactory = <S extends z.ZodRawShape>(shape: S) => z.ZodObject<S, z.core.$strip>;

export const strictObject = z.strictObject as unknown as ObjectFactory;
export const looseObject = z.looseObject as unknown as ObjectFactory;

/** 0/1 integer flag (`active`, `suspended`, `default`, ...). */
export const flag = z.union([z.literal(0), z.literal(1)], { error: 'a 0/1 integer flag' });

/** Ids are strings in UUID format unless stated. */
export const uuid = z.uuid();

/** A calendar date, `YYYY-MM-DD`. */
export const date = z.iso.date();

/** An RFC 3339 date-time with an offset or `Z`. */
export const dateTime = z.iso.datetime({ offset: true });

/**
 * Bounds (docs/contract.md, "Bounds"): what a till can sell, and the largest values the
 * terminal works with at all. Each is a schema check whose problem names the field.
 */
export const BOUNDS = {
  /** Money a till takes: amounts, prices, payments, opening and counted cash. */
  amount: 1e9,
  /** A line's quantity (units, kilograms, litres). */
  quantity: 1e6,
  /** Any other number (balances, limits, stats, rule values): exact in a double's integers. */
  number: 1e15,
  /** The most decimal digits a field may have (`*_decimal_digits` is at most 8). */
  decimals: 8,
  /** Lines (`check_items`) per check; services, coupons, payments and tanks have their own. */
  lines: 500,
  services: 100,
  coupons: 100,
  payments: 20,
  tanks: 50,
  /** Characters of a code (goods, coupon, service, tax, vehicle, external ids). */
  code: 128,
  /** Characters of a title or a name. */
  title: 256,
  /** Characters of a description, a URL or other free text. */
  text: 4000,
  /** Nesting and size of a free-form object (`external_additional_info`, ...). */
  depth: 8,
  nodes: 1000,
} as const;

/**
 * How many decimal digits a number's shortest decimal form has, exponent forms included
 * (`1.5e-7` has 8). The digits the user typed, not the binary value's.
 */
export function decimalPlaces(n: number): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return Number.POSITIVE_INFINITY; // NaN or Infinity: no finite decimal form
  const fraction = m[1]?.length ?? 0;
  const exponent = m[2] === undefined ? 0 : Number(m[2]);
  return Math.max(0, fraction - exponent);
}

const sized = (limit: number) => {
  const error = `must be between -${limit.toLocaleString('en-US')} and ${limit.toLocaleString('en-US')}`;
  return z.number().min(-limit, { error }).max(limit, { error });
};

const fewDigits = (n: number) => decimalPlaces(n) <= BOUNDS.decimals;
const digitsError = { error: `at most ${BOUNDS.decimals} decimal digits` };

/**
 * A number on the wire: finite and within ±1e15, the largest the terminal computes with
 * exactly (balances, limits, stats, rule values). Exact arithmetic happens in src/money.
 */
export const num = sized(BOUNDS.number);

/**
 * Money a till takes or gives (amounts, prices, payments, cash): within ±1e9 and at most 8
 * decimal digits. More digits than the field's own (2 for most currencies) are rounded when
 * read (engine.md 17.2); more than any field has are refused.
 */
export const money = sized(BOUNDS.amount).refine(fewDigits, digitsError);

/** A line's quantity: within ±1e6 and at most 8 decimal digits (rounded as 17.2 says). */
export const quantity = sized(BOUNDS.quantity).refine(fewDigits, digitsError);

/**
 * The number rules a variant of the contract is built with: the till's bounds (every surface
 * the terminal parses), or exact numbers of any size for the engine's fixtures, whose
 * arithmetic is proved exact beyond 64 bits (test/engine/int64-routes.test.ts).
 */
export interface NumberRules {
  money: z.ZodNumber;
  quantity: z.ZodNumber;
  /** The most a check's lines may come to; null = no bound. */
  linesTotal: number | null;
}
export const tillNumbers: NumberRules = { money, quantity, linesTotal: BOUNDS.amount };
/**
 * Checks as answered (our engine's, the central service's): figures computed from bounded
 * requests by rules the central service sets, held only to what the terminal computes with
 * exactly (±1e15), so a generous rule can never make a committed sale's answer unreadable.
 */
export const answerNumbers: NumberRules = { money: num, quantity: num, linesTotal: null };
export const exactNumbers: NumberRules = {
  money: z.number(),
  quantity: z.number(),
  linesTotal: null,
};

/** `*_decimal_digits`: how many decimal digits the companion amounts carry. */
export const decimalDigits = z.int().min(0).max(BOUNDS.decimals);

// C0 controls, DEL and C1 controls: never part of a code, a title or a name. (Matching control
// characters is this regex's purpose.)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Free text may break lines (LF, CR) and hold tabs; no other control character.
// eslint-disable-next-line no-control-regex
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const noControl = { error: 'no control characters' };
const noTextControl = { error: 'no control characters other than line breaks and tabs' };

/** A code (goods, coupon, service, tax): 1..128 characters, no control characters. */
export const code = z
  .string()
  .min(1, { error: 'a code cannot be empty' })
  .max(BOUNDS.code, { error: `at most ${BOUNDS.code} characters` })
  .refine((s) => !CONTROL.test(s), noControl);

/** An optional identifier-like string (vehicle id, external id): as a code, may be empty. */
export const shortText = z
  .string()
  .max(BOUNDS.code, { error: `at most ${BOUNDS.code} characters` })
  .refine((s) => !CONTROL.test(s), noControl);

/** A title or a name: at most 256 characters, no control characters. */
export const title = z
  .string()
  .max(BOUNDS.title, { error: `at most ${BOUNDS.title} characters` })
  .refine((s) => !CONTROL.test(s), noControl);

/** Free text (a description, a URL): at most 4000 characters, line breaks and tabs allowed. */
export const text = z
  .string()
  .max(BOUNDS.text, { error: `at most ${BOUNDS.text} characters` })
  .refine((s) => !TEXT_CONTROL.test(s), noTextControl);

/** A comment a person types: at most 500 characters, line breaks and tabs allowed. */
export const comment = z
  .string()
  .max(500, { error: 'at most 500 characters' })
  .refine((s) => !TEXT_CONTROL.test(s), noTextControl);

/**
 * The deepest nesting of a JSON value, counted up to `limit + 1` only, and its number of
 * values (objects, arrays and leaves): a deep value is never walked further than needed.
 */
export function jsonShape(
  value: unknown,
  limit: number = BOUNDS.depth,
): { depth: number; nodes: number } {
  let nodes = 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    nodes += 1;
    if (nodes > BOUNDS.nodes) break;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (d + 1 > limit) break;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return { depth: deepest, nodes };
}

/**
 * A free-form JSON object (`external_additional_info`, `passthru_data`, an address): at most
 * 8 levels deep and 1000 values, so a hostile document cannot exhaust the stack or the store.
 */
export function freeFormBounds(v: unknown, ctx: z.RefinementCtx): void {
  const shape = jsonShape(v);
  if (shape.depth > BOUNDS.depth)
    ctx.addIssue({ code: 'custom', message: `nested at most ${BOUNDS.depth} levels deep` });
  else if (shape.nodes > BOUNDS.nodes)
    ctx.addIssue({ code: 'custom', message: `at most ${BOUNDS.nodes} values` });
}
export const FreeFormObject = z.record(z.string(), z.unknown()).superRefine(freeFormBounds);

/** ISO currency code. */
export const currency = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code of three capital letters');

/** The paginated shape `{ data, summary: { total_rows_count } }`, one generic for every list. */
export function paginated<T extends z.ZodType>(o: ObjectFactory, item: T) {
  return o({
    data: z.array(item),
    summary: o({ total_rows_count: z.int().min(0) }),
  });
}

/**
 * A request-only field found in a response (`special_account_pin`): accepted on parse and
 * dropped, so a secret echoed by a server is never kept or stored.
 */
export const droppedField = z
  .unknown()
  .transform((): undefined => undefined)
  .optional();

/**
 * Canonical JSON: keys sorted at every depth, undefined members and any key in `omit` left out,
 * so the same request hashes the same whatever its key order (Idempotency-Key fingerprints).
 */
export function canonicalJson(value: unknown, omit?: ReadonlySet<string>): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, omit)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && !omit?.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, omit)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fields of `record` named in `keys` that it has: a record cut to what a schema knows. */
export function pick(
  record: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (record[k] !== undefined) out[k] = record[k];
  return out;
}
