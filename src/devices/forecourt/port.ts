// The forecourt port: what the terminal asks of pumps, whatever drives them. The Wayne DART
// master (src/devices/dart/master.ts) is the first driver; an IFSF POS-FDC controller can be a
// second one behind the same interface. Decimals cross it as src/money values in calls and as
// exact decimal strings in the state that leaves the device layer (never floats).
import { z } from 'zod';
import type { Dec } from '../../money/index.js';
import {
  PumpSchema,
  PumpStateName,
  type Filling,
  type PumpState,
  type Totals,
} from '../../contract/forecourt.js';

// The shapes are the contract's (src/contract/forecourt.ts): the terminal reports them as they are.
export {
  DecimalText,
  FillingSchema,
  PumpSchema,
  PumpStateName,
  TotalsSchema,
  type Filling,
  type PumpState,
  type Totals,
} from '../../contract/forecourt.js';

/** A fill's litres and amount, as the pump counts them (exact decimal text). */
export type FillFigures = Pick<Filling, 'volume' | 'amount'>;

/** The same fill by its figures: both known, the same litres and amount as the pump wrote them. */
export function sameFill(a: FillFigures | null | undefined, b: FillFigures | null | undefined) {
  return !!a && !!b && a.volume === b.volume && a.amount === b.amount;
}

export const ForecourtEventSchema = z.object({
  kind: z.literal('pump'),
  previous: PumpStateName.nullable(),
  pump: PumpSchema,
});
export type ForecourtEvent = z.infer<typeof ForecourtEventSchema>;

export type Preset = { kind: 'volume'; volume: Dec } | { kind: 'amount'; amount: Dec };

export interface Authorisation {
  pump: number;
  preset?: Preset;
  /** Nozzles that may deliver; all when absent. */
  nozzles?: number[];
}

/**
 * Why a port refuses a command (the till answers them as `pump-<code>`). `not-drained`: the
 * pump still had something to say before a release (a block NAKed each time, a poll left
 * unanswered), so nothing was sent; `wrong-state`: the pump is no longer as the till saw it.
 */
export const PORT_REFUSALS = [
  'unknown-pump',
  'offline',
  'invalid',
  'not-acknowledged',
  'wrong-state',
  'not-drained',
  /** Resume asked of a fill the pump cannot go on with (a stopped DART fill is over). */
  'not-resumable',
] as const;
export type PortRefusal = (typeof PORT_REFUSALS)[number];

/** A refused command is a value with a stable code, never an exception. */
export type PortResult<T = void> =
  { ok: true; value: T } | { ok: false; code: PortRefusal; message: string };

export interface ForecourtPort {
  /** Every configured pump's last known state. */
  pumps(): PumpState[];
  /**
   * The pump answers and sells nothing until it is told its prices (DART: PUMP NOT PROGRAMMED
   * after a power-up); shown `out-of-order` meanwhile. Absent: a port whose pumps never wait so.
   */
  awaitsPrices?(pump: number): boolean;
  pump(n: number): PumpState | null;
  /** Subscribes to state changes; returns the unsubscribe. */
  onEvent(fn: (e: ForecourtEvent) => void): () => void;
  authorise(a: Authorisation): Promise<PortResult>;
  stop(pump: number): Promise<PortResult>;
  suspend(pump: number): Promise<PortResult>;
  resume(pump: number): Promise<PortResult>;
  /**
   * The finished fill was sold: the pump may go back to idle. Given the fill's figures, only
   * while the pump still shows that fill (refused `wrong-state` otherwise: released since, a
   * new fill on show); without them, whatever it shows.
   */
  clearFill(pump: number, fill?: FillFigures): Promise<PortResult>;
  /**
   * A release nobody used runs out: the pump goes back to idle, unless it is found (asked
   * again first) no longer waiting for its driver, refused then as `wrong-state`.
   */
  endRelease(pump: number): Promise<PortResult>;
  /** Unit prices per grade (nozzle 1, 2, ...), in the pump's price decimals. */
  setPrices(pump: number, prices: Dec[]): Promise<PortResult>;
  readTotals(pump: number, nozzle: number): Promise<PortResult<Totals>>;
  /** Asks the pump for its current filling again (after a restart) and returns it. */
  readFilling(pump: number): Promise<PortResult<Filling | null>>;
  close(): Promise<void>;
}
