// Tanks and wet stock (issue 16, points 5 and 6; docs/forecourt.md "Tanks and wet stock"):
// the gauge polled on its own (TankPoller) and every reading kept, manual dips, deliveries,
// and the wet-stock report of a shift or a day: computed (wetstock.ts), printed, kept with
// the shift's Z report, and a variance beyond `terminal.tanks.variance_percent` noted on the
// attention list.
import { z } from 'zod';
import type { CommandOutput, ErrorResponse, HandlerInput } from '../contract/commands.js';
import { localMinute } from '../contract/local-time.js';
import type {
  TankDeliveryOut,
  TankReadingOut,
  WetStockLine,
  WetStockReport,
} from '../contract/tanks.js';
import { renderShiftReport, type ReportRow } from '../devices/escpos/shift-report.js';
import type { TankReading } from '../devices/tls/i201.js';
import { add, dec, round, sub, toFixed, toNumber, ZERO, type Dec } from '../money/index.js';
import type { ShiftRecord } from '../store/shifts.js';
import type { TankDeliveryRecord, TankReadingRecord } from '../store/tanks.js';
import { refuse } from './command-map.js';
import type { FuelGrades } from './forecourt-grades.js';
import { posZone } from './pos-date.js';
import type { PumpTotalsService } from './pump-totals.js';
import type { TerminalPorts } from './ports.js';
import type { ReceiptService } from './receipt-service.js';
import { wetStock, type PumpSales, type TankPeriod } from './wetstock.js';
import type { Workflow } from './workflow.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** Gauge floats to three decimals (millilitres) through src/money, never kept as floats. */
const litres = (v: number): string => toFixed(round(dec(v), 3));

/** The TC volume a gauge read; a gauge that keeps none sends none (NaN) or 0 for a full tank. */
const tcOf = (t: TankReading): string | null =>
  Number.isFinite(t.tc_volume) && !(t.tc_volume === 0 && t.volume > 0) ? litres(t.tc_volume) : null;

/** A sold line as the stored check has it: what a wet-stock report needs of it. */
const SoldLines = z.array(
  z.looseObject({ code: z.string().optional(), quantity: z.union([z.number(), z.string()]) }),
);

/** Reads the gauge every `intervalMs` on its own; a failed read is logged and tried next time. */
export class TankPoller {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly poll: () => Promise<unknown>;
  private readonly intervalMs: number;

  constructor(poll: () => Promise<unknown>, intervalMs: number) {
    this.poll = poll;
    this.intervalMs = intervalMs;
  }

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.poll().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.intervalMs);
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export class TankService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;
  private readonly receipts: ReceiptService;
  private readonly grades: FuelGrades;
  private readonly totals: PumpTotalsService | null;

  /**
   * `grades`: the terminal's one resolution of nozzles and tanks to goods codes; `totals`: the
   * pumps' totalizers, the wet stock's pump sales when read at both ends.
   */
  constructor(
    p: TerminalPorts,
    wf: Workflow,
    receipts: ReceiptService,
    grades: FuelGrades,
    totals: PumpTotalsService | null = null,
  ) {
    this.p = p;
    this.wf = wf;
    this.receipts = receipts;
    this.grades = grades;
    this.totals = totals;
  }

  /** The goods code a tank holds: `terminal.tanks.grades`, else its nozzles' (forecourt-grades). */
  private gradeOf(tank: number): string | null {
    return this.grades.tanks.get(tank) ?? null;
  }

  private readingOut(r: TankReadingRecord): TankReadingOut {
    const num = (v: string | null) => (v === null ? undefined : toNumber(dec(v)));
    const goods = this.gradeOf(r.tank);
    const out: TankReadingOut = {
      tank: r.tank,
      source: r.source,
      ...(r.productCode === null ? {} : { product_code: r.productCode }),
      ...(goods === null ? {} : { goods_code: goods }),
      volume: toNumber(dec(r.volume)),
      read_at: iso(r.readAt),
    };
    for (const k of ['water', 'temperature', 'ullage'] as const) {
      const v = num(r[k]);
      if (v !== undefined) out[k] = v;
    }
    const tc = num(r.tcVolume);
    if (tc !== undefined) out.tc_volume = tc;
    return out;
  }

  /** Reads every tank on the gauge and keeps the readings; null without a gauge or an answer. */
  async poll(): Promise<TankReadingRecord[] | null> {
    const gauge = this.p.devices?.tankGauge;
    if (!gauge) return null;
    let tanks: TankReading[];
    try {
      tanks = (await gauge.inventory('00')).tanks;
    } catch (e) {
      this.p.log.warn('tank gauge not read', { err: e });
      return null;
    }
    const at = this.p.clock.now();
    return this.p.store.write(() =>
      tanks.map((t) =>
        this.p.store.tanks.addReading({
          id: this.p.ids.newId(),
          tank: t.tank,
          source: 'gauge',
          productCode: t.product_code,
          volume: litres(t.volume),
          tcVolume: tcOf(t),
          water: litres(t.water),
          temperature: toFixed(round(dec(t.temperature), 2)),
          ullage: litres(t.ullage),
          staffId: null,
          readAt: at,
        }),
      ),
    );
  }

  /** `tank-readings`: a manual dip kept, or the gauge read now (`read`); the latest per tank. */
  async readings(
    i: HandlerInput<'tank-readings'>,
  ): Promise<CommandOutput<'tank-readings'> | ErrorResponse> {
    const { store, clock, ids } = this.p;
    if (i.dip) {
      const d = i.dip;
      store.tanks.addReading({
        id: ids.newId(),
        tank: d.tank,
        source: 'dip',
        productCode: null,
        volume: toFixed(dec(d.volume)),
        tcVolume: null,
        water: d.water === undefined ? null : toFixed(dec(d.water)),
        temperature: d.temperature === undefined ? null : toFixed(dec(d.temperature)),
        ullage: null,
        staffId: this.wf.staff?.id ?? null,
        readAt: clock.now(),
      });
    } else if (i.read) {
      if (!this.p.devices?.tankGauge)
        return refuse('tank-gauge-missing', 'this till has no tank gauge; enter a dip', 'read');
      if ((await this.poll()) === null)
        return refuse('tank-gauge-unavailable', 'the tank gauge did not answer', 'read');
    }
    return { readings: store.tanks.latest().map((r) => this.readingOut(r)) };
  }

  /** `tank-delivery`: the volumes before and after as entered, or the last reading and the gauge now. */
  async delivery(
    i: HandlerInput<'tank-delivery'>,
  ): Promise<CommandOutput<'tank-delivery'> | ErrorResponse> {
    const { store } = this.p;
    let before: string;
    let after: string;
    let tc: { before: string | null; after: string | null } = { before: null, after: null };
    let source: 'gauge' | 'entered';
    if (i.volume_before !== undefined && i.volume_after !== undefined) {
      before = toFixed(dec(i.volume_before));
      after = toFixed(dec(i.volume_after));
      source = 'entered';
    } else if (i.volume_before !== undefined || i.volume_after !== undefined) {
      const missing = i.volume_before === undefined ? 'volume_before' : 'volume_after';
      return refuse(
        'delivery-volumes',
        'enter both volumes, or neither to read the gauge',
        missing,
      );
    } else {
      const last = store.tanks.latest().find((r) => r.tank === i.tank && r.source === 'gauge');
      if (!last)
        return refuse(
          'tank-reading-required',
          'no gauge reading of this tank before the delivery; enter both volumes',
          'tank',
        );
      const read = await this.poll();
      const now = read?.find((r) => r.tank === i.tank);
      if (!now)
        return refuse('tank-gauge-unavailable', 'the tank gauge did not read this tank', 'tank');
      before = last.volume;
      after = now.volume;
      tc = { before: last.tcVolume, after: now.tcVolume };
      source = 'gauge';
    }
    const record = store.tanks.addDelivery({
      id: this.p.ids.newId(),
      tank: i.tank,
      shiftId: store.shifts.current()?.id ?? null,
      source,
      volumeBefore: before,
      volumeAfter: after,
      tcBefore: tc.before,
      tcAfter: tc.after,
      noteQuantity: toFixed(dec(i.note_quantity)),
      staffId: this.wf.staff?.id ?? null,
      recordedAt: this.p.clock.now(),
    });
    return { delivery: deliveryOut(record) };
  }

  /** Litres sold per grade on the shifts' sales (the seam a totalizer reader replaces). */
  private soldOn(shifts: readonly ShiftRecord[]): PumpSales {
    const grades = new Set(this.grades.tanks.values());
    const by = new Map<string, Dec>();
    for (const s of shifts)
      for (const op of this.p.store.shifts.operationsOf(s)) {
        // Fuel left the tank on a sale; a refund or a cancellation puts none back.
        if (op.kind !== 'check' || op.transactionType === 'refund' || !op.check) continue;
        const lines = SoldLines.safeParse(op.check.check_items ?? []);
        for (const l of lines.success ? lines.data : [])
          if (l.code !== undefined && grades.has(l.code))
            by.set(l.code, add(by.get(l.code) ?? ZERO, dec(l.quantity)));
      }
    return { source: 'sold-quantities', litresByGrade: () => by };
  }

  /** The report of the period `from`..`to` over the sales of `shifts`. */
  private compute(
    period: WetStockReport['period'],
    from: number,
    to: number,
    shifts: readonly ShiftRecord[],
  ): WetStockReport {
    const { store, config } = this.p;
    // The stock at the start: the reading at or before it, else the period's first one.
    const before = store.tanks.latestAt(from);
    const opening = [
      ...before,
      ...store.tanks.firstIn(from, to).filter((r) => !before.some((b) => b.tank === r.tank)),
    ];
    const closing = store.tanks.latestAt(to);
    const deliveries = store.tanks.deliveriesIn(from, to);
    const numbers = new Set<number>([
      ...this.grades.tanks.keys(),
      ...opening.map((r) => r.tank),
      ...closing.map((r) => r.tank),
      ...deliveries.map((d) => d.tank),
    ]);
    const volumeOf = (rs: TankReadingRecord[], t: number) => {
      const r = rs.find((x) => x.tank === t);
      return r ? dec(r.volume) : null;
    };
    // An opening read inside the period holds what was delivered before it: those deliveries
    // are in it already, and counted again they would show as fuel missing.
    const openedAt = (t: number) => opening.find((r) => r.tank === t)?.readAt ?? from;
    const tanks: TankPeriod[] = [...numbers].map((t) => ({
      tank: t,
      goodsCode: this.gradeOf(t),
      opening: volumeOf(opening, t),
      closing: volumeOf(closing, t),
      deliveries: deliveries
        .filter((d) => d.tank === t && (openedAt(t) <= from || d.recordedAt > openedAt(t)))
        .reduce((sum, d) => add(sum, sub(dec(d.volumeAfter), dec(d.volumeBefore))), ZERO),
    }));
    const threshold = dec(config.terminal.tanks.variance_percent);
    const sales = this.totals?.salesOf(shifts) ?? this.soldOn(shifts);
    const lines = wetStock({ tanks, sales, thresholdPercent: threshold });
    return {
      period,
      sales_source: sales.source,
      threshold_percent: toNumber(threshold),
      ...lines,
      generated_at: iso(this.p.clock.now()),
    };
  }

  /** A shift's report: from its open to its close (now while open). */
  ofShift(s: ShiftRecord): WetStockReport {
    const to = s.closedAt ?? this.p.clock.now();
    const period = { kind: 'shift' as const, shift_id: s.id, from: iso(s.openedAt), to: iso(to) };
    return this.compute(period, s.openedAt, to, [s]);
  }

  /** A day's report: the shifts opened on that date (UTC), from the first open to the last close. */
  private ofDay(day: string): WetStockReport | ErrorResponse {
    const { store } = this.p;
    const shifts = store.shiftReports
      .recentShiftIds(200)
      .map((id) => store.shifts.get(id))
      .filter((s): s is ShiftRecord => s !== null && iso(s.openedAt).slice(0, 10) === day)
      .sort((a, b) => a.openedAt - b.openedAt);
    if (shifts.length === 0) return refuse('shift-not-found', 'no shift opened that day', 'day');
    const from = shifts[0]!.openedAt;
    const to = Math.max(...shifts.map((s) => s.closedAt ?? this.p.clock.now()));
    return this.compute({ kind: 'day', day, from: iso(from), to: iso(to) }, from, to, shifts);
  }

  /** `wetstock-report`: a shift's (default the open one; a closed one's as kept) or a day's. */
  async report(
    i: HandlerInput<'wetstock-report'>,
  ): Promise<CommandOutput<'wetstock-report'> | ErrorResponse> {
    const { store } = this.p;
    let report: WetStockReport | ErrorResponse;
    if (i.day !== undefined) report = this.ofDay(i.day);
    else {
      const s = i.shift_id ? store.shifts.get(i.shift_id) : store.shifts.current();
      if (!s)
        return refuse(
          i.shift_id ? 'shift-not-found' : 'shift-required',
          i.shift_id ? 'no such shift' : 'no shift is open; name a shift or a day',
          i.shift_id ? 'shift_id' : '(root)',
        );
      report = (s.closedAt === null ? null : store.tanks.keptReport(s.id)) ?? this.ofShift(s);
    }
    if ('error' in report) return report;
    const printed = i.print ? await this.print(report) : false;
    return { report, printed };
  }

  /**
   * At a shift's close (after its Z report is kept): the shift's wet-stock report kept with
   * it, each line over the threshold noted on the attention list, and the report printed.
   */
  async atClose(shiftId: string): Promise<void> {
    const { store, clock, ids, log } = this.p;
    const s = store.shifts.get(shiftId);
    if (!s) return;
    const report = this.ofShift(s);
    store.write(() => {
      store.tanks.keepReport(ids.newId(), s.id, report, clock.now());
      for (const l of [...report.tanks, ...report.grades].filter((x) => x.over_threshold)) {
        const what = l.tank === undefined ? `grade ${l.goods_code}` : `tank ${l.tank}`;
        store.attention.note(
          {
            id: ids.newId(),
            kind: 'wetstock-variance',
            ref: `wetstock:${s.id}:${l.tank ?? l.goods_code}`,
            message: `wet stock of ${what} is off by ${l.variance} l (${l.variance_percent}% of the litres sold) in shift ${s.number}`,
            details: { shift_id: s.id, ...l },
          },
          clock.now(),
        );
      }
    });
    if (report.tanks.length + report.grades.length === 0) return;
    if (!(await this.print(report))) log.warn('wet-stock report not printed', { shift_id: s.id });
  }

  private async print(r: WetStockReport): Promise<boolean> {
    const zone = posZone(this.p.store.cache);
    const bytes = renderShiftReport(
      { title: 'WET STOCK', copy: false, rows: rowsOf(r, zone) },
      this.receipts.width,
    );
    return this.receipts.sendToPrinter(bytes, { what: 'wet-stock report' });
  }
}

const l = (v: number | null) => (v === null ? '-' : toFixed(round(dec(v), 1), 1));

/** The printed rows: each tank, then each grade, with the figures of the balance. */
function rowsOf(r: WetStockReport, zone: string): ReportRow[] {
  const rows: ReportRow[] = [
    { text: `Times in ${zone}` },
    { label: 'From', value: localMinute(r.period.from, zone) },
    { label: 'To', value: localMinute(r.period.to, zone) },
  ];
  const block = (title: string, x: WetStockLine) => {
    rows.push({ text: title });
    rows.push({ label: '  Opening', value: l(x.opening) });
    rows.push({ label: '  + Deliveries', value: l(x.deliveries) });
    rows.push({ label: '  - Sales', value: l(x.sales) });
    rows.push({ label: '  = Book', value: l(x.book) });
    rows.push({ label: '  Closing', value: l(x.closing) });
    rows.push({ label: '  Variance l', value: l(x.variance) });
    const pct = x.variance_percent === null ? '-' : `${x.variance_percent}%`;
    rows.push({ label: x.over_threshold ? '  Variance % !!' : '  Variance %', value: pct });
  };
  for (const t of r.tanks) block(`Tank ${t.tank}${t.goods_code ? ` ${t.goods_code}` : ''}`, t);
  for (const g of r.grades) block(`Grade ${g.goods_code ?? '?'}`, g);
  return rows;
}

export function deliveryOut(d: TankDeliveryRecord): TankDeliveryOut {
  const received = sub(dec(d.volumeAfter), dec(d.volumeBefore));
  const note = dec(d.noteQuantity);
  const receivedTc =
    d.tcBefore === null || d.tcAfter === null ? null : sub(dec(d.tcAfter), dec(d.tcBefore));
  return {
    id: d.id,
    tank: d.tank,
    source: d.source,
    volume_before: toNumber(dec(d.volumeBefore)),
    volume_after: toNumber(dec(d.volumeAfter)),
    received: toNumber(received),
    note_quantity: toNumber(dec(d.noteQuantity)),
    difference: toNumber(sub(received, note)),
    ...(receivedTc === null
      ? {}
      : { received_tc: toNumber(receivedTc), difference_tc: toNumber(sub(receivedTc, note)) }),
    shift_id: d.shiftId,
    recorded_at: iso(d.recordedAt),
  };
}
