import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import { toHex } from '../../src/devices/bytes.js';
import type { ConcertSimulator } from '../../src/devices/concert/simulator.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { PaymentFlow } from '../../src/devices/payment-flow.js';
import { MemoryPaymentJournal } from './support/memory-journal.js';
import type { PaymentUnit } from '../../src/devices/payment-unit.js';
import { createDevices, type DeviceSet } from '../../src/devices/registry.js';
import type { Recognition } from '../../src/devices/recognition.js';
import type { ReaderSimulator } from '../../src/devices/sim/reader-simulator.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
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
      ['pumps', 'simulated', 'open'],
    ]);
    const reads: Recognition[] = [];
    set.cardReader?.onRead((r) => reads.push(r));
    await (set.simulators.card_reader as ReaderSimulator).read(';7777001234=2512?');
    await waitFor(() => reads.length === 1, 1_000, 'the swipe');
    expect(reads[0]).toMatchObject({ id: '7777001234', id_type: 'card' });
    expect((await set.payment?.connect())?.status).toBe('success');
    expect((await set.tankGauge?.inventory())?.tanks).toHaveLength(2);
    await waitFor(
      () => set?.pumps?.pumps().every((p) => p.state === 'idle') ?? false,
      2_000,
      'four idle pumps',
    );
    expect(set.pumps?.pumps().map((p) => p.pump)).toEqual([1, 2, 3, 4]);
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

// Short timeouts: these tests exercise NAKs and answers, never a wait running out.
const fast = { ack_ms: 300, message_ms: 1_000, transaction_ms: 3_000 };

function devicesWith(devices: Record<string, unknown>) {
  return ConfigSchema.parse({ devices }).devices;
}

function zvtPayment(extra: Record<string, unknown> = {}) {
  set = createDevices(
    devicesWith({ payment: { simulated: true, protocol: 'zvt', timeouts: fast, ...extra } }),
  );
  const unit = set.payment as PaymentUnit;
  const flow = new PaymentFlow({ unit, unitName: 'payment', journal: new MemoryPaymentJournal() });
  return { unit, flow, sim: set.simulators.payment as ZvtSimulator };
}

function concertPayment(extra: Record<string, unknown> = {}) {
  set = createDevices(
    devicesWith({ payment: { simulated: true, protocol: 'concert', timeouts: fast, ...extra } }),
  );
  const unit = set.payment as PaymentUnit;
  const flow = new PaymentFlow({ unit, unitName: 'payment', journal: new MemoryPaymentJournal() });
  return { unit, flow, sim: set.simulators.payment as ConcertSimulator };
}

const purchase = { operation: 'purchase', amount_cents: 1_000, currency: 'EUR' } as const;

describe('the payment section reaches the ZVT driver', () => {
  it('registers with the configured password, config byte and currency', async () => {
    const w = zvtPayment({ zvt_password: '123456', zvt_config_byte: 0x8a, currency: 'CHF' });
    expect((await w.unit.connect()).status).toBe('success');
    const reg = w.sim.received.find((a) => a.cls === 0x06 && a.ins === 0x00);
    // Password 12 34 56, config byte 8A, currency 756 (CHF) in BCD.
    expect(reg && toHex(reg.data)).toBe('12 34 56 8A 07 56');
  });

  it('registers with config byte BA by default', async () => {
    const w = zvtPayment();
    await w.unit.connect();
    const reg = w.sim.received.find((a) => a.cls === 0x06 && a.ins === 0x00);
    expect(reg?.data[3]).toBe(0xba);
  });

  it('repeats a NAKed purchase frame, which the unit never took', async () => {
    const w = zvtPayment({ max_retries: 1 });
    w.sim.faults.nak = 1;
    const { entry } = await w.flow.run(purchase);
    expect(entry.status).toBe('success');
    expect(w.sim.charges()).toHaveLength(1);
  });

  it('sends a NAKed purchase frame at most 1 + max_retries times, and nothing is charged', async () => {
    const w = zvtPayment({ max_retries: 1 });
    w.sim.faults.nak = 3;
    // The unit directly: the flow would go on to ask the unit, which takes the spare NAK.
    const result = await w.unit.cardTransaction({
      ...purchase,
      original_receipt: null,
      reference: 'r1',
    });
    expect(result.status).toBe('error');
    // Two frames NAKed, the third NAK left unused: the frame went out twice.
    expect(w.sim.faults.nak).toBe(1);
    expect(w.sim.charges()).toHaveLength(0);
  });

  it('gives up on the first NAK with max_retries 0', async () => {
    const w = zvtPayment({ max_retries: 0 });
    w.sim.faults.nak = 1;
    expect((await w.unit.connect()).status).toBe('fail');
    expect(w.sim.faults.nak).toBe(0);
  });
});

describe('the payment section reaches the Concert driver', () => {
  it('carries the configured POS number in every request', async () => {
    const w = concertPayment({ pos_number: '07' });
    expect((await w.flow.run(purchase)).entry.status).toBe('success');
    expect(w.sim.ledger.map((t) => t.pos)).toEqual(['07']);
  });

  it('carries POS number 01 by default', async () => {
    const w = concertPayment();
    await w.flow.run(purchase);
    expect(w.sim.ledger.map((t) => t.pos)).toEqual(['01']);
  });

  it('sends a NAKed request at most 1 + max_retries times, and the unit books nothing', async () => {
    const w = concertPayment({ max_retries: 1 });
    w.sim.faults.nak = 3;
    const { result } = await w.flow.run(purchase);
    expect(result?.status).toBe('error');
    expect(w.sim.faults.nak).toBe(1);
    expect(w.sim.ledger).toEqual([]);
  });

  it('repeats a NAKed request within max_retries', async () => {
    const w = concertPayment({ max_retries: 1 });
    w.sim.faults.nak = 1;
    expect((await w.flow.run(purchase)).entry.status).toBe('success');
    expect(w.sim.ledger).toHaveLength(1);
  });
});

describe('the printer section reaches the printer driver', () => {
  const receipt = {
    header: ['Station 12, Long Road Service Area'],
    items: [
      {
        title: 'Premium unleaded AI-98 with additives',
        quantity: '30.00',
        price: '1.90',
        amount: '57.00',
        discounts: [{ rule: 'Fuel Tuesday for loyalty members', amount: '1.50' }],
      },
    ],
    total: '55.50',
    transaction_id: 't-1',
    offline: true,
  };

  async function printed(printer: Record<string, unknown>): Promise<string[]> {
    set = createDevices(devicesWith({ printer: { simulated: true, ...printer } }));
    await set.printer?.print(receipt);
    const sim = set.simulators.printer as PrinterSimulator;
    await waitFor(() => sim.receipts.length === 1, 1_000, 'the receipt');
    return sim.receipts[0]?.lines ?? [];
  }

  it('formats a receipt at the configured 32 columns', async () => {
    const lines = await printed({ line_width: 32 });
    expect(lines).toContain('-'.repeat(32));
    expect(lines).toContain(`  30.00 x 1.90${' '.repeat(13)}57.00`);
    expect(lines.filter((l) => l.length > 32)).toEqual([]);
    // Nothing is lost by wrapping.
    expect(lines.join(' ')).toContain('Premium unleaded AI-98 with additives');
    expect(lines.join(' ')).toContain('Stored offline, will be sent.');
  });

  it('formats at 42 columns by default', async () => {
    const lines = await printed({});
    expect(lines).toContain('-'.repeat(42));
    expect(lines.filter((l) => l.length > 42)).toEqual([]);
  });
});
