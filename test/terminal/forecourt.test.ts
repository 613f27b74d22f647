// The cashier's forecourt (docs/forecourt.md, "The forecourt at the till"), over a forecourt
// port held in memory: pumps listed, a calling pump released for postpay, a prepay's pump
// preset to what it paid for, a finished fill kept once with the pump's own figures (and
// again the same after a restart), two fills stacked and a third release refused, one pump or
// all stopped, and no forecourt said in words.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { Authorisation, PortResult } from '../../src/devices/forecourt/port.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { FakeForecourt } from './fake-forecourt.js';
import {
  cashPrepay,
  forecourtTill as forecourtTillOf,
  PRICES,
  unpaid,
  untilIdle,
} from './forecourt-till.js';
import { tempDir, tillPerTest } from './helpers.js';

const { open } = tillPerTest();

/**
 * A pump line whose AUTHORIZE is answered after `delay` ms; with `reportAfter`, the pump
 * reports its new state that much later (a DART pump reads `authorised` at a later poll).
 */
class SlowLine extends FakeForecourt {
  delay = 200;
  reportAfter = 0;
  /** AUTHORIZE commands sent, as the pump received them. */
  sent = 0;
  override async authorise(a: Authorisation): Promise<PortResult> {
    this.sent++;
    await new Promise((r) => setTimeout(r, this.delay));
    if (this.reportAfter === 0) return super.authorise(a);
    setTimeout(() => void super.authorise(a), this.reportAfter);
    return { ok: true, value: undefined };
  }
}
const forecourtTill = (pumps = 4, dir?: string, port = new FakeForecourt(pumps, PRICES)) =>
  forecourtTillOf(open, pumps, dir, port);

describe('the forecourt at the till', () => {
  it('lists every pump as the forecourt reports it', async () => {
    const { t, port } = await forecourtTill();
    port.lift(2);
    const s = await t.ok('forecourt-state', {});
    expect(s.pumps.map((p) => [p.pump, p.state])).toEqual([
      [1, 'idle'],
      [2, 'calling'],
      [3, 'idle'],
      [4, 'idle'],
    ]);
  }, 30_000);

  it('lists each pump’s grades at the catalogue’s prices, as a prepay sells them', async () => {
    const { t } = await forecourtTill();
    const s = await t.ok('forecourt-state', {});
    expect(s.grades.filter((g) => g.pump === 1)).toEqual([
      { pump: 1, nozzle: 1, code: 'FUEL-95', title: 'Super 95', price: '1.789' },
      { pump: 1, nozzle: 2, code: 'DIESEL', title: 'Diesel', price: '1.659' },
      { pump: 1, nozzle: 3, code: 'FUEL-98', title: 'Super Plus 98', price: '1.899' },
    ]);
    expect(new Set(s.grades.map((g) => g.pump))).toEqual(new Set([1, 2, 3, 4]));
  }, 30_000);

  it('releases a calling pump for postpay, and keeps its fill with the pump’s own figures', async () => {
    const { t, port } = await forecourtTill();
    port.lift(1);
    const out = await t.ok('pump-release', { pump: 1 });
    expect(out.pump).toMatchObject({ state: 'authorised', authorisation_id: null });
    port.fill(1, '11.37');
    const s = await unpaid(t, 1);
    expect(s.unpaid[0]).toMatchObject({
      pump: 1,
      nozzle: 1,
      grade: 'FUEL-95',
      volume: '11.37',
      amount: '20.34',
      unit_price: '1.789',
      state: 'unpaid',
      authorisation_id: null,
    });
    expect(s.pumps[0]).toMatchObject({ state: 'finished', unpaid: 1 });
  }, 30_000);

  it('presets a prepay’s pump to the amount it paid for, and the fill names the prepay', async () => {
    const { t, port } = await forecourtTill();
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 11.18,
            amount: 20,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
      cash_given: 20,
    });
    port.lift(1);
    const out = await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    expect(out.preset).toEqual({ kind: 'amount', value: '20' });
    expect(out.pump.authorisation_id).toBe(id);
    port.fill(1, '30');
    const s = await unpaid(t, 1);
    // the pump stops at the amount: 11.18 l at 1.789 is 20.00
    expect(s.unpaid[0]).toMatchObject({ authorisation_id: id, amount: '20.00', volume: '11.18' });
    expect(s.pumps[0]!.authorisation_id).toBeNull();
  }, 30_000);

  it('lets only the prepaid grade’s nozzles deliver on a prepay’s pump', async () => {
    const { t, port } = await forecourtTill();
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [{ code: 'DIESEL', quantity: 10 }],
      },
      cash_given: 20,
    });
    await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    // nozzle 2 sells DIESEL (GRADES): nozzle 1's cheaper or dearer fuel may not run
    expect(port.authorisations.at(-1)).toMatchObject({ pump: 1, nozzles: [2] });
  }, 30_000);

  it('refuses a prepay on a pump that does not sell its grade', async () => {
    const { t } = await forecourtTill();
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [{ code: 'FUEL-98', quantity: 10 }],
      },
      cash_given: 20,
    });
    const r = await t.call('pump-authorise', { pump: 1, transaction_id: id });
    expect(r.body).toMatchObject({
      error: { code: 'pump-grade', message: 'pump 1 does not sell FUEL-98', path: 'pump' },
    });
  }, 30_000);

  it('refuses a prepay nobody sold, naming the transaction', async () => {
    const { t } = await forecourtTill();
    const r = await t.call('pump-authorise', { pump: 1, transaction_id: uuidv7(Date.now()) });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: { code: 'authorisation-not-found', path: 'transaction_id' },
    });
  }, 30_000);

  it('refuses a prepay already authorised on another pump', async () => {
    const { t, port } = await forecourtTill();
    const id = await cashPrepay(t);
    port.lift(1);
    port.lift(2);
    await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    const r = await t.call('pump-authorise', { pump: 2, transaction_id: id });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'prepay-in-use',
        message: 'this prepay is already on pump 1',
        path: 'transaction_id',
      },
    });
    expect(port.pump(2)!.state).toBe('calling');
  }, 30_000);

  it('refuses a prepay whose fuel was drawn, naming the pump', async () => {
    const { t, port } = await forecourtTill();
    const id = await cashPrepay(t);
    port.lift(1);
    await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    port.fill(1, '30');
    await unpaid(t, 1);
    // its own pump again, once the fill is kept and the pump's authorisation ended
    port.lift(1);
    const r = await t.call('pump-authorise', { pump: 1, transaction_id: id });
    expect(r.body).toMatchObject({
      error: {
        code: 'prepay-fuelled',
        message: "this prepay's fuel was drawn at pump 1: complete it",
        path: 'transaction_id',
      },
    });
    expect(port.authorisations).toHaveLength(1);
  }, 30_000);

  it('authorises a prepay again after its pump’s release ran out with no fill', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const { t, port } = await forecourtTillOf(open, 2, undefined, undefined, quick);
    const id = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    await untilIdle(port, 1);
    port.lift(2);
    const again = await t.ok('pump-authorise', { pump: 2, transaction_id: id });
    expect(again.pump).toMatchObject({ state: 'authorised', authorisation_id: id });
  }, 30_000);

  it('refuses a second release of a pump while the first is under way', async () => {
    const { t, port } = await forecourtTill(2, undefined, new SlowLine(2, PRICES));
    port.lift(1);
    const both = await Promise.all([
      t.call('pump-release', { pump: 1 }),
      t.call('pump-release', { pump: 1 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(both.find((r) => r.status === 422)!.body).toMatchObject({
      error: { code: 'pump-busy', message: 'pump 1 is being released right now', path: 'pump' },
    });
    expect((port as SlowLine).sent).toBe(1);
  }, 30_000);

  it('allows every nozzle of the pump on a postpay release (a prepay may have allowed one grade)', async () => {
    const { t, port } = await forecourtTill();
    port.lift(1);
    await t.ok('pump-release', { pump: 1 });
    expect(port.authorisations.at(-1)).toMatchObject({ pump: 1, nozzles: [1, 2] });
  }, 30_000);

  it('refuses to release a pump suspended mid-fill: its fill is still running', async () => {
    const { t, port } = await forecourtTill();
    port.lift(1);
    await t.ok('pump-release', { pump: 1 });
    await port.suspend(1);
    const r = await t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({ error: { code: 'pump-busy', path: 'pump' } });
    expect(port.pump(1)!.state).toBe('suspended');
  }, 30_000);

  it('refuses a prepay on a pump just released, before the pump reports it', async () => {
    const line = new SlowLine(2, PRICES);
    [line.delay, line.reportAfter] = [0, 300];
    const { t, port } = await forecourtTill(2, undefined, line);
    port.lift(1);
    await t.ok('pump-release', { pump: 1 });
    expect(port.pump(1)!.state).toBe('calling'); // acknowledged, not yet reported
    const r = await t.call('pump-authorise', { pump: 1, transaction_id: await cashPrepay(t) });
    expect(r.body).toMatchObject({ error: { code: 'pump-busy', path: 'pump' } });
    expect(line.sent).toBe(1);
  }, 30_000);

  // Review 27, M2: the sale of the fill a pump shows, while the pump is being released for the
  // next driver, sent a RESET behind the AUTHORIZE: the next driver's release cancelled.
  it('sends no RESET for a sold fill to its pump while the pump is being released again', async () => {
    const line = new SlowLine(2, PRICES);
    line.delay = 0;
    const { t, port } = await forecourtTill(2, undefined, line);
    port.lift(1);
    await t.ok('pump-release', { pump: 1 });
    port.fill(1, '5');
    const [fill] = (await unpaid(t, 1)).unpaid;
    let cleared = 0;
    line.clearFill = async (pump) => {
      cleared++;
      return FakeForecourt.prototype.clearFill.call(line, pump);
    };
    line.delay = 300;
    const release = t.call('pump-release', { pump: 1 });
    await new Promise((r) => setTimeout(r, 50)); // the AUTHORIZE on its way
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'cash', fills: [fill!.id] },
    });
    expect((await release).status).toBe(200);
    expect(cleared).toBe(0);
    expect(port.pump(1)!.state).toBe('authorised');
  }, 30_000);

  it('stacks two unpaid fills on a pump and refuses a third release until one is paid', async () => {
    const { t, port } = await forecourtTill();
    // each fill kept before the pump is released again (a fill being read holds its pump)
    for (const [i, litres] of ['10', '12'].entries()) {
      port.lift(3);
      await t.ok('pump-release', { pump: 3 });
      port.fill(3, litres);
      await unpaid(t, i + 1);
    }
    port.lift(3);
    const r = await t.call('pump-release', { pump: 3 });
    expect(r.body).toMatchObject({
      error: { code: 'pump-unpaid', path: 'pump', details: { unpaid: 2 } },
    });
  }, 30_000);

  it('keeps a fill read again after a restart as the same fill', async () => {
    const dir = tempDir();
    const port = new FakeForecourt(2, PRICES);
    const first = await forecourtTill(2, dir, port);
    port.lift(1);
    await first.t.ok('pump-release', { pump: 1 });
    port.fill(1, '5');
    await unpaid(first.t, 1);
    await first.t.close();
    // the pump still shows the finished fill when the till comes back
    const again = await forecourtTill(2, dir, port);
    await new Promise((r) => setTimeout(r, 100));
    const s = await again.t.ok('forecourt-state', {});
    expect(s.unpaid).toHaveLength(1);
  }, 30_000);

  it('releases again a pump nobody lifted a nozzle at in time, ending its prepay’s hold', async () => {
    const quick = { forecourt: { release_after_ms: 150 } };
    const { t, port } = await forecourtTillOf(open, 2, undefined, undefined, quick);
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [{ code: 'DIESEL', quantity: 10 }],
      },
      cash_given: 20,
    });
    const out = await t.ok('pump-authorise', { pump: 1, transaction_id: id });
    expect(out.pump.release_expires_at).not.toBeNull();
    await untilIdle(port, 1);
    const s = await t.ok('forecourt-state', {});
    expect(s.pumps[0]).toMatchObject({
      state: 'idle',
      authorisation_id: null,
      release_expires_at: null,
    });
  }, 30_000);

  it('leaves a pump in use alone when its release time runs out', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const { t, port } = await forecourtTillOf(open, 2, undefined, undefined, quick);
    port.lift(2);
    await t.ok('pump-release', { pump: 2 });
    port.flowing(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(port.pump(2)!.state).toBe('fuelling');
  }, 30_000);

  it('stops every pump when none is named', async () => {
    const { t, port } = await forecourtTill(2);
    port.lift(1);
    await t.ok('pump-release', { pump: 1 });
    const out = await t.ok('pump-stop', {});
    expect(out.pumps.map((p) => p.state)).toEqual(['stopped', 'stopped']);
    expect(out.not_stopped).toEqual([]);
    expect((await t.ok('pump-resume', { pump: 1 })).pump.state).toBe('fuelling');
  }, 30_000);

  it('says in words that no pumps are connected when the till has no forecourt', async () => {
    // a written devices block lists what is there: a printer, no pumps
    const t = await open({ devices: { printer: { simulated: true } } });
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    const r = await t.call('forecourt-state', {});
    expect(r.body).toMatchObject({
      error: { code: 'no-forecourt', message: 'no pumps are connected to this till' },
    });
  }, 30_000);
});
