// A person at a simulated pump (`simulator-pump`, docs/forecourt.md "A person at a simulated
// pump") and the forecourt on the event stream (`pump-state`): the embedded default's four
// simulated DART pumps, the real master polling them over its line, the till following them.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { EventName, EventPayload } from '../../src/contract/commands.js';
import { DartSimulator } from '../../src/devices/dart/simulator.js';
import { dec } from '../../src/money/index.js';
import { FakeForecourt } from './fake-forecourt.js';
import { tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();

type PumpEvent = EventPayload<'pump-state'>;

/**
 * A till with four simulated pumps, its pump events gathered. No nozzle is set up with a grade,
 * so the till sends the pumps no prices (pump-prices.ts) and they sell at the simulator's own
 * (Super 95 at 1.799): what a fill costs does not depend on when a price update lands.
 */
async function pumpTill(): Promise<{ t: Till; events: PumpEvent[] }> {
  const events: PumpEvent[] = [];
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'pump-state') events.push(payload as PumpEvent);
  };
  const devices = { pumps: { simulated: true, nozzles: {} }, printer: { simulated: true } };
  const t = await open({ emit, devices });
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', {});
  await until(t, 1, 'idle');
  return { t, events };
}

/** Waits until the till reports pump `n` in `state`. */
async function until(t: Till, n: number, state: string, ms = 8_000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await t.ok('forecourt-state', {});
    const pump = s.pumps.find((p) => p.pump === n);
    if (pump?.state === state) return s;
    if (Date.now() > end) throw new Error(`pump ${n} is ${pump?.state}, not ${state}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function waitFor<T>(fn: () => T | undefined, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('waited in vain');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a person at a simulated pump', () => {
  it('lifts a nozzle, and the till sees the pump calling', async () => {
    const { t } = await pumpTill();
    const out = await t.ok('simulator-pump', { pump: 2, action: 'lift', nozzle: 2 });
    expect(out.simulated).toEqual({
      pump: 2,
      nozzle: 2,
      volume: '0.00',
      amount: '0.00',
      flowing: false,
    });
    const s = await until(t, 2, 'calling');
    expect(s.pumps[1]).toMatchObject({ state: 'calling', nozzle: 2 });
  }, 30_000);

  it('dispenses the litres asked at the pump’s flow rate, and the hang-up finishes the fill', async () => {
    const { t } = await pumpTill();
    await t.ok('simulator-pump', { pump: 2, action: 'lift' });
    await until(t, 2, 'calling');
    await t.ok('pump-release', { pump: 2 });
    const started = await t.ok('simulator-pump', { pump: 2, action: 'dispense', litres: 0.8 });
    expect(started.simulated.flowing).toBe(true);
    await until(t, 2, 'fuelling');
    const sim = t.terminal.devices?.simulators.pumps;
    if (!(sim instanceof DartSimulator)) throw new Error('the pumps are not simulated');
    await waitFor(() => (sim.get(2).volume >= 80 ? true : undefined));
    await t.ok('simulator-pump', { pump: 2, action: 'hang-up' });
    const s = await until(t, 2, 'finished');
    expect(s.pumps[1]?.filling).toMatchObject({ volume: '0.80', amount: '1.44', price: '1.799' });
  }, 30_000);

  it('dispenses until the pump’s preset when no litres are given', async () => {
    const { t } = await pumpTill();
    await t.ok('simulator-pump', { pump: 1, action: 'lift' });
    await until(t, 1, 'calling');
    const port = t.terminal.devices!.pumps!;
    expect(
      (await port.authorise({ pump: 1, preset: { kind: 'volume', volume: dec('0.30') } })).ok,
    ).toBe(true);
    await t.ok('simulator-pump', { pump: 1, action: 'dispense' });
    const s = await until(t, 1, 'finished');
    expect(s.pumps[0]?.filling?.volume).toBe('0.30');
  }, 30_000);

  it('refuses to dispense at a pump that was not released', async () => {
    const { t } = await pumpTill();
    await t.ok('simulator-pump', { pump: 3, action: 'lift' });
    await t.refused(
      'simulator-pump',
      { pump: 3, action: 'dispense', litres: 5 },
      'pump-not-released',
    );
  }, 30_000);

  it('refuses to dispense before a nozzle is lifted', async () => {
    const { t } = await pumpTill();
    await t.refused('simulator-pump', { pump: 3, action: 'dispense', litres: 5 }, 'nozzle-down');
  }, 30_000);

  it('asks for litres at a pump without a preset', async () => {
    const { t } = await pumpTill();
    await t.ok('simulator-pump', { pump: 4, action: 'lift' });
    await until(t, 4, 'calling');
    await t.ok('pump-release', { pump: 4 });
    const r = await t.refused('simulator-pump', { pump: 4, action: 'dispense' }, 'litres-required');
    expect(r.error.path).toBe('litres');
  }, 30_000);

  it('refuses a nozzle the pump does not have', async () => {
    const { t } = await pumpTill();
    const r = await t.refused(
      'simulator-pump',
      { pump: 1, action: 'lift', nozzle: 9 },
      'unknown-nozzle',
    );
    expect(r.error.message).toBe('pump 1 has nozzles 1 to 3');
  }, 30_000);

  it('refuses what the pump decides (volume, price) by name', async () => {
    const { t } = await pumpTill();
    const r = await t.call('simulator-pump', { pump: 1, action: 'dispense', volume: 3 });
    expect(r.status).toBe(400);
    expect((r.body as { error: { path: string } }).error.path).toBe('volume');
  }, 30_000);

  it('refuses litres finer than 0.01', async () => {
    const { t } = await pumpTill();
    const r = await t.call('simulator-pump', { pump: 1, action: 'dispense', litres: 1.005 });
    expect(r.status).toBe(400);
    expect((r.body as { error: { path: string } }).error.path).toBe('litres');
  }, 30_000);

  it('is refused for real pumps, in words', async () => {
    const t = await open({
      forecourt: { port: new FakeForecourt(2, ['1.789']), gradeOf: () => null },
    });
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    const r = await t.refused('simulator-pump', { pump: 1, action: 'lift' }, 'pump-not-simulated');
    expect(r.error.message).toBe(
      'the pumps of this till are real: only a simulated pump can be worked from the till',
    );
  }, 30_000);
});

describe('the forecourt on the event stream', () => {
  it('sends each pump change with the litres and amount running, then the fill unpaid', async () => {
    const { t, events } = await pumpTill();
    await t.ok('simulator-pump', { pump: 2, action: 'lift' });
    await waitFor(() => events.find((e) => e.pump.pump === 2 && e.pump.state === 'calling'));
    await t.ok('pump-release', { pump: 2 });
    await waitFor(() => events.find((e) => e.pump.pump === 2 && e.pump.state === 'authorised'));
    await t.ok('simulator-pump', { pump: 2, action: 'dispense', litres: 0.5 });
    await waitFor(() => events.find((e) => e.pump.pump === 2 && e.pump.filling?.volume === '0.50'));
    await t.ok('simulator-pump', { pump: 2, action: 'hang-up' });
    const kept = await waitFor(() =>
      events.find((e) => e.pump.pump === 2 && e.unpaid.length === 1),
    );
    expect(kept.pump).toMatchObject({ state: 'finished', unpaid: 1 });
    expect(kept.unpaid[0]).toMatchObject({
      pump: 2,
      volume: '0.50',
      amount: '0.90',
      state: 'unpaid',
    });
    const running = events
      .filter((e) => e.pump.pump === 2 && e.pump.state === 'fuelling')
      .map((e) => Number(e.pump.filling?.volume));
    expect(running.length).toBeGreaterThan(2);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    const states = events.filter((e) => e.pump.pump === 2).map((e) => e.pump.state);
    const changes = states.filter((s, i) => s !== states[i - 1]);
    expect(changes.slice(changes.indexOf('calling'))).toEqual([
      'calling',
      'authorised',
      'fuelling',
      'finished',
    ]);
  }, 30_000);
});
