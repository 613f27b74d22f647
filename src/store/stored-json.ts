// A JSON document the store kept, read back through its schema, never cast (shared/style.md
// 5). What no longer reads is a value naming why; a strict read turns it into the store's
// `invalid-record` failure, naming the row, at the read (not as a crash deep in a caller).
import type { z } from 'zod';
import { formatPath } from '../contract/problems.js';
import { storeError } from './errors.js';

export type StoredRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `text` parsed and validated by `schema`; `what` names the document in the problem. */
export function readStored<S extends z.ZodType>(
  schema: S,
  text: string,
  what = 'document',
): StoredRead<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: `stored ${what} is not JSON` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue ? `${formatPath(issue.path)}: ${issue.message}` : '';
  return { ok: false, problem: `stored ${what} no longer valid: ${at}` };
}

/** The document, or a StoreError `invalid-record` naming `row` and why it no longer reads. */
export function readStoredOrThrow<S extends z.ZodType>(
  schema: S,
  text: string,
  row: string,
): z.output<S> {
  const read = readStored(schema, text);
  if (!read.ok) throw storeError('invalid-record', `${row}: ${read.problem}`);
  return read.value;
}
