// Wet stock from the pumps' totalizers (docs/forecourt.md, "Totalizers at shift open and
// close"), over the real DART master and simulator on a socat pty pair and the till's SQLite
// file: every nozzle's volume totalizer read at shift open and close and kept with the shift,
// the shift's pump sales close - open per grade, and the sold quantities again when a pump did
// not answer.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { dartForecourt, nozzleConfig, type DartForecourt } from './dart-forecourt.js';
import { item, openTill, type Till } from './helpers.js';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A manager's till on two DART pumps, their totalizers at 1000 l and 2000 l before the shift. */
async function shiftTill(): Promise<{ t: Till; f: DartForecourt; shiftId: string }> {
  const f = await dartForecourt(2);
  cleanups.push(() => f.close());
  f.sim.get(1).totals[0]!.volume = 100_000;
  f.sim.get(2).totals[1]!.volume = 200_000;
  const t = await openTill({ deviceSet: f.devices, devices: nozzleConfig(2) });
  cleanups.push(() => t.close());
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  const { shift } = await t.ok('shift-open', {});
  return { t, f, shiftId: shift.id };
}

/** A postpay fill of `raw` hundredths of a litre on a pump's nozzle, left unpaid. */
async function fill(t: Till, f: DartForecourt, pump: number, nozzle: number, raw: number) {
  f.sim.lift(pump, nozzle);
  await f.until(pump, 'calling');
  await t.ok('pump-release', { pump });
  f.sim.dispense(pump, raw);
  f.sim.hangUp(pump);
  await f.until(pump, 'finished');
}

const sellByHand = (t: Till, code: string, litres: number) =>
  t.ok('sale-process', {
    transaction_id: uuidv7(Date.now()),
    check: { payment_type: 'cash', check_items: [item(code, litres)] },
  });

describe('totalizers at shift open and close', () => {
  it('reads every nozzle at the open and the close and keeps them with the shift', async () => {
    const { t, f, shiftId } = await shiftTill();
    await fill(t, f, 1, 1, 1_137);
    await t.ok('shift-close', {});
    const kept = t.terminal.store.pumpPrices.totalsOf(shiftId);
    expect(kept.map((r) => [r.moment, r.pump, r.nozzle, r.goodsCode, r.volume])).toEqual([
      ['close', 1, 1, 'FUEL-95', '1011.37'],
      ['close', 1, 2, 'DIESEL', '0.00'],
      ['close', 2, 1, 'FUEL-95', '0.00'],
      ['close', 2, 2, 'DIESEL', '2000.00'],
      ['open', 1, 1, 'FUEL-95', '1000.00'],
      ['open', 1, 2, 'DIESEL', '0.00'],
      ['open', 2, 1, 'FUEL-95', '0.00'],
      ['open', 2, 2, 'DIESEL', '2000.00'],
    ]);
  }, 30_000);

  it('takes the shift’s pump sales from the totalizers: close - open per grade', async () => {
    const { t, f, shiftId } = await shiftTill();
    await fill(t, f, 1, 1, 1_137);
    await fill(t, f, 2, 2, 500);
    await sellByHand(t, 'DIESEL', 40); // litres typed at the till, not counted by a pump
    await t.ok('shift-close', {});
    const { report } = await t.ok('wetstock-report', { shift_id: shiftId });
    expect(report.sales_source).toBe('totalizers');
    expect(report.grades.map((g) => [g.goods_code, g.sales])).toEqual([
      ['DIESEL', 5],
      ['FUEL-95', 11.37],
    ]);
    // one tank per grade: the tank carries its grade's sales
    expect(report.tanks.map((l) => [l.tank, l.goods_code, l.sales])).toEqual([
      [1, 'DIESEL', 5],
      [2, 'FUEL-95', 11.37],
    ]);
  }, 30_000);

  it('uses the sold quantities when a pump did not answer at the close', async () => {
    const { t, f, shiftId } = await shiftTill();
    await fill(t, f, 1, 1, 1_137);
    await sellByHand(t, 'DIESEL', 40);
    f.sim.get(2).silent = true;
    await f.until(2, 'offline');
    await t.ok('shift-close', {});
    const { report } = await t.ok('wetstock-report', { shift_id: shiftId });
    expect(report.sales_source).toBe('sold-quantities');
    expect(report.grades.find((g) => g.goods_code === 'DIESEL')?.sales).toBe(40);
  }, 30_000);
});
