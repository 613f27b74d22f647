// ZVT and the tank gauge over TCP: bare APDUs (no DLE framing, no CRC), split writes, and the
// client reconnecting on its own after the peer goes away and comes back on the same port.
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedLink } from '../../src/devices/link.js';
import { serveTcp } from './support/sim-host.js';
import { openTcp } from '../../src/devices/tcp.js';
import { TlsGauge } from '../../src/devices/tls/driver.js';
import { TlsSimulator } from '../../src/devices/tls/simulator.js';
import { ZvtUnit } from '../../src/devices/zvt/driver.js';
import { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { waitFor } from './support/pty.js';

const T = { inter_byte_ms: 200, ack_ms: 150, message_ms: 600, transaction_ms: 2_500 };
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function client(port: number) {
  const link = new ManagedLink(() => openTcp('127.0.0.1', port, 500), {
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    livenessMs: 50,
  });
  link.start();
  cleanups.push(() => link.stop());
  return link;
}

describe('ZVT over TCP', () => {
  it('pays with bare APDUs, also when the unit splits its writes', async () => {
    const sim = new ZvtSimulator({ transport: 'tcp', ackMs: 150 });
    const server = await serveTcp(sim);
    cleanups.push(() => server.close());
    const link = client(server.port);
    await link.waitOpen(2_000);
    const unit = new ZvtUnit(link, { transport: 'tcp', timeouts: T });
    cleanups.push(() => unit.close());
    sim.faults.split = true;
    const r = await unit.cardTransaction({
      operation: 'purchase',
      amount_cents: 11_000,
      currency: 'EUR',
      original_receipt: null,
      reference: 'x',
    });
    expect(r.status).toBe('success');
    // Over TCP no frame carries DLE STX.
    expect(sim.received.every((a) => a.cls !== 0x10)).toBe(true);
  });

  it('reconnects after the unit restarts on the same port', async () => {
    const sim = new ZvtSimulator({ transport: 'tcp', ackMs: 150 });
    let server = await serveTcp(sim);
    const port = server.port;
    const link = client(port);
    await link.waitOpen(2_000);
    await server.close();
    await waitFor(() => link.state === 'reconnecting', 2_000, 'the client to notice');
    server = await serveTcp(sim, port);
    cleanups.push(() => server.close());
    await link.waitOpen(3_000);
    const unit = new ZvtUnit(link, { transport: 'tcp', timeouts: T });
    cleanups.push(() => unit.close());
    expect((await unit.connect()).status).toBe('success');
  });
});

describe('tank gauge over TCP', () => {
  it('reads the inventory from a gauge on a terminal server', async () => {
    const sim = new TlsSimulator();
    const server = await serveTcp(sim);
    cleanups.push(() => server.close());
    const link = client(server.port);
    await link.waitOpen(2_000);
    const g = new TlsGauge(link, { timeouts: { inter_byte_ms: 200, message_ms: 500 } });
    cleanups.push(() => g.close());
    expect((await g.inventory()).tanks).toHaveLength(2);
  });
});
