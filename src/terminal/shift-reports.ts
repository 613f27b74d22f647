// Shift reports printed and kept (docs/terminal.md, "Shift reports kept"): `shift-report` with
// `print` keeps and prints the open shift's X report; `shift-close` keeps and prints the Z
// report; a closed shift answers its kept Z report (the figures at its close), reprinted as a
// copy on request; `shifts-recent` lists the latest shifts with their kept reports. A printer
// problem never undoes a close: the report stays kept, answered `printed: false`.
import type {
  CommandOutput,
  ErrorResponse,
  HandlerInput,
  KeptReport,
  ShiftReport,
} from '../contract/commands.js';
import { renderShiftReport, type ReportRow } from '../devices/escpos/shift-report.js';
import { dec, formatMoney, sub } from '../money/index.js';
import type { KeptShiftReport, ReportKind } from '../store/shift-reports.js';
import { refuse } from './command-map.js';
import type { TerminalPorts } from './ports.js';
import type { ReceiptService } from './receipt-service.js';
import type { ShiftService } from './shifts.js';
import { localMinute } from '../contract/local-time.js';
import { posZone } from './pos-date.js';
import { shiftOut } from './workflow.js';

type Answer = { report: ShiftReport; kept?: KeptReport };

export const keptOut = (k: KeptShiftReport): KeptReport => ({
  id: k.id,
  kind: k.kind,
  printed: k.printed,
  created_at: new Date(k.createdAt).toISOString(),
});

const money = (v: number) => formatMoney(dec(v), 2);
const who = (s: { id: string; name?: string }) => s.name ?? s.id;

/** The rows a report prints: the figures as the answer has them, times in the POS's `zone`. */
function rowsOf(r: ShiftReport, zone: string): ReportRow[] {
  // the zone once, above the times: with it on every row a label would not fit the paper
  const at = (iso: string) => localMinute(iso, zone);
  const rows: ReportRow[] = [
    { text: `Times in ${zone}` },
    { label: 'Opened', value: at(r.shift.opened_at) },
    { label: 'By', value: who(r.shift.opened_by) },
  ];
  if (r.shift.closed_at) rows.push({ label: 'Closed', value: at(r.shift.closed_at) });
  if (r.shift.closed_by) rows.push({ label: 'By', value: who(r.shift.closed_by) });
  const tally = (label: string, t: { count: number; amount: number }) =>
    rows.push({ label: `${label} (${t.count})`, value: money(t.amount) });
  tally('Sales', r.sales);
  tally('Refunds', r.refunds);
  tally('Cancellations', r.cancellations);
  tally('Offline sales', r.offline_sales);
  for (const p of r.payments) tally(`Paid by ${p.type}`, p);
  rows.push({ label: 'Bonuses added', value: money(r.bonuses.added) });
  rows.push({ label: 'Bonuses redeemed', value: money(r.bonuses.redeemed) });
  if (r.drive_offs)
    rows.push({
      label: `Drive-offs (${r.drive_offs.count}, ${r.drive_offs.litres} l)`,
      value: money(r.drive_offs.amount),
    });
  if (r.pump_prepaid_cash !== undefined)
    rows.push({ label: 'Cash prepaid at the pump', value: money(r.pump_prepaid_cash) });
  for (const m of r.cash_movements ?? [])
    rows.push({ label: `${m.kind}: ${m.reason}`, value: money(m.amount) });
  for (const o of r.drawer_openings ?? []) {
    rows.push({ label: 'Drawer opened', value: at(o.opened_at) });
    rows.push({ text: `  by ${who(o.staff)}${o.reason ? `: ${o.reason}` : ''}` });
  }
  const { opening_cash: opening, counted_cash: counted } = r.shift;
  if (opening !== undefined) rows.push({ label: 'Opening cash', value: money(opening) });
  if (r.expected_cash !== undefined)
    rows.push({ label: 'Expected cash', value: money(r.expected_cash) });
  if (counted !== undefined) rows.push({ label: 'Counted cash', value: money(counted) });
  if (counted !== undefined && r.expected_cash !== undefined) {
    const diff = sub(dec(counted), dec(r.expected_cash));
    rows.push({ label: 'Over (+) / short (-)', value: formatMoney(diff, 2) });
  }
  rows.push({ label: 'Not synced yet', value: String(r.unsynced) });
  rows.push({ label: 'Printed', value: at(r.generated_at) });
  return rows;
}

export class ShiftReportService {
  private readonly p: TerminalPorts;
  private readonly shifts: ShiftService;
  private readonly receipts: ReceiptService;

  constructor(p: TerminalPorts, shifts: ShiftService, receipts: ReceiptService) {
    this.p = p;
    this.shifts = shifts;
    this.receipts = receipts;
  }

  private keep(kind: ReportKind, report: ShiftReport): KeptShiftReport {
    return this.p.store.shiftReports.add({
      id: this.p.ids.newId(),
      shiftId: report.shift.id,
      kind,
      report,
      printed: false,
      createdAt: this.p.clock.now(),
    });
  }

  /** Closes the open shift and keeps its Z report, in the caller's transaction. */
  close(countedCash: number | undefined): CommandOutput<'shift-close'> | ErrorResponse {
    const out = this.shifts.close(countedCash);
    if ('error' in out) return out;
    return { report: out.report, kept: keptOut(this.keep('z', out.report)) };
  }

  /** Prints a kept report (after its commit); the answer says whether the printer took it. */
  async printKept<A extends Answer>(
    out: A | ErrorResponse,
    copy = false,
  ): Promise<A | ErrorResponse> {
    if ('error' in out || !out.kept) return out;
    const k = out.kept;
    const title = `${k.kind === 'z' ? 'Z' : 'X'} REPORT - SHIFT ${out.report.shift.number}`;
    const bytes = renderShiftReport(
      { title, copy, rows: rowsOf(out.report, posZone(this.p.store.cache)) },
      this.receipts.width,
    );
    const printed = await this.receipts.sendToPrinter(bytes, { report_id: k.id });
    if (printed) this.p.store.shiftReports.markPrinted(k.id);
    return { ...out, kept: { ...k, printed: printed || k.printed } };
  }

  /** `shift-report`: the open shift's (an X report kept and printed with `print`), or a closed one's Z. */
  async report(
    i: HandlerInput<'shift-report'>,
  ): Promise<CommandOutput<'shift-report'> | ErrorResponse> {
    const { store } = this.p;
    const s = i.shift_id ? store.shifts.get(i.shift_id) : store.shifts.current();
    if (!s)
      return refuse(
        i.shift_id ? 'shift-not-found' : 'shift-required',
        i.shift_id ? 'no such shift' : 'no shift is open',
        i.shift_id ? 'shift_id' : '(root)',
      );
    if (s.closedAt === null) {
      const report = this.shifts.reportOf(s);
      if (!i.print) return { report };
      return this.printKept({ report, kept: keptOut(this.keep('x', report)) });
    }
    const z = store.shiftReports
      .of(s.id)
      .filter((k) => k.kind === 'z')
      .at(-1);
    // A shift closed before reports were kept answers its figures as they read now.
    if (!z) return { report: this.shifts.reportOf(s) };
    const out = { report: z.report, kept: keptOut(z) };
    return i.print ? this.printKept(out, true) : out;
  }

  /** `shifts-recent`: the latest shifts, newest first, each with its kept reports. */
  recent(i: HandlerInput<'shifts-recent'>): CommandOutput<'shifts-recent'> {
    const { store } = this.p;
    const shifts = store.shiftReports.recentShiftIds(i.limit ?? 10).flatMap((id) => {
      const s = store.shifts.get(id);
      return s ? [{ shift: shiftOut(s), reports: store.shiftReports.of(id).map(keptOut) }] : [];
    });
    return { shifts };
  }
}
