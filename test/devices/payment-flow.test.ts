import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLink } from '../../src/devices/link.js';
import { MemoryPaymentJournal } from './support/memory-journal.js';
import { externalPaymentRecord, PaymentFlow } from '../../src/devices/payment-flow.js';
import { ZvtUnit } from '../../src/devices/zvt/driver.js';
import { ZvtSimulator } from '../../src/devices/zvt/simulator.js';

const timeouts = { inter_byte_ms: 200, ack_ms: 150, message_ms: 800, transaction_ms: 2_000 };

function world(transport: 'serial' | 'tcp' = 'serial') {
  const [ecr, pt] = MemoryLink.pair();
  const sim = new ZvtSimulator({ transport, ackMs: 150 });
  sim.attach(pt);
  const unit = new ZvtUnit(ecr, { transport, timeouts, password: '123456' });
  const journal = new MemoryPaymentJournal();
  const flow = new PaymentFlow({ unit, unitName: 'payment', journal });
  return { ecr, pt, sim, unit, journal, flow };
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

describe('payment flow over ZVT (in memory)', () => {
  it('records a purchase as success with the receipt the unit booked', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    const { entry, result } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 11_000,
      currency: 'EUR',
    });
    expect(result?.status).toBe('success');
    expect(entry).toMatchObject({
      status: 'success',
      receipt_no: 1,
      amount_cents: 11_000,
      pan_masked: '535029******5177',
    });
    expect(w.sim.charges()).toHaveLength(1);
    expect(externalPaymentRecord(entry)).toMatchObject({
      operation_type: 'purchase',
      status: 'success',
      amount: 110,
    });
  });

  it('records a declined purchase as fail with the result code', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    w.sim.declineAmounts.add(500);
    const { entry } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 500,
      currency: 'EUR',
    });
    expect(entry).toMatchObject({ status: 'fail', result_code: '05', receipt_no: null });
    expect(w.sim.charges()).toHaveLength(0);
  });

  it('records a pre-authorisation as authorized, then books its total', async () => {
    const w = world('tcp');
    closers.push(() => w.unit.close());
    const pre = await w.flow.run({ operation: 'authorize', amount_cents: 5_000, currency: 'EUR' });
    expect(pre.entry.status).toBe('authorized');
    const done = await w.flow.run({
      operation: 'completion',
      amount_cents: 3_210,
      currency: 'EUR',
      original_receipt: pre.entry.receipt_no,
    });
    expect(done.entry.status).toBe('success');
    expect(w.sim.charges().map((t) => t.amount_cents)).toEqual([3_210]);
  });

  it('takes an operation still on the unit for no crash leftover when a second one starts', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    // The second operation starts while the first one's command is on the line.
    let second: ReturnType<PaymentFlow['run']> | null = null;
    w.sim.hooks.onCommand = () => {
      second ??= w.flow.run({ operation: 'purchase', amount_cents: 1_200, currency: 'EUR' });
    };
    const first = await w.flow.run({
      operation: 'authorize',
      amount_cents: 3_000,
      currency: 'EUR',
    });
    const other = await second!;
    expect(first.entry).toMatchObject({ status: 'authorized', receipt_no: 1 });
    expect(w.journal.entries.get(first.entry.id)?.status).toBe('authorized');
    expect(other.entry).toMatchObject({ status: 'success', receipt_no: 2 });
    expect(w.sim.openPreAuthorisations().map((t) => t.receipt_no)).toEqual([1]);
  });

  it('cancels a purchase by reversing its receipt', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    const sale = await w.flow.run({ operation: 'purchase', amount_cents: 700, currency: 'EUR' });
    const cancel = await w.flow.run({
      operation: 'cancel',
      amount_cents: 700,
      currency: 'EUR',
      original_receipt: sale.entry.receipt_no,
    });
    expect(cancel.entry.status).toBe('success');
    expect(w.sim.charges()).toHaveLength(0);
  });

  it('resolves an unknown outcome at once: a purchase the unit booked but never completed is reversed', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    await w.flow.run({ operation: 'purchase', amount_cents: 100, currency: 'EUR' });
    // The unit goes silent right after booking: the ECR times out, then asks it again.
    w.sim.hooks.onBooked = () => {
      w.sim.faults.silence = true;
      setTimeout(() => (w.sim.faults.silence = false), 2_500);
    };
    const { entry } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 200,
      currency: 'EUR',
    });
    // Still silent during the immediate attempt: stays inprocess, blocked for the next sale.
    expect(entry.status).toBe('inprocess');
    w.sim.hooks.onBooked = undefined;
    await new Promise((r) => setTimeout(r, 2_600));
    const items = await w.flow.reconcile();
    expect(items).toHaveLength(1);
    const resolved = w.journal.entries.get(entry.id);
    expect(w.sim.charges().map((t) => t.amount_cents)).toEqual([100]);
    expect(resolved).toMatchObject({ status: 'canceled', phase: 'resolved' });
    expect(w.sim.ledger.find((t) => t.amount_cents === 200)?.reversed).toBe(true);
  }, 15_000);

  it('connects by registration and shows a welcome screen', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    expect(await w.unit.connect()).toMatchObject({ operation: 'connect', status: 'success' });
    expect(await w.unit.welcomeScreen(['Welcome', 'Insert card'])).toMatchObject({
      status: 'success',
    });
    expect(w.sim.displayed).toEqual([['Welcome', 'Insert card']]);
  });

  it('reads a loyalty card on the unit and recognises it', async () => {
    const w = world();
    closers.push(() => w.unit.close());
    (w.sim.options as { cardTrack2: string | null }).cardTrack2 = '7777001234=25120000';
    expect(await w.unit.magReader(5)).toMatchObject({ status: 'inprocess' });
    const r = await w.unit.magReaderResult();
    expect(r.recognition).toEqual({
      kind: 'identifier',
      id: '7777001234',
      id_type: 'card',
      source: 'msr',
    });
  });
});

/** ECR and PT joined through a relay that can lose the PT's bytes on the way back. */
function lossyWorld(loseFromPt: (chunk: Uint8Array) => boolean) {
  const [ecr, relayEcr] = MemoryLink.pair();
  const [relayPt, pt] = MemoryLink.pair();
  relayEcr.onData((c) => void relayPt.write(c));
  relayPt.onData((c) => {
    if (!loseFromPt(c)) void relayEcr.write(c);
  });
  const sim = new ZvtSimulator({ transport: 'serial', ackMs: 150 });
  sim.attach(pt);
  const sent: string[] = [];
  const unit = new ZvtUnit(ecr, {
    transport: 'serial',
    timeouts,
    password: '123456',
    maxRetries: 3,
    trace: (dir, bytes) => {
      if (dir === 'tx') sent.push(bytes);
    },
  });
  closers.push(() => unit.close());
  const journal = new MemoryPaymentJournal();
  return {
    sim,
    unit,
    sent,
    journal,
    flow: new PaymentFlow({ unit, unitName: 'payment', journal }),
  };
}

const isPurchaseFrame = (hex: string) => hex.startsWith('10 02 06 01 ');

describe('link retries never repeat a payment the unit may have taken', () => {
  it('does not send a purchase again when its ACK is lost but the unit goes on', async () => {
    let lost = false;
    const w = lossyWorld((c) => {
      // The PT's first link ACK (a lone 06) is the one for the purchase command.
      if (lost || c.length !== 1 || c[0] !== 0x06) return false;
      lost = true;
      return true;
    });
    const { entry } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 900,
      currency: 'EUR',
    });
    expect(lost).toBe(true);
    expect(w.sent.filter(isPurchaseFrame)).toHaveLength(1);
    expect(w.sim.received.filter((a) => a.cls === 0x06 && a.ins === 0x01)).toHaveLength(1);
    expect(entry.status).toBe('success');
    expect(w.sim.charges()).toHaveLength(1);
  });

  it('sends an unanswered purchase once and leaves it to recovery, while an enquiry is repeated', async () => {
    const w = lossyWorld(() => true);
    const { entry, result } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 900,
      currency: 'EUR',
    });
    expect(result?.status).toBe('error');
    expect(w.sent.filter(isPurchaseFrame)).toHaveLength(1);
    // Recovery's repeat receipt (06 20) moves no money: 1 + maxRetries sends.
    expect(w.sent.filter((h) => h.startsWith('10 02 06 20 '))).toHaveLength(4);
    // The unit could not be asked: the entry waits, and the next sale is refused until then.
    expect(entry.status).toBe('inprocess');
  });
});
