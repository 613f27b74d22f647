// The forecourt port: what the terminal asks of pumps, whatever drives them. The Wayne DART
// master (src/devices/dart/master.ts) is the first driver; an IFSF POS-FDC controller can be a
// second one behind the same interface. Decimals cross it as src/money values in calls and as
// exact decimal strings in the state that leaves the device layer (never floats).
import { z } from 'zod';
import type { Dec } from '../../money/index.js';

/** An exact decimal as text ("11.37"), so state read back through its schema stays exact. */
export const DecimalText = z.string().regex(/^-?\d+(\.\d+)?$/, 'an exact decimal such as 11.37');

export const PumpStateName = z.enum([
  'idle',
  /** A nozzle is up and the pump waits for a release (calling). */
  'calling',
  'authorised',
  'fuelling',
  /** The fill ended (nozzle back or preset reached) and is not sold yet. */
  'finished',
  'stopped',
  'suspended',
  /** Answers but reports a state we cannot sell on (switched off, not programmed, unknown). */
  'out-of-order',
  /** Does not answer on the line. */
  'offline',
]);
export type PumpStateName = z.infer<typeof PumpStateName>;

/** A fill as the pump counts it: volume, amount and the unit price it used. */
export const FillingSchema = z.object({
  volume: DecimalText,
  amount: DecimalText,
  price: DecimalText.nullable(),
  nozzle: z.number().int().min(1).max(15).nullable(),
});
export type Filling = z.infer<typeof FillingSchema>;

export const PumpSchema = z.object({
  /** Logical pump number, 1 for the first (DART address 0x50). */
  pump: z.number().int().min(1).max(32),
  state: PumpStateName,
  /** The nozzle out of its holster, null when all are in. */
  nozzle: z.number().int().min(1).max(15).nullable(),
  /** Running while fuelling, the final values when finished; null when none is known. */
  filling: FillingSchema.nullable(),
  /** The raw status the driver read, for logs ("DC1 4"). */
  detail: z.string().nullable(),
  /** ISO time of the last change. */
  changed_at: z.string(),
});
export type PumpState = z.infer<typeof PumpSchema>;

export const ForecourtEventSchema = z.object({
  kind: z.literal('pump'),
  previous: PumpStateName.nullable(),
  pump: PumpSchema,
});
export type ForecourtEvent = z.infer<typeof ForecourtEventSchema>;

/** Total counters of one nozzle, as the pump's totalizer reads them. */
export const TotalsSchema = z.object({
  pump: z.number().int(),
  nozzle: z.number().int().min(1).max(15),
  volume: DecimalText,
  amount: DecimalText.nullable(),
});
export type Totals = z.infer<typeof TotalsSchema>;

export type Preset = { kind: 'volume'; volume: Dec } | { kind: 'amount'; amount: Dec };

export interface Authorisation {
  pump: number;
  preset?: Preset;
  /** Nozzles that may deliver; all when absent. */
  nozzles?: number[];
}

/** A refused command is a value with a stable code, never an exception. */
export type PortResult<T = void> =
  | { ok: true; value: T }
  | {
      ok: false;
      code: 'unknown-pump' | 'offline' | 'invalid' | 'not-acknowledged' | 'wrong-state';
      message: string;
    };

export interface ForecourtPort {
  /** Every configured pump's last known state. */
  pumps(): PumpState[];
  pump(n: number): PumpState | null;
  /** Subscribes to state changes; returns the unsubscribe. */
  onEvent(fn: (e: ForecourtEvent) => void): () => void;
  authorise(a: Authorisation): Promise<PortResult>;
  stop(pump: number): Promise<PortResult>;
  suspend(pump: number): Promise<PortResult>;
  resume(pump: number): Promise<PortResult>;
  /** The finished fill was sold: the pump may go back to idle. */
  clearFill(pump: number): Promise<PortResult>;
  /** Unit prices per grade (nozzle 1, 2, ...), in the pump's price decimals. */
  setPrices(pump: number, prices: Dec[]): Promise<PortResult>;
  readTotals(pump: number, nozzle: number): Promise<PortResult<Totals>>;
  /** Asks the pump for its current filling again (after a restart) and returns it. */
  readFilling(pump: number): Promise<PortResult<Filling | null>>;
  close(): Promise<void>;
}
