// Tanks and wet stock (docs/forecourt.md, "Tanks and wet stock"): the simulated TLS gauge on
// its byte link, readings kept in the till's SQLite file, manual dips, deliveries, and the
// wet-stock report of a shift: kept with its Z report, printed, variances on the attention list.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { TlsSimulator } from '../../src/devices/tls/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { TankPoller } from '../../src/terminal/tanks.js';
import { item, tillPerTest, type Till, type TillOptions } from './helpers.js';

const { open, signedIn } = tillPerTest();

/**
 * Tank 1 holds diesel, tank 2 Super 95; the poller off (tests read on request). No pumps: the
 * litres sold are the sales' (with pumps, their totalizers; test/terminal/pump-totals.test.ts).
 */
const tanks = (extra: Record<string, unknown> = {}): TillOptions => ({
  devices: { tank_gauge: { simulated: true }, printer: { simulated: true } },
  terminal_config: {
    tanks: {
      poll_ms: 0,
      variance_percent: 0.5,
      grades: { '1': 'DIESEL', '2': 'FUEL-95' },
      ...extra,
    },
  },
});
const gaugeOf = (t: Till) => t.terminal.devices?.simulators.tank_gauge as TlsSimulator;
/** What the gauge reads for a tank: its volume, and that at 15 °C (0: none, as some send). */
const setVolume = (t: Till, tank: number, volume: number, tc = 0) => {
  const r = gaugeOf(t).tanks.find((x) => x.tank === tank)!;
  r.volume = volume;
  r.tc_volume = tc;
};
/** A manager's shift opened with the gauge reading tank 1 (diesel) at `litres`. */
async function shiftAt(litres: number): Promise<Till> {
  const t = await open(tanks());
  setVolume(t, 1, litres);
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', {});
  return t;
}
const sell = (t: Till, code: string, litres: number) =>
  t.ok('sale-process', {
    transaction_id: uuidv7(Date.now()),
    check: { payment_type: 'cash', check_items: [item(code, litres)] },
  });

describe('tank readings', () => {
  it('reads the gauge on request and keeps the latest reading of each tank', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const { readings } = await t.ok('tank-readings', { read: true });
    expect(readings.map((r) => r.tank)).toEqual([1, 2]);
    expect(readings[0]).toMatchObject({
      source: 'gauge',
      goods_code: 'DIESEL',
      volume: 12345.5,
      tc_volume: 12300.25,
      water: 2.5,
      temperature: 14.75,
      ullage: 7654.5,
    });
  });

  it('keeps a manual dip for a tank without a gauge', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const { readings } = await t.ok('tank-readings', { dip: { tank: 3, volume: 4200.5 } });
    expect(readings.filter((r) => r.tank === 3)).toEqual([
      expect.objectContaining({ tank: 3, source: 'dip', volume: 4200.5 }),
    ]);
  });

  it('refuses reading the gauge and entering a dip at once', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const r = await t.refused(
      'tank-readings',
      { read: true, dip: { tank: 3, volume: 1 } },
      'invalid-input',
    );
    expect(r.error.path).toBe('dip');
  });

  it('refuses the time of a dip when the caller sends it', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const r = await t.refused(
      'tank-readings',
      { dip: { tank: 3, volume: 1, read_at: '2026-01-01T00:00:00Z' } },
      'invalid-input',
    );
    expect(r.error.path).toBe('dip.read_at');
  });

  it('polls the gauge on its own at the configured interval', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const poller = new TankPoller(() => t.terminal.services.tanks.poll(), 20);
    poller.start();
    try {
      for (let i = 0; i < 100 && t.terminal.store.tanks.latest().length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
    } finally {
      poller.stop();
    }
    expect(t.terminal.store.tanks.latest().map((r) => r.tank)).toEqual([1, 2]);
  });
});

describe('fuel sales with tanks', () => {
  it('carry the volume before (the reading kept) and after (the gauge now), and sync them', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    setVolume(t, 2, 8000);
    await t.ok('tank-readings', { read: true });
    setVolume(t, 2, 7990);
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        payment_type: 'cash',
        check_items: [item('FUEL-95', 10)],
        tanks: [{ code: '2', physical_dip_amount: 7991 }],
      },
    });
    const body = (
      t.terminal.store.outbox.byTransaction(id)?.payload as { body: { tanks: unknown } }
    ).body;
    expect(body.tanks).toEqual([
      {
        code: '2',
        physical_dip_amount: 7991,
        product_volume_before: 8000,
        product_volume_after: 7990,
      },
    ]);
  }, 30_000);
});

describe('tank-delivery', () => {
  it('records the entered volumes and shows the difference to the delivery note', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const { delivery } = await t.ok('tank-delivery', {
      tank: 1,
      note_quantity: 5000,
      volume_before: 1000.5,
      volume_after: 5990.25,
    });
    expect(delivery).toMatchObject({ source: 'entered', received: 4989.75, difference: -10.25 });
    // no gauge read it: nothing at 15 °C to compare
    expect(delivery).not.toHaveProperty('received_tc');
  });

  it('reads the volumes from the gauge when none are entered', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    setVolume(t, 1, 2000);
    await t.ok('tank-readings', { read: true });
    setVolume(t, 1, 7000);
    const { delivery } = await t.ok('tank-delivery', { tank: 1, note_quantity: 5000 });
    expect(delivery).toMatchObject({
      source: 'gauge',
      volume_before: 2000,
      volume_after: 7000,
      difference: 0,
    });
  });

  it('compares a delivery read from the gauge with its note at 15 °C as well', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    setVolume(t, 1, 2000, 1990);
    await t.ok('tank-readings', { read: true });
    // warm fuel delivered: 5,000 l as it stands, 4,975 l at 15 °C, against a note of 4,980
    setVolume(t, 1, 7000, 6965);
    const { delivery } = await t.ok('tank-delivery', { tank: 1, note_quantity: 4980 });
    expect(delivery).toMatchObject({
      received: 5000,
      difference: 20,
      received_tc: 4975,
      difference_tc: -5,
    });
  });

  it('refuses one volume without the other, naming the missing one', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    const r = await t.refused(
      'tank-delivery',
      { tank: 1, note_quantity: 5000, volume_before: 10 },
      'delivery-volumes',
    );
    expect(r.error.path).toBe('volume_after');
  });

  it('refuses a delivery read from the gauge without an earlier reading', async () => {
    // signed in, no shift opened yet: nothing has read the gauge
    const t = await open(tanks());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.refused('tank-delivery', { tank: 1, note_quantity: 5000 }, 'tank-reading-required');
  });
});

describe('wetstock-report', () => {
  it('balances a shift: opening + deliveries - litres sold against the closing reading', async () => {
    const t = await shiftAt(10000);
    await t.ok('tank-delivery', {
      tank: 1,
      note_quantity: 1000,
      volume_before: 10000,
      volume_after: 11000,
    });
    await sell(t, 'DIESEL', 40);
    setVolume(t, 1, 10960);
    await t.ok('tank-readings', { read: true });
    const { report } = await t.ok('wetstock-report', {});
    expect(report.tanks.find((l) => l.tank === 1)).toMatchObject({
      opening: 10000,
      deliveries: 1000,
      sales: 40,
      book: 10960,
      closing: 10960,
      variance: 0,
      over_threshold: false,
    });
  }, 30_000);

  it('counts no delivery twice that came before the shift’s first reading', async () => {
    // no gauge: the tanks are dipped by hand, and the delivery lands before the first dip
    const t = await signedIn(DEMO.authCodes.manager, {
      ...tanks(),
      devices: { printer: { simulated: true } },
    });
    await t.ok('tank-delivery', {
      tank: 1,
      note_quantity: 1000,
      volume_before: 10000,
      volume_after: 11000,
    });
    await new Promise((r) => setTimeout(r, 5));
    await t.ok('tank-readings', { dip: { tank: 1, volume: 11000 } });
    await sell(t, 'DIESEL', 40);
    await t.ok('tank-readings', { dip: { tank: 1, volume: 10960 } });
    const { report } = await t.ok('wetstock-report', {});
    expect(report.tanks.find((l) => l.tank === 1)).toMatchObject({
      opening: 11000,
      deliveries: 0,
      book: 10960,
      variance: 0,
    });
  }, 30_000);

  it('reads the tanks at the shift’s open and just before its close: it balances unread by hand', async () => {
    const t = await shiftAt(10000);
    await sell(t, 'DIESEL', 40);
    setVolume(t, 1, 9960);
    const { report: z } = await t.ok('shift-close', {});
    const { report } = await t.ok('wetstock-report', { shift_id: z.shift.id });
    expect(report.tanks.find((l) => l.tank === 1)).toMatchObject({
      opening: 10000,
      sales: 40,
      closing: 9960,
      variance: 0,
    });
  }, 30_000);

  it('keeps the report with the Z report of the close', async () => {
    const t = await signedIn(DEMO.authCodes.manager, tanks());
    await t.ok('tank-readings', { read: true });
    const { report: z } = await t.ok('shift-close', {});
    setVolume(t, 1, 1);
    await t.ok('tank-readings', { read: true });
    const { report } = await t.ok('wetstock-report', { shift_id: z.shift.id });
    expect(report.tanks.find((l) => l.tank === 1)?.closing).toBe(12345.5);
  });

  it('puts a variance beyond the threshold on the attention list at the close', async () => {
    const t = await signedIn(DEMO.authCodes.manager, tanks());
    setVolume(t, 1, 10000);
    await t.ok('tank-readings', { read: true });
    await sell(t, 'DIESEL', 100);
    setVolume(t, 1, 9890);
    await t.ok('tank-readings', { read: true });
    await t.ok('shift-close', {});
    const { items } = await t.ok('attention-list', {});
    expect(
      items.filter((i) => i.kind === 'wetstock-variance').map((i) => i.details?.tank),
    ).toContain(1);
  }, 30_000);

  it('prints the report on request', async () => {
    const t = await signedIn(DEMO.authCodes.manager, tanks());
    await t.ok('tank-readings', { read: true });
    expect((await t.ok('wetstock-report', { print: true })).printed).toBe(true);
  });

  it('is a senior cashier\u2019s, not a cashier\u2019s', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, tanks());
    await t.refused('wetstock-report', {}, 'role-required');
  });
});
