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

/** Money, quantity and bonus values: JSON numbers (exact arithmetic happens in src/money). */
export const num = z.number().finite();

/** `*_decimal_digits`: how many decimal digits the companion amounts carry. */
export const decimalDigits = z.int().min(0).max(8);

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
