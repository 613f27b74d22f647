import { afterEach, describe, expect, it } from 'vitest';
import { ascii, toHex } from '../../src/devices/bytes.js';
import { ConcertUnit } from '../../src/devices/concert/driver.js';
import {
  decodeMessage,
  encodeAnswer,
  encodeMessage,
  encodeRequest,
  lrc,
  parseAnswer,
  parseRequest,
} from '../../src/devices/concert/frame.js';
import { ConcertSimulator } from '../../src/devices/concert/simulator.js';
import { MemoryLink } from '../../src/devices/link.js';
import { MemoryPaymentJournal } from './support/memory-journal.js';
import { PaymentFlow } from '../../src/devices/payment-flow.js';

const REQ = {
  pos: '01',
  amount_cents: 1234,
  answer_flag: '1',
  mode: '1',
  type: '0',
  currency: '978',
  private_data: 'REF0000001',
  delay: 'A010',
  authorisation: 'B010',
};

describe('Concert E+ frames', () => {
  it('lays out the 34-character E+ request', () => {
    expect(encodeRequest(REQ)).toBe(
      '01' + '00001234' + '1' + '1' + '0' + '978' + 'REF0000001' + 'A010' + 'B010',
    );
  });

  it('computes the LRC over everything after STX through ETX', () => {
    const frame = encodeMessage('01');
    expect(toHex(frame)).toBe('02 30 31 03 02');
    expect(lrc(ascii('01\u0003'))).toBe(0x02);
  });

  it('decodes a request back to its fields', () => {
    const d = decodeMessage(encodeMessage(encodeRequest(REQ)));
    expect(d.ok && parseRequest(d.value)).toMatchObject({ ok: true, value: REQ });
  });

  it('reads the 80-character answer: status, amount, REP, currency, private data', () => {
    const text = encodeAnswer({
      pos: '01',
      status: '0',
      amount_cents: 1234,
      mode: '1',
      rep: 'CB',
      currency: '978',
      private_data: 'REF0000001',
    });
    expect(text).toHaveLength(80);
    expect(parseAnswer(text)).toMatchObject({
      ok: true,
      value: { status: '0', amount_cents: 1234, currency: '978', private_data: 'REF0000001' },
    });
  });

  it('reports a wrong LRC as bad-checksum and a missing one as truncated', () => {
    const frame = encodeMessage('01');
    frame[frame.length - 1] = (frame[frame.length - 1] ?? 0) ^ 1;
    expect(decodeMessage(frame)).toMatchObject({ ok: false, reason: 'bad-checksum' });
    expect(decodeMessage(Uint8Array.of(0x02, 0x30, 0x03))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });
});

const timeouts = { inter_byte_ms: 200, ack_ms: 150, message_ms: 800, transaction_ms: 2_000 };
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

function world() {
  const [ecr, pt] = MemoryLink.pair();
  const sim = new ConcertSimulator(150);
  sim.attach(pt);
  const unit = new ConcertUnit(ecr, { timeouts });
  closers.push(() => unit.close());
  const journal = new MemoryPaymentJournal();
  return { sim, unit, journal, flow: new PaymentFlow({ unit, unitName: 'payment', journal }) };
}

describe('Concert driver against its simulator', () => {
  it('pays, carrying the journal id as private data', async () => {
    const w = world();
    const { entry } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 1234,
      currency: 'EUR',
    });
    expect(entry.status).toBe('success');
    expect(w.sim.ledger).toEqual([
      {
        pos: '01',
        type: '0',
        amount_cents: 1234,
        private_data: entry.id.replace(/-/g, '').slice(0, 10),
        accepted: true,
      },
    ]);
  });

  it('records a refusal as fail', async () => {
    const w = world();
    w.sim.declineAmounts.add(99);
    expect(
      (await w.flow.run({ operation: 'purchase', amount_cents: 99, currency: 'EUR' })).entry.status,
    ).toBe('fail');
  });

  it('sends the message again after a NAK', async () => {
    const w = world();
    w.sim.faults.nak = 1;
    expect(
      (await w.flow.run({ operation: 'refund', amount_cents: 500, currency: 'EUR' })).entry.status,
    ).toBe('success');
  });

  it('reports mag-reader and welcome-screen as unsupported', async () => {
    const w = world();
    expect(await w.unit.magReader()).toMatchObject({ status: 'fail', unsupported: true });
    expect(await w.unit.welcomeScreen()).toMatchObject({ status: 'fail', unsupported: true });
  });

  it('leaves an interrupted operation as error for a person, never repeating it', async () => {
    const w = world();
    w.sim.faults.silence = true;
    const { entry } = await w.flow.run({
      operation: 'purchase',
      amount_cents: 700,
      currency: 'EUR',
    });
    expect(entry.status).toBe('error');
    expect(entry.note).toContain('no status enquiry');
  });
});
