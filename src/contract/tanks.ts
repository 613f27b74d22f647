// Tanks and wet stock (issue 16, points 5 and 6; docs/forecourt.md "Tanks and wet stock"):
// the readings the poller and the attendant keep, deliveries, and the wet-stock report.
// Volumes in litres, temperatures in degrees C, as numbers on the wire; computed in src/money.
import { z } from 'zod';
import { dateTime, num } from './wire.js';

/** A tank's number on the gauge (i201 `TT`) or on the forecourt's plan: 1..99. */
export const TankNumber = z.int().min(1, { error: 'tanks are numbered from 1' }).max(99, {
  error: 'tanks are numbered up to 99',
});

/** A volume a person reads or enters: >= 0 litres. */
export const Litres = num.min(0, { error: 'must be >= 0 litres' });

export const TankReadingOut = z.strictObject({
  tank: TankNumber,
  /** `gauge`: read by the poller; `dip`: entered by hand (a tank without a gauge). */
  source: z.enum(['gauge', 'dip']),
  /** The gauge's product code (one character), when it said. */
  product_code: z.string().optional(),
  /** The goods code of the grade the tank holds (`terminal.tanks.grades`), when configured. */
  goods_code: z.string().optional(),
  volume: num,
  /** The volume corrected to 15 °C, when the gauge gave it (a delivery note's litres). */
  tc_volume: num.optional(),
  water: num.optional(),
  temperature: num.optional(),
  ullage: num.optional(),
  read_at: dateTime,
});
export type TankReadingOut = z.infer<typeof TankReadingOut>;

export const TankDeliveryOut = z.strictObject({
  id: z.uuid(),
  tank: TankNumber,
  /** `gauge`: before = the last reading kept, after = read now; `entered`: both typed in. */
  source: z.enum(['gauge', 'entered']),
  volume_before: num,
  volume_after: num,
  /** volume_after - volume_before: what the tank gained. */
  received: num,
  note_quantity: num,
  /** received - note_quantity: negative = less than the note says. */
  difference: num,
  /**
   * What the tank gained corrected to 15 °C, and that against the note (whose litres are at
   * 15 °C): present when both readings came from a gauge that gives TC volumes.
   */
  received_tc: num.optional(),
  difference_tc: num.optional(),
  shift_id: z.uuid().nullable(),
  recorded_at: dateTime,
});
export type TankDeliveryOut = z.infer<typeof TankDeliveryOut>;

/** One tank's or one grade's line: book stock against the closing reading. */
export const WetStockLine = z.strictObject({
  /** The tank (absent on a grade's line). */
  tank: TankNumber.optional(),
  goods_code: z.string().nullable(),
  /** Null when the period has no reading at or before its start. */
  opening: num.nullable(),
  deliveries: num,
  /** Litres sold; null on a tank's line when its grade has several tanks (not attributable). */
  sales: num.nullable(),
  /** opening + deliveries - sales; null when a part is unknown. */
  book: num.nullable(),
  closing: num.nullable(),
  /** closing - book: negative = fuel missing. */
  variance: num.nullable(),
  /** variance / sales * 100, two decimals; null without sales. */
  variance_percent: num.nullable(),
  /** |variance_percent| above `terminal.tanks.variance_percent`. */
  over_threshold: z.boolean(),
});
export type WetStockLine = z.infer<typeof WetStockLine>;

export const WetStockReport = z.strictObject({
  period: z.strictObject({
    kind: z.enum(['shift', 'day']),
    shift_id: z.uuid().optional(),
    day: z.string().optional(),
    from: dateTime,
    to: dateTime,
  }),
  /** Where pump sales came from: the litres sold on the period's sales (docs/forecourt.md). */
  sales_source: z.enum(['sold-quantities', 'totalizers']),
  threshold_percent: num,
  tanks: z.array(WetStockLine),
  grades: z.array(WetStockLine),
  generated_at: dateTime,
});
export type WetStockReport = z.infer<typeof WetStockReport>;
