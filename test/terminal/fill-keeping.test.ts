// A finished fill is kept before its pump is released again (docs/forecourt.md, "A fill's
// identity across restarts"): the fill's identity is its nozzle's totalizer read after it, so
// a release while that read is under way would let the next driver's litres into it and keep
// the fill a second time. Over a forecourt port whose totalizer answers slowly, as DART's
// CD101 does (a poll cycle or two).
import { describe, expect, it } from 'vitest';
import type { Filling, PortResult, PumpState, Totals } from '../../src/devices/forecourt/port.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { FakeForecourt } from './fake-forecourt.js';
import { forecourtTill, PRICES, unpaid, untilIdle } from './forecourt-till.js';
import { tempDir, tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();

class SlowTotals extends FakeForecourt {
  delayMs = 0;
  override async readTotals(pump: number, nozzle: number): Promise<PortResult<Totals>> {
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    return super.readTotals(pump, nozzle);
  }
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A restarted line: pump 1 shows its finished fill's state, its figures only once asked for. */
class FillingUnread extends SlowTotals {
  unread = false;
  private hide(s: PumpState): PumpState {
    return this.unread && s.pump === 1 ? { ...s, filling: null } : s;
  }
  override pumps(): PumpState[] {
    return super.pumps().map((s) => this.hide(s));
  }
  override pump(n: number): PumpState | null {
    const s = super.pump(n);
    return s ? this.hide(s) : null;
  }
  override async readFilling(pump: number): Promise<PortResult<Filling | null>> {
    await settle(300);
    this.unread = false;
    return super.readFilling(pump);
  }
}

/** A fill of 8.24 l on pump 1 sold, and the till down before the pump was cleared; its dir. */
async function soldThenDown(port: FakeForecourt): Promise<string> {
  const dir = tempDir();
  const first = await forecourtTill(open, 2, dir, port);
  port.lift(1);
  await first.t.ok('pump-release', { pump: 1 });
  port.fill(1, '8.24');
  const sold = (await unpaid(first.t, 1)).unpaid[0]!.id;
  port.clearing = false;
  await first.t.ok('sale-process', {
    transaction_id: uuidv7(Date.now()),
    check: { payment_type: 'cash', fills: [sold] },
  });
  await first.t.close();
  port.clearing = true;
  return dir;
}

/** A till over `port` (two pumps), the driver at pump 1 released for postpay. */
async function released(port: FakeForecourt): Promise<Till> {
  const { t } = await forecourtTill(open, 2, undefined, port);
  port.lift(1);
  await t.ok('pump-release', { pump: 1 });
  return t;
}

describe('a fill being kept', () => {
  it('holds its pump: a release while its totalizer is read is refused, naming the pump', async () => {
    const port = new SlowTotals(2, PRICES);
    const t = await released(port);
    port.delayMs = 400;
    port.fill(1, '8.24');
    const r = await t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({
      error: {
        code: 'pump-fill-unread',
        message: 'pump 1’s last fill is still being read: try again in a moment',
        path: 'pump',
      },
    });
    await unpaid(t, 1);
    expect((await t.call('pump-release', { pump: 1 })).status).toBe(200);
  }, 30_000);

  it('is kept once when the next driver is released after a restart', async () => {
    const port = new SlowTotals(2, PRICES);
    const dir = await soldThenDown(port);
    port.delayMs = 300; // the restarted till reads the fill on show slowly
    const again = await forecourtTill(open, 2, dir, port);
    port.lift(1);
    // the next driver: released once the fill on show is known again
    for (let i = 0; i < 50; i++) {
      if ((await again.t.call('pump-release', { pump: 1 })).status === 200) break;
      await settle(50);
    }
    port.lift(1);
    port.fill(1, '5');
    await settle(800);
    const fills = again.t.terminal.store.pumpFills.since(0).map((f) => [f.volume, f.state]);
    expect(fills).toEqual([
      ['8.24', 'sold'],
      ['5.00', 'unpaid'],
    ]);
  }, 30_000);

  it('holds its pump while a restarted till asks the pump for the fill’s figures', async () => {
    const port = new FillingUnread(2, PRICES);
    const dir = await soldThenDown(port);
    port.unread = true; // the restarted till sees the pump finished, its figures not yet read
    const again = await forecourtTill(open, 2, dir, port);
    port.lift(1);
    const r = await again.t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({ error: { code: 'pump-fill-unread', path: 'pump' } });
    // read, the fill on show is the one sold: the pump is cleared and free again
    await untilIdle(port, 1);
    const fills = again.t.terminal.store.pumpFills.since(0).map((f) => [f.volume, f.state]);
    expect(fills).toEqual([['8.24', 'sold']]);
  }, 30_000);
});

describe('a fill whose reading failed', () => {
  // The totalizer read failed (a line fault): the fill on show was not kept, and a release let
  // through sent the AUTHORIZE that took it off the pump, unsold.
  it('holds its pump until it is kept: a release is refused and has it read again', async () => {
    const port = new FakeForecourt(2, PRICES);
    const t = await released(port);
    port.failTotals = 1;
    port.fill(1, '8.24');
    await settle(100); // the read failed: nothing kept
    expect((await t.ok('forecourt-state', {})).unpaid).toEqual([]);
    const r = await t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({ error: { code: 'pump-fill-unread', path: 'pump' } });
    // the refusal had the fill read again: kept, and the pump free for the next driver
    const s = await unpaid(t, 1);
    expect(s.unpaid).toEqual([expect.objectContaining({ pump: 1, volume: '8.24' })]);
    expect((await t.call('pump-release', { pump: 1 })).status).toBe(200);
    expect((await t.ok('forecourt-state', {})).unpaid).toHaveLength(1);
  }, 30_000);

  it('is read again on its own, without a release asked', async () => {
    const port = new FakeForecourt(2, PRICES);
    const t = await released(port);
    port.failTotals = 2;
    port.fill(1, '8.24');
    for (let i = 0; i < 100 && (await t.ok('forecourt-state', {})).unpaid.length === 0; i++)
      await settle(100);
    expect((await t.ok('forecourt-state', {})).unpaid).toEqual([
      expect.objectContaining({ pump: 1, volume: '8.24' }),
    ]);
  }, 30_000);
});

describe('a fill the cashier stopped', () => {
  it('is not kept while its nozzle is up, and is kept once after the pump is resumed', async () => {
    const port = new FakeForecourt(2, PRICES);
    const t = await released(port);
    port.running(1, '3');
    await t.ok('pump-stop', { pump: 1 });
    // stopped with its nozzle up: the fill may go on; a release would take it off the pump
    const r = await t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({ error: { code: 'pump-stopped', path: 'pump' } });
    await settle(100);
    expect((await t.ok('forecourt-state', {})).unpaid).toEqual([]);
    await t.ok('pump-resume', { pump: 1 });
    port.fill(1, '5');
    await unpaid(t, 1);
    await settle(200); // time for a second fill to be kept, if any
    expect((await t.ok('forecourt-state', {})).unpaid).toEqual([
      expect.objectContaining({ pump: 1, volume: '5.00', amount: '8.95' }),
    ]);
  }, 30_000);

  it('is kept once its nozzle is hung up', async () => {
    const port = new FakeForecourt(2, PRICES);
    const t = await released(port);
    port.running(1, '3');
    await t.ok('pump-stop', { pump: 1 });
    port.hangUp(1);
    const s = await unpaid(t, 1);
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '3.00', amount: '5.37' }),
    ]);
    expect((await t.call('pump-release', { pump: 1 })).status).toBe(200);
    expect((await t.ok('forecourt-state', {})).unpaid).toHaveLength(1);
  }, 30_000);
});
