import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import { createDevices, type DeviceSet } from '../../src/devices/registry.js';
import type { Recognition } from '../../src/devices/recognition.js';
import type { ReaderSimulator } from '../../src/devices/sim/reader-simulator.js';
import { waitFor } from './support/pty.js';

let set: DeviceSet | null = null;
afterEach(async () => {
  await set?.close();
  set = null;
});

describe('the embedded default', () => {
  it('simulates every device, open at once, and they work end to end', async () => {
    const config = ConfigSchema.parse({});
    set = createDevices(config.devices);
    expect(set.states.snapshot().map((s) => [s.name, s.transport, s.state])).toEqual([
      ['card_reader', 'simulated', 'open'],
      ['scanner', 'simulated', 'open'],
      ['payment', 'simulated', 'open'],
      ['printer', 'simulated', 'open'],
      ['tank_gauge', 'simulated', 'open'],
    ]);
    const reads: Recognition[] = [];
    set.cardReader?.onRead((r) => reads.push(r));
    await (set.simulators.card_reader as ReaderSimulator).read(';7777001234=2512?');
    await waitFor(() => reads.length === 1, 1_000, 'the swipe');
    expect(reads[0]).toMatchObject({ id: '7777001234', id_type: 'card' });
    expect((await set.payment?.connect())?.status).toBe('success');
    expect((await set.tankGauge?.inventory())?.tanks).toHaveLength(2);
  });

  it('reports a real device that cannot open as reconnecting, with the reason', async () => {
    const config = ConfigSchema.parse({
      devices: {
        printer: {
          path: '/dev/does-not-exist',
          timeouts: { reconnect_min_ms: 20, reconnect_max_ms: 40 },
        },
      },
    });
    set = createDevices(config.devices);
    await waitFor(() => set?.states.snapshot()[0]?.state === 'reconnecting', 2_000, 'the state');
    expect(set.states.snapshot()[0]).toMatchObject({
      name: 'printer',
      transport: 'serial',
      address: '/dev/does-not-exist',
    });
  });
});
