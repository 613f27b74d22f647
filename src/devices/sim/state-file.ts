// What a simulated payment unit keeps that a real one keeps through a power cut (its receipt
// and trace counters and its books: every approved operation, reversed or not), in a file of
// the terminal's data directory, so killing the agent does not reset the unit (docs/devices.md,
// "Simulators outlive the agent"). Written whole on every change: temp file, fsync, rename,
// mode 0600. Read back through its schema.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The simulators' directory inside a terminal's data directory. */
export const SIMULATOR_DIR = 'simulators';
/** The ZVT unit's file and the Concert unit's, in the simulators' directory. */
export const ZVT_SIM_FILE = 'payment-zvt.json';
export const CONCERT_SIM_FILE = 'payment-concert.json';
/** Books longer than this drop their oldest entries (a real unit clears them at end of day). */
export const MAX_BOOKED = 5_000;

const count = z.number().int().nonnegative();

const zvtSimTransactionSchema = z.object({
  receipt_no: count,
  trace_no: count,
  kind: z.enum(['purchase', 'pre-auth', 'refund', 'book-total', 'reversal', 'pre-auth-reversal']),
  amount_cents: count,
  reversed: z.boolean(),
  /** For reversals and book totals: the receipt acted on. */
  refers_to: count.nullable(),
});
export type ZvtSimTransaction = z.infer<typeof zvtSimTransactionSchema>;

export const zvtSimStateSchema = z.object({
  version: z.literal(1),
  receipt: count,
  trace: count,
  ledger: z.array(zvtSimTransactionSchema),
});
export type ZvtSimState = z.infer<typeof zvtSimStateSchema>;

const concertSimTransactionSchema = z.object({
  /** The POS number the request carried. */
  pos: z.string(),
  type: z.string(),
  amount_cents: count,
  private_data: z.string(),
  accepted: z.boolean(),
});
export type ConcertSimTransaction = z.infer<typeof concertSimTransactionSchema>;

export const concertSimStateSchema = z.object({
  version: z.literal(1),
  ledger: z.array(concertSimTransactionSchema),
});
export type ConcertSimState = z.infer<typeof concertSimStateSchema>;

export type SimStateRead<T> = { ok: true; state: T | null } | { ok: false; message: string };

/** The state in `file`: null when there is none yet, a message when it does not read as one. */
function readSimState<T>(file: string, schema: z.ZodType<T>): SimStateRead<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { ok: true, state: null };
    return { ok: false, message: `${file}: ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `${file}: ${(e as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return { ok: false, message: `${file}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  return { ok: true, state: parsed.data };
}

/**
 * The state a simulator starts from. An unreadable file stops it: starting blank would hide
 * the very charges the file is there to keep (move the file away to start afresh).
 */
export function loadSimState<T>(file: string, schema: z.ZodType<T>): T | null {
  const r = readSimState(file, schema);
  if (!r.ok) throw new Error(`simulated unit state unreadable: ${r.message}`);
  return r.state;
}

/** Replaces `file` with `state` so that a kill at any moment leaves the old or the new whole. */
export function saveSimState(file: string, state: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const temp = `${file}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(state)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

export type BooksRead<T> = { ok: true; books: T[] } | { ok: false; message: string };

/** The ZVT unit's books as its end-of-day report would list them (for tests and the CLI). */
export function readZvtSimBooks(dir: string): BooksRead<ZvtSimTransaction> {
  const r = readSimState(join(dir, ZVT_SIM_FILE), zvtSimStateSchema);
  return r.ok ? { ok: true, books: r.state?.ledger ?? [] } : r;
}

/** The Concert unit's journal: every request it acted on, accepted or refused. */
export function readConcertSimBooks(dir: string): BooksRead<ConcertSimTransaction> {
  const r = readSimState(join(dir, CONCERT_SIM_FILE), concertSimStateSchema);
  return r.ok ? { ok: true, books: r.state?.ledger ?? [] } : r;
}
