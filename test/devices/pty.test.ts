// Every driver against its simulator over a real socat pty pair, with each fault switch, and
// unplugging (killing socat) then plugging back: both ends reopen on their own.
import { afterEach, describe, expect, it } from 'vitest';
import { CardReader } from '../../src/devices/card-reader.js';
import { ConcertUnit } from '../../src/devices/concert/driver.js';
import { ConcertSimulator } from '../../src/devices/concert/simulator.js';
import { EscPosPrinter } from '../../src/devices/escpos/printer.js';
import { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { ManagedLink } from '../../src/devices/link.js';
import type { Recognition } from '../../src/devices/recognition.js';
import { openSerial } from '../../src/devices/serial.js';
import type { FaultSwitches } from '../../src/devices/sim/faults.js';
import type { Simulator } from '../../src/devices/sim/host.js';
import { attachToPty } from './support/sim-host.js';
import { ReaderSimulator } from '../../src/devices/sim/reader-simulator.js';
import { TlsGauge } from '../../src/devices/tls/driver.js';
import { TlsSimulator } from '../../src/devices/tls/simulator.js';
import { ZvtUnit } from '../../src/devices/zvt/driver.js';
import { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { PtyPair, waitFor } from './support/pty.js';

const T = { inter_byte_ms: 200, ack_ms: 150, message_ms: 600, transaction_ms: 2_500 };
const BACKOFF = { reconnectMinMs: 50, reconnectMaxMs: 200, livenessMs: 50 };

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function line(sim: Simulator) {
  const pty = await PtyPair.open();
  const link = new ManagedLink(
    () => openSerial({ path: pty.a, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 }),
    BACKOFF,
  );
  link.start();
  const simSide = attachToPty(sim, pty.b, 50);
  cleanups.push(
    () => pty.close(),
    () => simSide.stop(),
    () => link.stop(),
  );
  await link.waitOpen(3_000);
  await simSide.link.waitOpen(3_000);
  /** Pulls the cable, checks both ends notice, plugs it back and waits until both reopen. */
  const replug = async () => {
    await pty.unplug();
    await waitFor(() => link.state === 'reconnecting', 3_000, 'the driver to notice the unplug');
    await pty.plug();
    await link.waitOpen(3_000);
    await simSide.link.waitOpen(3_000);
  };
  return { pty, link, simSide, replug };
}

type Fault = 'garbage' | 'split' | 'nak' | 'silence';
function setFault(f: FaultSwitches, fault: Fault): void {
  if (fault === 'garbage') f.garbage = true;
  else if (fault === 'split') f.split = true;
  else if (fault === 'nak') f.nak = 1;
  else f.silence = true;
}

describe('ZVT serial over a pty', () => {
  async function zvt() {
    const sim = new ZvtSimulator({ transport: 'serial', ackMs: 150 });
    const l = await line(sim);
    const unit = new ZvtUnit(l.link, { transport: 'serial', timeouts: T, password: '123456' });
    cleanups.push(() => unit.close());
    return { sim, unit, ...l };
  }
  const pay = (unit: ZvtUnit, cents: number) =>
    unit.cardTransaction({
      operation: 'purchase',
      amount_cents: cents,
      currency: 'EUR',
      original_receipt: null,
      reference: 'r',
    });

  for (const fault of ['garbage', 'split', 'nak'] as const) {
    it(`completes a purchase despite ${fault}`, async () => {
      const { sim, unit } = await zvt();
      setFault(sim.faults, fault);
      const r = await pay(unit, 1_010);
      expect(r).toMatchObject({ status: 'success', amount_cents: 1_010 });
      expect(sim.charges()).toHaveLength(1);
    });
  }

  it('answers a corrupted frame with NAK and takes the repeat', async () => {
    const { sim, unit } = await zvt();
    sim.faults.corrupt = 1;
    expect((await pay(unit, 500)).status).toBe('success');
  });

  it('reports silence as an unknown outcome (error) within its time-outs', async () => {
    const { sim, unit } = await zvt();
    sim.faults.silence = true;
    const t0 = Date.now();
    const r = await unit.connect();
    expect(r.status).toBe('fail');
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('reopens the port on its own after an unplug and pays again', async () => {
    const { sim, unit, replug } = await zvt();
    expect((await pay(unit, 100)).status).toBe('success');
    await replug();
    expect((await pay(unit, 200)).status).toBe('success');
    expect(sim.charges().map((t) => t.amount_cents)).toEqual([100, 200]);
  });
});

describe('Concert over a pty', () => {
  async function concert() {
    const sim = new ConcertSimulator(150);
    const l = await line(sim);
    const unit = new ConcertUnit(l.link, { timeouts: T });
    cleanups.push(() => unit.close());
    return { sim, unit, ...l };
  }
  const pay = (unit: ConcertUnit, cents: number) =>
    unit.cardTransaction({
      operation: 'purchase',
      amount_cents: cents,
      currency: 'EUR',
      original_receipt: null,
      reference: 'abc',
    });

  for (const fault of ['garbage', 'split', 'nak'] as const) {
    it(`completes a purchase despite ${fault}`, async () => {
      const { sim, unit } = await concert();
      setFault(sim.faults, fault);
      expect((await pay(unit, 1_234)).status).toBe('success');
    });
  }

  it('NAKs a corrupted answer and takes the repeat', async () => {
    const { sim, unit } = await concert();
    sim.faults.corrupt = 1;
    expect((await pay(unit, 77)).status).toBe('success');
  });

  it('reports silence as error within its time-outs', async () => {
    const { sim, unit } = await concert();
    sim.faults.silence = true;
    expect((await pay(unit, 5)).status).toBe('error');
  });

  it('reopens after an unplug', async () => {
    const { unit, replug } = await concert();
    await replug();
    expect((await pay(unit, 9)).status).toBe('success');
  });
});

describe('TLS gauge over a pty', () => {
  async function gauge() {
    const sim = new TlsSimulator();
    const l = await line(sim);
    const g = new TlsGauge(l.link, { timeouts: { inter_byte_ms: 200, message_ms: 400 } });
    cleanups.push(() => g.close());
    return { sim, g, ...l };
  }

  for (const fault of ['garbage', 'split', 'nak'] as const) {
    it(`reads the inventory despite ${fault}`, async () => {
      const { sim, g } = await gauge();
      setFault(sim.faults, fault);
      const inv = await g.inventory();
      expect(inv.tanks.map((t) => t.volume)).toEqual([12_345.5, 8_000]);
    });
  }

  it('drops an answer with a bad checksum and asks again', async () => {
    const { sim, g } = await gauge();
    sim.faults.corrupt = 1;
    expect((await g.inventory('01')).tanks).toHaveLength(1);
    expect(g.rejected).toBe(1);
  });

  it('gives up on silence after its bounded retries', async () => {
    const { sim, g } = await gauge();
    sim.faults.silence = true;
    await expect(g.inventory()).rejects.toThrow(/3 attempts/);
  });

  it('reopens after an unplug', async () => {
    const { g, replug } = await gauge();
    await replug();
    expect((await g.inventory()).tanks).toHaveLength(2);
  });
});

describe('card readers over a pty', () => {
  async function reader(kind: 'msr' | 'scanner') {
    const sim = new ReaderSimulator(kind === 'msr' ? 'stx-etx' : 'crlf');
    const l = await line(sim);
    const r = new CardReader(l.link, { kind, framing: sim.framing, interByteMs: 200 });
    cleanups.push(() => r.close());
    const reads: Recognition[] = [];
    r.onRead((x) => reads.push(x));
    return { sim, r, reads, ...l };
  }
  const SWIPE = '%B7777001234^LOYAL/CUSTOMER^2512101?;7777001234=2512101?';

  for (const fault of ['garbage', 'split'] as const) {
    it(`turns a swipe into an identifier despite ${fault}`, async () => {
      const { sim, reads } = await reader('msr');
      setFault(sim.faults, fault);
      await sim.read(SWIPE);
      await waitFor(() => reads.length > 0, 2_000, 'the identifier');
      expect(reads).toEqual([
        { kind: 'identifier', id: '7777001234', id_type: 'card', source: 'msr' },
      ]);
    });

    it(`turns a scan into an identifier despite ${fault}`, async () => {
      const { sim, reads } = await reader('scanner');
      setFault(sim.faults, fault);
      await sim.read(']Q1a1b2c3d4e5f6');
      await waitFor(() => reads.some((x) => x.kind === 'identifier'), 2_000, 'the identifier');
      expect(reads.filter((x) => x.kind === 'identifier')).toEqual([
        { kind: 'identifier', id: 'a1b2c3d4e5f6', id_type: 'qr', source: 'scanner' },
      ]);
    });
  }

  it('reports nothing while the reader is silent (no hang)', async () => {
    const { sim, reads } = await reader('msr');
    sim.faults.silence = true;
    await sim.read(SWIPE);
    await new Promise((r) => setTimeout(r, 200));
    expect(reads).toEqual([]);
  });

  it('drops a swipe cut off longer than the inter-byte time, then reads the next (no NAK on a reader)', async () => {
    const { sim, simSide, reads } = await reader('msr');
    const frame = sim.frame(SWIPE);
    await simSide.link.write(frame.slice(0, 20));
    await new Promise((r) => setTimeout(r, 300));
    await simSide.link.write(frame.slice(20));
    await new Promise((r) => setTimeout(r, 100));
    expect(reads).toEqual([]);
    await sim.read(SWIPE);
    await waitFor(() => reads.length > 0, 2_000, 'the identifier');
    expect(reads[0]).toMatchObject({ kind: 'identifier', id: '7777001234' });
  });

  it('reads again after an unplug', async () => {
    const { sim, reads, replug } = await reader('scanner');
    await replug();
    await sim.read(']E02012345678903');
    await waitFor(() => reads.length > 0, 2_000, 'the identifier');
    expect(reads[0]).toMatchObject({ id: '2012345678903', id_type: 'card' });
  });
});

describe('receipt printer over a pty', () => {
  async function printer() {
    const sim = new PrinterSimulator();
    const l = await line(sim);
    const p = new EscPosPrinter(l.link, { status_ms: 300 });
    cleanups.push(() => p.close());
    return { sim, p, ...l };
  }
  const receipt = {
    items: [{ title: 'Coffee', quantity: '1', price: '2.50', amount: '2.50' }],
    total: '2.50',
    transaction_id: 't-1',
  };

  for (const fault of ['garbage', 'split'] as const) {
    it(`prints a receipt despite ${fault} on the status answer`, async () => {
      const { sim, p } = await printer();
      setFault(sim.faults, fault);
      // Garbage before the status byte reads as a wrong status: the driver refuses to print blind.
      const done = p.print(receipt).then(
        () => 'printed',
        (e: Error) => e.message,
      );
      const outcome = await done;
      if (fault === 'garbage') expect(outcome).toMatch(/offline|printed/);
      else {
        expect(outcome).toBe('printed');
        await waitFor(() => sim.receipts.length === 1, 2_000, 'the receipt');
        expect(sim.receipts[0]?.lines.some((l) => l.includes('Transaction t-1'))).toBe(true);
      }
    });
  }

  it('reports a silent printer within its status time-out', async () => {
    const { sim, p } = await printer();
    sim.faults.silence = true;
    await expect(p.print(receipt)).rejects.toThrow(/printer status/);
  });

  it('prints after an unplug', async () => {
    const { sim, p, replug } = await printer();
    await replug();
    await p.print(receipt);
    await waitFor(() => sim.receipts.length === 1, 2_000, 'the receipt');
  });
});
