// Shift reports printed and kept (docs/terminal.md, "Shift reports kept"): the X report on
// request during a shift, the Z report at its close, both printed on the simulated printer
// and kept in the store; past shifts listed (`shifts-recent`) and their Z reprinted as a copy.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { tillPerTest, type Till } from './helpers.js';
import { localMinute } from '../../src/contract/local-time.js';

const { signedIn } = tillPerTest();

const printerOf = (t: Till) => t.terminal.devices?.simulators.printer as PrinterSimulator;

/** The printed receipts, once the printer has `n` (it reads on its own turn). */
async function printed(t: Till, n: number) {
  for (let i = 0; i < 100 && printerOf(t).receipts.length < n; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(printerOf(t).receipts).toHaveLength(n);
  return printerOf(t).receipts.map((r) => r.lines.join('\n'));
}

/**
 * A manager's till with shift 2 opened on 100.00, a paid-in and a drawer opening (the Z
 * report of shift 1 printed: one receipt). It has a printer and no tank gauge.
 */
async function busyShift(): Promise<Till> {
  // no tank gauge: a till reading tanks also prints the wet stock at each close (forecourt.md)
  const t = await signedIn(DEMO.authCodes.manager, { devices: { printer: { simulated: true } } });
  await t.ok('shift-close', {});
  await printed(t, 1);
  await t.ok('shift-open', { opening_cash: 100 });
  await t.ok('cash-movement', { kind: 'paid-in', amount: 20, reason: 'change from the bank' });
  await t.ok('drawer-open', { reason: 'change for a customer' });
  return t;
}

describe('the X report', () => {
  it('prints on request with the cash movements and drawer openings, and is kept', async () => {
    const t = await busyShift();
    const { report, kept } = await t.ok('shift-report', { print: true });
    expect(kept).toMatchObject({ kind: 'x', printed: true });
    const [, text] = await printed(t, 2);
    expect(text).toMatch(/X REPORT - SHIFT 2/);
    expect(text).toMatch(/paid-in: change from the bank\s+20\.00/);
    expect(text).toMatch(/Drawer opened .*\n {2}by Mia Manager: change for a customer/);
    expect(text).toMatch(/Expected cash\s+120\.00/);
    const stored = t.terminal.store.shiftReports.of(report.shift.id);
    expect(stored).toMatchObject([{ id: kept!.id, kind: 'x', printed: true, report }]);
  });

  it("prints its times in the POS's zone, as the receipt does, not in UTC", async () => {
    const t = await busyShift();
    const { report } = await t.ok('shift-report', { print: true });
    const [, text] = await printed(t, 2);
    const opened = localMinute(report.shift.opened_at, DEMO.timeZone);
    expect(text).toContain(`Times in ${DEMO.timeZone}`);
    expect(text).toMatch(new RegExp(`Opened\\s+${opened}`));
    expect(text).not.toContain(report.shift.opened_at);
  });

  it('counts cash prepaid at the pump as cash and prints it', async () => {
    const t = await busyShift();
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        payment_type: 'cash',
        transaction_type: 'preauthorization',
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 27.93,
            amount: 50,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
    });
    const { report } = await t.ok('shift-report', { print: true });
    expect(report.pump_prepaid_cash).toBe(50);
    expect(report.expected_cash).toBe(170);
    // A pump authorisation prints no receipt: the X report is the second print.
    const [, text] = await printed(t, 2);
    expect(text).toMatch(/Cash prepaid at the pump\s+50\.00/);
  });

  it('is neither printed nor kept without print', async () => {
    const t = await busyShift();
    const { report, kept } = await t.ok('shift-report', {});
    expect(kept).toBeUndefined();
    expect(t.terminal.store.shiftReports.of(report.shift.id)).toEqual([]);
  });
});

describe('the Z report', () => {
  it('is printed and kept at the close, with counted cash and over/short', async () => {
    const t = await busyShift();
    const { report, kept } = await t.ok('shift-close', { counted_cash: 119.5 });
    expect(kept).toMatchObject({ kind: 'z', printed: true });
    const [, text] = await printed(t, 2);
    expect(text).toMatch(/Z REPORT - SHIFT 2/);
    expect(text).toMatch(/Counted cash\s+119\.50/);
    expect(text).toMatch(/Over \(\+\) \/ short \(-\)\s+-0\.50/);
    expect(t.terminal.store.shiftReports.of(report.shift.id)).toMatchObject([
      { kind: 'z', report },
    ]);
  });

  it('of a past shift is answered as kept and reprinted marked COPY', async () => {
    const t = await busyShift();
    const closed = await t.ok('shift-close', { counted_cash: 120 });
    await printed(t, 2);
    await t.ok('shift-open', {});
    const again = await t.ok('shift-report', { shift_id: closed.report.shift.id, print: true });
    expect(again.report).toEqual(closed.report);
    expect(again.kept?.id).toBe(closed.kept?.id);
    const [, , text] = await printed(t, 3);
    expect(text).toMatch(/^COPY\nZ REPORT - SHIFT 2/);
  });
});

describe('shifts-recent', () => {
  it('lists the latest shifts, newest first, with their kept reports', async () => {
    const t = await busyShift();
    await t.ok('shift-report', { print: true });
    const closed = await t.ok('shift-close', {});
    await t.ok('shift-open', {});
    const { shifts } = await t.ok('shifts-recent', { limit: 2 });
    expect(shifts.map((s) => s.shift.number)).toEqual([3, 2]);
    expect(shifts[0]?.reports).toEqual([]);
    expect(shifts[1]?.reports.map((r) => r.kind)).toEqual(['x', 'z']);
    expect(shifts[1]?.reports[1]?.id).toBe(closed.kept?.id);
  });
});
