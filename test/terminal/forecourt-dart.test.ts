// The till's fills over a real DART line (the master and the simulated pump over a socat pty
// pair), where test/chaos/fills.test.ts found them going wrong: a fill that ends while the till
// is down is kept when it starts again (its filling read again, issue 16 point 7), and a
// nozzle lifted on a pump still showing its last fill is no fill. Fails, never skips, without
// socat.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { DartMaster } from '../../src/devices/dart/master.js';
import { DartSimulator, type SimPump } from '../../src/devices/dart/simulator.js';
import { ManagedLink } from '../../src/devices/link.js';
import { openSerial } from '../../src/devices/serial.js';
import { PtyPair, waitFor } from '../devices/support/pty.js';
import { attachToPty } from '../devices/support/sim-host.js';
import { cashPrepay, GRADES, unpaid } from './forecourt-till.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { tempDir, tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** The till's side of the line: a DART master polling pump 1 on the pty's end `path`. */
async function master(path: string) {
  const link = new ManagedLink(
    () => openSerial({ path, baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1 }),
    { reconnectMinMs: 50, reconnectMaxMs: 200, livenessMs: 100 },
  );
  link.start();
  await link.waitOpen(3_000);
  const port = new DartMaster(link, {
    pumps: [1],
    timeouts: { response_ms: 150, inter_byte_ms: 40 },
    cycleGapMs: 5,
  });
  port.start();
  const close = async () => {
    await port.close();
    await link.stop();
  };
  cleanups.push(close);
  return { port, close };
}

async function till(dir: string, port: DartMaster): Promise<Till> {
  const t = await open({
    dir,
    forecourt: { port, gradeOf: (_pump, nozzle) => GRADES[nozzle - 1] ?? null },
  });
  if (!(await t.ok('status', {})).staff)
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  if (!(await t.ok('status', {})).shift) await t.ok('shift-open', {});
  return t;
}

/** One simulated pump (nozzle 1 at 1.789, nozzle 2 at 1.659) on a fresh pty pair. */
async function pump() {
  const sim = new DartSimulator([{ pump: 1, prices: [1789, 1659] }]);
  const pty = await PtyPair.open();
  cleanups.push(() => pty.close());
  const simSide = attachToPty(sim, pty.b, 50);
  cleanups.push(() => simSide.stop());
  await simSide.link.waitOpen(3_000);
  return { sim, path: pty.a };
}

/** Pump 1 on its line, the master polling it and a till signed in over it, the pump idle. */
async function idleForecourt() {
  const { sim, path } = await pump();
  const { port } = await master(path);
  const t = await till(tempDir(), port);
  await waitFor(() => port.pump(1)?.state === 'idle', 3_000, 'pump 1 idle');
  return { sim, port, t, path };
}

/** The driver lifts `nozzle` and the till releases pump 1 for postpay; the pump takes it. */
async function liftAndRelease(t: Till, sim: DartSimulator, nozzle = 1): Promise<void> {
  sim.lift(1, nozzle);
  await t.ok('pump-release', { pump: 1 });
  await waitFor(() => sim.get(1).status === 2, 3_000, 'pump 1 authorised');
}

describe('a DART pump across a restart of the till', () => {
  it('keeps a fill the pump finished while the till was down', async () => {
    const { sim, path } = await pump();
    const dir = tempDir();

    const first = await master(path);
    const t1 = await till(dir, first.port);
    await waitFor(() => first.port.pump(1)?.state === 'idle', 3_000, 'pump 1 idle');
    await liftAndRelease(t1, sim);
    sim.dispense(1, 500);
    await waitFor(() => first.port.pump(1)?.state === 'fuelling', 3_000, 'pump 1 fuelling');
    // The till goes down while the pump runs; the driver hangs up before it is back.
    await t1.close();
    await first.close();
    sim.hangUp(1);

    const second = await master(path);
    const t2 = await till(dir, second.port);
    await waitFor(() => second.port.pump(1)?.state === 'finished', 3_000, 'pump 1 finished');
    const s = await unpaid(t2, 1);
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '5.00', amount: '8.95' }),
    ]);
  }, 30_000);
});

describe('a DART pump holding an unpaid fill', () => {
  it('keeps no second fill when the next driver lifts another nozzle', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim);
    sim.dispense(1, 500);
    sim.hangUp(1);
    const first = await unpaid(t, 1);
    expect(first.unpaid).toHaveLength(1);
    // The fill waits to be paid; the next driver takes the other grade's nozzle.
    sim.lift(1, 2);
    await waitFor(() => port.pump(1)?.nozzle === 2, 3_000, 'nozzle 2 lifted');
    const s = await unpaid(t, 2);
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '5.00', amount: '8.95' }),
    ]);
  }, 30_000);
});

describe('a DART pump read again after a restart of the till', () => {
  // The chaos run's copies: the restarted master took the next driver's lifted nozzle for the
  // fill's, and its totalizer gave the fill a second identity.
  it('keeps no copy of a kept fill when the next driver lifted another nozzle while the till was down', async () => {
    const { sim, path } = await pump();
    const dir = tempDir();
    const first = await master(path);
    const t1 = await till(dir, first.port);
    await waitFor(() => first.port.pump(1)?.state === 'idle', 3_000, 'pump 1 idle');
    await liftAndRelease(t1, sim);
    sim.dispense(1, 500);
    sim.hangUp(1);
    expect((await unpaid(t1, 1)).unpaid).toHaveLength(1);
    await t1.close();
    await first.close();
    // while the till is down, the next driver takes the other grade's nozzle
    sim.lift(1, 2);

    const second = await master(path);
    const t2 = await till(dir, second.port);
    await waitFor(() => second.port.pump(1)?.filling !== null, 3_000, 'pump 1 filling read');
    await new Promise((r) => setTimeout(r, 500)); // time for a second fill to be kept, if any
    const s = await t2.ok('forecourt-state', {});
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '5.00', amount: '8.95' }),
    ]);
  }, 30_000);
});

/**
 * Runs `fn` (the driver at the pump) the moment the pump takes its next AUTHORIZE, before it
 * acknowledges it: the whole fill happens between two of the master's polls, so the master
 * reads only where it ended (a fast fill, or a line that missed the polls in between).
 */
function onAuthorise(sim: DartSimulator, fn: () => void): void {
  const inner = sim as unknown as { cd1: (p: SimPump, command: string) => void };
  const cd1 = inner.cd1.bind(sim);
  inner.cd1 = (p, command) => {
    cd1(p, command);
    if (command !== 'authorize') return;
    inner.cd1 = cd1;
    fn();
  };
}

/** A postpay release, asked again while the pump's last fill is being read (as a cashier would). */
async function release(t: Till, pump: number): Promise<void> {
  for (let i = 0; ; i++) {
    const r = await t.call('pump-release', { pump });
    if (r.status === 200) return;
    const code = (r.body as { error?: { code?: string } }).error?.code;
    if (code !== 'pump-fill-unread' || i >= 100)
      throw new Error(`pump-release refused: ${JSON.stringify(r.body)}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe('a DART pump whose whole fill ran between two polls', () => {
  // The chaos run with CHAOS_FLEET_CAP=1: the last fleet fill, run to its preset in one step,
  // was reported under the nozzle of the pump's fill before; that nozzle's totalizer named the
  // earlier (sold) fill, so this one was not kept until a restart read its nozzle again.
  it('keeps a prepay run to its preset between two polls under the nozzle it was drawn with', async () => {
    const { sim, port, t } = await idleForecourt();
    // the pump's last fill was diesel (nozzle 2), sold: the pump is cleared
    await liftAndRelease(t, sim, 2);
    sim.dispense(1, 300);
    sim.hangUp(1);
    const [diesel] = (await unpaid(t, 1)).unpaid;
    expect(diesel).toEqual(expect.objectContaining({ nozzle: 2, volume: '3.00' }));
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'cash', fills: [diesel!.id] },
    });
    await waitFor(() => port.pump(1)?.state === 'idle', 3_000, 'pump 1 cleared');

    // A prepay of 20.00 of FUEL-95: lifted, run to its preset and hung up before the next poll.
    const prepay = await cashPrepay(t, 20);
    onAuthorise(sim, () => {
      sim.lift(1, 1);
      sim.dispense(1, 100_000);
      sim.hangUp(1);
    });
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    const s = await unpaid(t, 1);
    expect(s.unpaid).toEqual([
      expect.objectContaining({
        pump: 1,
        nozzle: 1,
        grade: 'FUEL-95',
        volume: '11.18',
        amount: '20.00',
        unit_price: '1.789',
        authorisation_id: prepay,
      }),
    ]);
    expect(port.pump(1)?.filling).toEqual(
      expect.objectContaining({ nozzle: 1, price: '1.789', volume: '11.18' }),
    );
  }, 30_000);

  it('keeps a fill drawn whole between two polls as a second fill beside the unpaid one the pump showed', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim, 2);
    sim.dispense(1, 300);
    sim.hangUp(1);
    expect((await unpaid(t, 1)).unpaid).toHaveLength(1);
    // The diesel waits to be paid; the next driver lifts nozzle 1 and is released (stacking).
    sim.lift(1, 1);
    await waitFor(() => port.pump(1)?.nozzle === 1, 3_000, 'nozzle 1 lifted');
    onAuthorise(sim, () => {
      sim.dispense(1, 400);
      sim.hangUp(1);
    });
    await release(t, 1);
    const s = await unpaid(t, 2);
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 2, volume: '3.00', amount: '4.98' }),
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '4.00', amount: '7.16' }),
    ]);
  }, 30_000);
});

describe('a DART pump whose line went quiet during a fill', () => {
  // Review 27, H1: the master wiped the pump's status when it went offline, so the block that
  // brought it back (DC1 finished, DC3 the next driver's nozzle, DC2 the fill) was taken for a
  // fill of the nozzle lifted now: kept as diesel at 1.659 for 5.00 l of Super 95 (8.95), its
  // identity the wrong nozzle's totalizer.
  it('keeps a fill that ended while the line was quiet under the nozzle it was drawn with, not the one the next driver lifted', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim);
    sim.dispense(1, 200);
    await waitFor(() => port.pump(1)?.filling?.volume === '2.00', 3_000, 'pump 1 fuelling');
    // The line goes quiet: the pump is offline for the till while the fill ends and the next
    // driver takes the diesel nozzle.
    sim.get(1).silent = true;
    await waitFor(() => port.pump(1)?.state === 'offline', 3_000, 'pump 1 offline');
    sim.dispense(1, 300);
    sim.hangUp(1);
    sim.lift(1, 2);
    sim.get(1).silent = false;
    await waitFor(() => port.pump(1)?.state === 'finished', 5_000, 'pump 1 finished');
    const s = await unpaid(t, 1);
    expect(s.unpaid).toEqual([
      expect.objectContaining({
        pump: 1,
        nozzle: 1,
        grade: 'FUEL-95',
        unit_price: '1.789',
        volume: '5.00',
        amount: '8.95',
      }),
    ]);
    expect(port.pump(1)).toMatchObject({
      nozzle: 2,
      filling: { nozzle: 1, price: '1.789', volume: '5.00', amount: '8.95' },
    });
  }, 30_000);
});

/**
 * The pump answers its next poll `ms` late (within the master's response timeout): resolves
 * when that poll came, the answer not built yet. What the pump does meanwhile goes in it.
 */
function answerLate(sim: DartSimulator, ms: number): Promise<void> {
  const inner = sim as unknown as { answerPoll: (p: SimPump) => Promise<void> };
  const answer = inner.answerPoll.bind(sim);
  return new Promise((polled) => {
    inner.answerPoll = async (p) => {
      inner.answerPoll = answer;
      polled();
      await new Promise((r) => setTimeout(r, ms));
      return answer(p);
    };
  });
}

/**
 * The pump's next block is broken on the line (the master NAKs it) and the poll after it goes
 * unanswered: resolves at that poll, the block still waiting at the pump to be sent again.
 */
function brokenThenSilent(sim: DartSimulator): Promise<void> {
  const inner = sim as unknown as { answerPoll: (p: SimPump) => Promise<void> };
  const answer = inner.answerPoll.bind(sim);
  sim.faults.corrupt = 1;
  return new Promise((unanswered) => {
    inner.answerPoll = async (p) => {
      if (sim.faults.corrupt > 0) return answer(p);
      inner.answerPoll = answer;
      unanswered();
    };
  });
}

describe('a DART pump released again while it shows an unpaid fill', () => {
  // The chaos run with CHAOS_STACK_AFTER_SWITCH_OFF=1 (seed 12, fills 11 and 12): the next
  // driver's lift, read while the cashier's release waited for the line, had the till read the
  // shown fill's totalizer again after the pump was authorised and the driver had started.
  it('keeps no copy of the unpaid fill when the next driver lifts its nozzle as the pump is released', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim);
    sim.dispense(1, 500);
    sim.hangUp(1);
    expect((await unpaid(t, 1)).unpaid).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200)); // the fill kept, its reading over

    // The next driver takes the same nozzle while a poll of the pump is under way, and the
    // cashier releases the pump before that poll's answer (the lift) reaches the till; the
    // driver starts the moment the pump is authorised.
    await answerLate(sim, 100);
    sim.lift(1, 1);
    onAuthorise(sim, () => sim.dispense(1, 100));
    await t.ok('pump-release', { pump: 1 });
    await waitFor(() => port.pump(1)?.state === 'fuelling', 3_000, 'pump 1 fuelling');
    sim.dispense(1, 200);
    sim.hangUp(1);
    await unpaid(t, 2);
    await new Promise((r) => setTimeout(r, 500)); // time for a copy to be kept, if any
    const s = await t.ok('forecourt-state', {});
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '5.00', amount: '8.95' }),
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '3.00', amount: '5.37' }),
    ]);
  }, 30_000);

  // A block the pump sent before the release, NAKed and sent again after the AUTHORIZE, read
  // as the pump's news: the fill on show finished again, its totalizer read once the next
  // driver had started.
  it('keeps no copy of the unpaid fill when a block of the pump from before its release arrives after it', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim);
    sim.dispense(1, 500);
    sim.hangUp(1);
    expect((await unpaid(t, 1)).unpaid).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200)); // the fill kept, its reading over

    // The lift's block is broken on the line, the next poll unanswered: the cashier's release
    // comes meanwhile, and the driver starts the moment the pump is authorised.
    const unanswered = brokenThenSilent(sim);
    sim.lift(1, 1);
    await unanswered;
    onAuthorise(sim, () => sim.dispense(1, 100));
    await t.ok('pump-release', { pump: 1 });
    await waitFor(() => port.pump(1)?.state === 'fuelling', 3_000, 'pump 1 fuelling');
    sim.dispense(1, 200);
    sim.hangUp(1);
    await unpaid(t, 2);
    await new Promise((r) => setTimeout(r, 500)); // time for a copy to be kept, if any
    const s = await t.ok('forecourt-state', {});
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '5.00', amount: '8.95' }),
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '3.00', amount: '5.37' }),
    ]);
  }, 30_000);
});

/** A sale of the prepay's fuel: its completion, naming the fills given. */
const completion = (prepay: string, fills: string[] = []) => ({
  transaction_id: uuidv7(Date.now()),
  check: {
    transaction_type: 'completion',
    preliminary_transaction_id: prepay,
    ...(fills.length > 0 ? { fills } : {}),
  },
});

describe('a DART pump the cashier stopped mid-fill', () => {
  // A STOP ends a DART fill: the pump reports "filling completed", the master shows it
  // `stopped`, and the till kept fills only on `finished`: the next AUTHORIZE took it away.
  it('keeps the stopped fill once its nozzle is hung up, and refuses a release before', async () => {
    const { sim, port, t } = await idleForecourt();
    await liftAndRelease(t, sim);
    sim.dispense(1, 300);
    await waitFor(() => port.pump(1)?.filling?.volume === '3.00', 3_000, 'pump 1 at 3.00 l');
    await t.ok('pump-stop', { pump: 1 });
    await waitFor(() => port.pump(1)?.state === 'stopped', 3_000, 'pump 1 stopped');
    // the nozzle still up: a release would take the fill off the pump
    const r = await t.call('pump-release', { pump: 1 });
    expect(r.body).toMatchObject({ error: { code: 'pump-stopped', path: 'pump' } });
    sim.hangUp(1);
    const s = await unpaid(t, 1);
    expect(s.unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '3.00', amount: '5.37' }),
    ]);
    // kept, the pump may take the next driver (stacking): the fill stays to be paid
    sim.lift(1, 1);
    await release(t, 1);
    await waitFor(() => sim.get(1).status === 2, 3_000, 'pump 1 authorised again');
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.ok('forecourt-state', {})).unpaid).toEqual([
      expect.objectContaining({ pump: 1, nozzle: 1, volume: '3.00', amount: '5.37' }),
    ]);
  }, 30_000);

  it('completes a prepay stopped mid-fill with the litres drawn and its change given back', async () => {
    const { sim, port, t } = await idleForecourt();
    const prepay = await cashPrepay(t, 20);
    sim.lift(1, 1);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await waitFor(() => sim.get(1).status === 2, 3_000, 'pump 1 authorised');
    sim.dispense(1, 300);
    await waitFor(() => port.pump(1)?.filling?.volume === '3.00', 3_000, 'pump 1 at 3.00 l');
    await t.ok('pump-stop', { pump: 1 });
    await waitFor(() => port.pump(1)?.state === 'stopped', 3_000, 'pump 1 stopped');
    // the fill not kept yet: the prepay cannot be completed as if nothing was drawn
    const early = await t.call('sale-process', completion(prepay));
    expect(early.body).toMatchObject({ error: { code: 'prepay-pump-open' } });
    sim.hangUp(1);
    const [fill] = (await unpaid(t, 1)).unpaid;
    expect(fill).toEqual(
      expect.objectContaining({ volume: '3.00', amount: '5.37', authorisation_id: prepay }),
    );
    const sale = await t.ok('sale-process', completion(prepay, [fill!.id]));
    expect(sale.check.check_items?.[0]).toMatchObject({
      processed_quantity: 3,
      processed_amount: 5.37,
    });
    expect(sale.warnings).toContainEqual(
      expect.objectContaining({
        code: 'change-due',
        message: 'give back 14.63 of the 20 prepaid in cash',
      }),
    );
    await waitFor(() => port.pump(1)?.state === 'idle', 3_000, 'pump 1 cleared');
  }, 30_000);
});
