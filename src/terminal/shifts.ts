// Shifts: open (any cashier), close (a manager, with the counted cash), and the shift report:
// sales, refunds, cancellations, offline sales, payments by type, bonuses, the cash expected
// in the drawer, and what is not synced yet. Figures come from the ledger operations of the
// shift (store/shifts.ts) and are summed exactly (src/money).
import type { PumpFill } from '../store/pump-fills.js';
import type { CommandOutput, ErrorResponse, ShiftReport } from '../contract/commands.js';
import { add, dec, isZero, neg, round, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import type { ShiftCheck, ShiftOperation, ShiftRecord } from '../store/shifts.js';
import { cashMovementOut } from './cash-movements.js';
import { refuse } from './command-map.js';
import { drawerOpeningOut } from './drawer.js';
import type { TerminalPorts } from './ports.js';
import { shiftOut, type Workflow } from './workflow.js';

interface Tally {
  count: number;
  amount: Dec;
}
const tally = (): Tally => ({ count: 0, amount: ZERO });
const bump = (t: Tally, amount: Dec) => {
  t.count += 1;
  t.amount = add(t.amount, amount);
};
const out = (t: Tally) => ({ count: t.count, amount: toNumber(t.amount) });

/** Payments a stored check names (`payments` of a split), else its single payment rows. */
function paymentsOf(
  check: ShiftCheck | null,
  rows: ReadonlyArray<{ type: string; amount: string }>,
) {
  const split = check?.payments ?? [];
  if (split.length > 0) return split.map((p) => ({ type: p.type, amount: dec(p.amount) }));
  return rows.map((r) => ({ type: r.type, amount: dec(r.amount) }));
}

/**
 * Cash counted into or out of the drawer, rounded half away from zero to the amount digits
 * when read, as engine.md 17.2 rounds a check's values: 2, the engine's default (engine.md 1),
 * since the till has no other source of a drawer's digits.
 */
const DRAWER_DIGITS = 2;
const drawerCash = (cash: number | undefined): number | null =>
  cash === undefined ? null : toNumber(round(dec(cash), DRAWER_DIGITS));

export class ShiftService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;

  constructor(p: TerminalPorts, wf: Workflow) {
    this.p = p;
    this.wf = wf;
  }

  open(openingCash: number | undefined): CommandOutput<'shift-open'> | ErrorResponse {
    const staff = this.wf.staff!;
    if (this.p.store.shifts.current())
      return refuse('shift-already-open', 'a shift is already open');
    const s = this.p.store.shifts.open(
      {
        id: this.p.ids.newId(),
        staffId: staff.id,
        staffName: staff.name ?? null,
        openingCash: drawerCash(openingCash),
      },
      this.p.clock.now(),
    );
    this.p.log.info('shift opened', { shift_id: s.id, number: s.number, staff_id: staff.id });
    return { shift: shiftOut(s) };
  }

  close(countedCash: number | undefined): CommandOutput<'shift-close'> | ErrorResponse {
    const staff = this.wf.staff!;
    const current = this.p.store.shifts.current();
    if (!current) return refuse('shift-required', 'no shift is open');
    const s = this.p.store.shifts.close(
      {
        id: current.id,
        staffId: staff.id,
        staffName: staff.name ?? null,
        countedCash: drawerCash(countedCash),
      },
      this.p.clock.now(),
    );
    this.p.log.info('shift closed', { shift_id: s.id, number: s.number, staff_id: staff.id });
    return { report: this.reportOf(s) };
  }

  /**
   * Cash fuel prepays (taken when the pump was authorised, before anything is sold): in the
   * drawer of the shift that took them, and out of the shift whose completion booked the sale
   * (its cash payment is the amount sold; the rest went back as change).
   */
  private prepaidCash(s: ShiftRecord, ops: readonly ShiftOperation[]): Dec {
    const shifts = this.p.store.shifts;
    let total = ZERO;
    for (const p of shifts.cashPrepaysOf(s.id)) total = add(total, dec(p.amount));
    for (const op of ops) {
      if (op.kind !== 'check' || op.transactionType !== 'completion') continue;
      const id = op.check?.preliminary_transaction_id;
      const taken = id ? shifts.cashPrepayOf(id) : null;
      if (taken !== null) total = sub(total, dec(taken));
    }
    return total;
  }

  reportOf(s: ShiftRecord): ShiftReport {
    const { store } = this.p;
    const sales = tally();
    const refunds = tally();
    const cancellations = tally();
    const offline = tally();
    const payments = new Map<string, Tally>();
    let added = ZERO;
    let redeemed = ZERO;
    let unsynced = 0;
    const pay = (type: string, amount: Dec) => {
      const t = payments.get(type) ?? tally();
      bump(t, amount);
      payments.set(type, t);
    };

    const ops = store.shifts.operationsOf(s);
    for (const op of ops) {
      if (op.outboxStatus && op.outboxStatus !== 'done') unsynced += 1;
      for (const b of op.bonuses) {
        const v = dec(b.amount);
        if (b.kind === 'add') added = add(added, v);
        else if (b.kind === 'write-off') added = sub(added, v);
        else if (b.kind === 'redeem') redeemed = add(redeemed, v);
        else if (b.kind === 'return') redeemed = sub(redeemed, v);
      }
      if (op.kind === 'check' && op.transactionType === 'refund') {
        bump(refunds, dec(op.amountToPay ?? 0));
        for (const p of paymentsOf(null, op.payments)) pay(p.type, neg(p.amount));
      } else if (op.kind === 'check') {
        const amount = dec(op.amountToPay ?? 0);
        bump(sales, amount);
        if (op.subtype === 'offline') bump(offline, amount);
        for (const p of paymentsOf(op.check, op.payments)) pay(p.type, p.amount);
      } else if (op.kind === 'cancellation' && op.cancels && store.ledger.hasCheck(op.cancels)) {
        // A void of a sale never recorded here cancels nothing in this drawer.
        const total = op.payments.reduce((t, p) => add(t, dec(p.amount)), ZERO);
        bump(cancellations, total);
        for (const p of op.payments) pay(p.type, neg(dec(p.amount)));
      }
    }
    const moves = store.cashMovements.of(s.id);
    const openings = store.drawerOpenings.of(s.id);
    const prepaid = this.prepaidCash(s, ops);
    const driven = store.pumpFills.driveOffs(s.openedAt, s.closedAt ?? this.p.clock.now());
    const cash = [
      payments.get('cash')?.amount ?? ZERO,
      prepaid,
      ...moves.map((m) => (m.kind === 'paid-in' ? dec(m.amount) : neg(dec(m.amount)))),
    ].reduce(add, ZERO);
    const currency = (store.cache.all('loyalty')[0] as { currency?: string } | undefined)?.currency;
    return {
      shift: shiftOut(s),
      ...(currency ? { currency } : {}),
      sales: out(sales),
      refunds: out(refunds),
      cancellations: out(cancellations),
      offline_sales: out(offline),
      payments: [...payments.entries()].map(([type, t]) => ({
        type: type as ShiftReport['payments'][number]['type'],
        count: t.count,
        amount: toNumber(t.amount),
      })),
      bonuses: { added: toNumber(added), redeemed: toNumber(redeemed) },
      ...(moves.length > 0 ? { cash_movements: moves.map(cashMovementOut) } : {}),
      ...(isZero(prepaid) ? {} : { pump_prepaid_cash: toNumber(prepaid) }),
      ...(openings.length > 0 ? { drawer_openings: openings.map(drawerOpeningOut) } : {}),
      ...(driven.length > 0 ? { drive_offs: driveOffsOf(driven) } : {}),
      ...(s.openingCash !== null ? { expected_cash: toNumber(add(dec(s.openingCash), cash)) } : {}),
      unsynced,
      generated_at: new Date(this.p.clock.now()).toISOString(),
    };
  }
}

/** A shift's drive-offs: how many, and the litres and money lost (the pumps' figures). */
function driveOffsOf(fills: readonly PumpFill[]): NonNullable<ShiftReport['drive_offs']> {
  const total = (pick: (f: PumpFill) => string) =>
    toNumber(fills.reduce((t, f) => add(t, dec(pick(f))), ZERO));
  return { count: fills.length, litres: total((f) => f.volume), amount: total((f) => f.amount) };
}
