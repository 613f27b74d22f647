// The forecourt as the terminal reports it (issue 16; docs/forecourt.md): each pump's state
// and running fill, and the fills waiting to be paid. The pump's own figures cross as exact
// decimal text (never floats): a fill is sold at the price the pump used. The device layer's
// forecourt port (src/devices/forecourt/port.ts) speaks these same shapes.
import { z } from 'zod';
import { dateTime } from './wire.js';

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

/** Total counters of one nozzle, as the pump's totalizer reads them. */
export const TotalsSchema = z.object({
  pump: z.number().int(),
  nozzle: z.number().int().min(1).max(15),
  volume: DecimalText,
  amount: DecimalText.nullable(),
});
export type Totals = z.infer<typeof TotalsSchema>;

/** A fill the pump finished, kept by the terminal until it is sold or recorded as a drive-off. */
export const FillView = z.strictObject({
  id: z.uuid(),
  pump: z.int().min(1),
  nozzle: z.int().min(1),
  /** The grade's good code (the catalogue's fuel line). */
  grade: z.string(),
  volume: DecimalText,
  amount: DecimalText,
  unit_price: DecimalText,
  /** The prepay's pump authorisation (`sale-process` preauthorization), when prepaid. */
  authorisation_id: z.uuid().nullable(),
  state: z.enum(['unpaid', 'sold', 'drive-off']),
  transaction_id: z.uuid().nullable(),
  finished_at: dateTime,
});
export type FillView = z.infer<typeof FillView>;

/** A pump as the till shows it: the port's state, and what the terminal knows beside it. */
export const PumpView = PumpSchema.extend({
  /** The prepay authorisation the pump was released for, if any. */
  authorisation_id: z.uuid().nullable(),
  /** Fills finished on this pump and not yet paid (two: stacked). */
  unpaid: z.int().min(0),
  /**
   * An authorised pump whose nozzle is not lifted by then is released again
   * (`terminal.forecourt.release_after_ms`); null when the pump is not waiting to be used.
   */
  release_expires_at: z.iso.datetime().nullable(),
});
export type PumpView = z.infer<typeof PumpView>;

/**
 * A grade a pump sells on one nozzle, at the catalogue's price: what a prepay's fuel line sells
 * at (the pumps are told the same price, docs/forecourt.md "Prices at the pumps"), so the
 * cashier picks it rather than types it.
 */
export const PumpGrade = z.strictObject({
  pump: z.int().min(1),
  nozzle: z.int().min(1).max(15),
  /** The grade's good code (the catalogue's fuel line). */
  code: z.string(),
  /** The catalogue's name for it; null when the catalogue does not list it. */
  title: z.string().nullable(),
  /** The catalogue's price per litre; null when it has none (no prepay can be priced). */
  price: DecimalText.nullable(),
});
export type PumpGrade = z.infer<typeof PumpGrade>;

/** `forecourt-state`: every pump, every fill waiting to be paid (oldest first), every grade. */
export const ForecourtState = z.strictObject({
  pumps: z.array(PumpView),
  unpaid: z.array(FillView),
  /** Each set-up pump's nozzles in order, pump by pump. */
  grades: z.array(PumpGrade),
});
export type ForecourtState = z.infer<typeof ForecourtState>;

/**
 * The `pump-state` event: a pump changed (its state, its nozzle, the litres and amount running
 * while it fuels), as `forecourt-state` would show it, with its fills waiting to be paid.
 */
export const PumpStateEvent = z.strictObject({
  /** The state before this change; null at the first reading. */
  previous: PumpStateName.nullable(),
  pump: PumpView,
  /** This pump's unpaid fills, oldest first. */
  unpaid: z.array(FillView),
});
export type PumpStateEvent = z.infer<typeof PumpStateEvent>;

/** The actions a person at a simulated pump takes (`simulator-pump`). */
export const SimulatorPumpAction = z.enum(['lift', 'dispense', 'hang-up']);

/** A simulated pump as its simulator sees it (what a person at it would see on its display). */
export const SimulatedPump = z.strictObject({
  pump: z.int().min(1),
  /** The nozzle out of its holster; null when all are in. */
  nozzle: z.int().min(1).max(15).nullable(),
  /** Litres and amount on the pump's display (the current or last fill). */
  volume: DecimalText,
  amount: DecimalText,
  /** Fuel is running (a `dispense` under way). */
  flowing: z.boolean(),
});
export type SimulatedPump = z.infer<typeof SimulatedPump>;
