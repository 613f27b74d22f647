// Tanks (0011): every reading kept (gauge polls and manual dips), deliveries, and the
// wet-stock reports kept with a shift's Z report. Volumes are decimal text; the report is the
// `wetstock-report` answer's JSON, read back through its schema.
import type Database from 'better-sqlite3';
import { WetStockReport } from '../contract/tanks.js';
import { readStoredOrThrow } from './stored-json.js';

export interface TankReadingRecord {
  readonly id: string;
  readonly tank: number;
  readonly source: 'gauge' | 'dip';
  readonly productCode: string | null;
  readonly volume: string;
  /** The volume corrected to 15 degrees C, as the gauge read it (0015); null: none given. */
  readonly tcVolume: string | null;
  readonly water: string | null;
  readonly temperature: string | null;
  readonly ullage: string | null;
  readonly staffId: string | null;
  readonly readAt: number;
}

export interface TankDeliveryRecord {
  readonly id: string;
  readonly tank: number;
  readonly shiftId: string | null;
  readonly source: 'gauge' | 'entered';
  readonly volumeBefore: string;
  readonly volumeAfter: string;
  /** The gauge's volumes corrected to 15 degrees C before and after (0015); null: none read. */
  readonly tcBefore: string | null;
  readonly tcAfter: string | null;
  readonly noteQuantity: string;
  readonly staffId: string | null;
  readonly recordedAt: number;
}

interface ReadingRow {
  id: string;
  tank: number;
  source: string;
  product_code: string | null;
  volume: string;
  tc_volume: string | null;
  water: string | null;
  temperature: string | null;
  ullage: string | null;
  staff_id: string | null;
  read_at: number;
}

interface DeliveryRow {
  id: string;
  tank: number;
  shift_id: string | null;
  source: string;
  volume_before: string;
  volume_after: string;
  tc_before: string | null;
  tc_after: string | null;
  note_quantity: string;
  staff_id: string | null;
  recorded_at: number;
}

const readingOf = (r: ReadingRow): TankReadingRecord => ({
  id: r.id,
  tank: r.tank,
  // The table's CHECK admits only these two.
  source: r.source === 'dip' ? 'dip' : 'gauge',
  productCode: r.product_code,
  volume: r.volume,
  tcVolume: r.tc_volume,
  water: r.water,
  temperature: r.temperature,
  ullage: r.ullage,
  staffId: r.staff_id,
  readAt: r.read_at,
});

const deliveryOf = (r: DeliveryRow): TankDeliveryRecord => ({
  id: r.id,
  tank: r.tank,
  shiftId: r.shift_id,
  source: r.source === 'entered' ? 'entered' : 'gauge',
  volumeBefore: r.volume_before,
  volumeAfter: r.volume_after,
  tcBefore: r.tc_before,
  tcAfter: r.tc_after,
  noteQuantity: r.note_quantity,
  staffId: r.staff_id,
  recordedAt: r.recorded_at,
});

export function createTanks(db: Database.Database) {
  const insertReading = db.prepare(
    `INSERT INTO tank_reading (id, tank, source, product_code, volume, tc_volume, water,
       temperature, ullage, staff_id, read_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const latest = db.prepare<[], ReadingRow>(
    `SELECT r.* FROM tank_reading r
     WHERE r.rowid = (SELECT rowid FROM tank_reading q WHERE q.tank = r.tank
                      ORDER BY read_at DESC, rowid DESC LIMIT 1)
     ORDER BY r.tank`,
  );
  const atOrBefore = db.prepare<[number], ReadingRow>(
    `SELECT r.* FROM tank_reading r
     WHERE r.rowid = (SELECT rowid FROM tank_reading q WHERE q.tank = r.tank AND q.read_at <= ?
                      ORDER BY read_at DESC, rowid DESC LIMIT 1)
     ORDER BY r.tank`,
  );
  const firstIn = db.prepare<[number, number], ReadingRow>(
    `SELECT r.* FROM tank_reading r
     WHERE r.rowid = (SELECT rowid FROM tank_reading q WHERE q.tank = r.tank
                      AND q.read_at > ? AND q.read_at <= ? ORDER BY read_at, rowid LIMIT 1)
     ORDER BY r.tank`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO tank_delivery (id, tank, shift_id, source, volume_before, volume_after,
       tc_before, tc_after, note_quantity, staff_id, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deliveriesIn = db.prepare<[number, number], DeliveryRow>(
    `SELECT * FROM tank_delivery WHERE recorded_at > ? AND recorded_at <= ?
     ORDER BY recorded_at, rowid`,
  );
  const insertReport = db.prepare(
    'INSERT INTO wetstock_report (id, shift_id, report, created_at) VALUES (?, ?, ?, ?)',
  );
  const reportOf = db.prepare<[string], { id: string; report: string }>(
    `SELECT id, report FROM wetstock_report WHERE shift_id = ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  return {
    addReading(r: TankReadingRecord): TankReadingRecord {
      insertReading.run(
        r.id,
        r.tank,
        r.source,
        r.productCode,
        r.volume,
        r.tcVolume,
        r.water,
        r.temperature,
        r.ullage,
        r.staffId,
        r.readAt,
      );
      return r;
    },
    /** The newest reading of each tank, by tank number. */
    latest: (): TankReadingRecord[] => latest.all().map(readingOf),
    /** Each tank's newest reading taken at or before `at`. */
    latestAt: (at: number): TankReadingRecord[] => atOrBefore.all(at).map(readingOf),
    /** Each tank's first reading taken after `from` up to and including `to`. */
    firstIn: (from: number, to: number): TankReadingRecord[] =>
      firstIn.all(from, to).map(readingOf),
    addDelivery(d: TankDeliveryRecord): TankDeliveryRecord {
      insertDelivery.run(
        d.id,
        d.tank,
        d.shiftId,
        d.source,
        d.volumeBefore,
        d.volumeAfter,
        d.tcBefore,
        d.tcAfter,
        d.noteQuantity,
        d.staffId,
        d.recordedAt,
      );
      return d;
    },
    /** Deliveries recorded after `from` up to and including `to`, oldest first. */
    deliveriesIn: (from: number, to: number): TankDeliveryRecord[] =>
      deliveriesIn.all(from, to).map(deliveryOf),
    keepReport(id: string, shiftId: string, report: WetStockReport, at: number): void {
      insertReport.run(id, shiftId, JSON.stringify(report), at);
    },
    /** The wet-stock report kept with a shift's Z report, or null. */
    keptReport(shiftId: string): WetStockReport | null {
      const r = reportOf.get(shiftId);
      return r ? readStoredOrThrow(WetStockReport, r.report, `wetstock_report ${r.id}`) : null;
    },
  };
}

export type Tanks = ReturnType<typeof createTanks>;
