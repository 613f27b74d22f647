// Card money given back by a cancel or a refund, counted in three books that must agree: the
// simulated unit's (its state file in the data directory, what `devices sim-books` prints),
// the till's (the bank_card_payments it reports) and the sandbox central's (what it received).
// Every card operation of a sale is given back on its own: a cancel reverses each charge (a
// purchase, or a pump's completion) on its own receipt for its own amount; a refund gives back
// to the last card charged first, one refund per card (docs/terminal.md, "Bank cards").
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import { readZvtSimBooks, SIMULATOR_DIR } from '../../src/devices/sim/state-file.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { refuse } from '../../src/terminal/command-map.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function till(): Promise<{ t: Till; dir: string }> {
  const dir = tempDir('lt-card-returns-');
  const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
  const t = await openTill({ dir, central });
  cleanups.push(async () => {
    await t.close();
    await central.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await t.terminal.services.cards.settled;
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', {});
  return { t, dir };
}

const cents = (v: unknown) => Math.round(Number(v) * 100);
const SIGN: Record<string, number> = { purchase: 1, completion: 1, cancel: -1, refund: -1 };

/** The unit's books on disk: card money standing (charges not reversed, less refunds), in cents. */
function unitNet(dir: string): number {
  const r = readZvtSimBooks(join(dir, SIMULATOR_DIR));
  if (!r.ok) throw new Error(r.message);
  let net = 0;
  for (const x of r.books) {
    if ((x.kind === 'purchase' || x.kind === 'book-total') && !x.reversed) net += x.amount_cents;
    if (x.kind === 'refund') net -= x.amount_cents;
  }
  return net;
}

/** The card operations the till reports (its outbox), as [operation, cents] and their net. */
function tillReports(t: Till): { ops: Array<[string, number]>; net: number } {
  const outbox = t.terminal.store.outbox;
  // Every row the outbox holds (ids count up from 1; a short run keeps them all).
  const rows = Array.from({ length: 500 }, (_, i) => outbox.get(i + 1));
  const ops = rows
    .filter((r) => r?.operation === 'bank_card_payments')
    .map((r) => {
      const body = (r!.payload as { body: { operation_type: string; amount: number } }).body;
      return [body.operation_type, cents(body.amount)] as [string, number];
    });
  return { ops, net: ops.reduce((s, [op, c]) => s + (SIGN[op] ?? 0) * c, 0) };
}

/** What the sandbox central received as bank card payments, net, in cents. */
async function centralNet(t: Till): Promise<number> {
  await t.ok('sync-now', {});
  const tx = (await (
    await fetch(`${t.central.url}/sandbox/transactions`, {
      headers: { Authorization: `Bearer ${DEMO.apiKey}` },
    })
  ).json()) as {
    transactions: Array<{ operation: string; operation_type?: string; amount?: number }>;
  };
  return tx.transactions
    .filter((x) => x.operation === 'bank_card_payments')
    .reduce((s, x) => s + (SIGN[x.operation_type ?? ''] ?? 0) * cents(x.amount), 0);
}

/** The three books agree on the card money standing, and it is `expected` cents. */
async function booksAgree(t: Till, dir: string, expected: number): Promise<void> {
  expect({ unit: unitNet(dir), till: tillReports(t).net, central: await centralNet(t) }).toEqual({
    unit: expected,
    till: expected,
    central: expected,
  });
}

const anna = {
  customer_id: DEMO.customers.anna,
  id: DEMO.cards.anna,
  id_type: 'card',
  payment_type: 'bank-card',
};

/** A pump pre-authorised on the card for 50 and completed at what was dispensed. */
async function cardFuelSale(t: Till, litres: number) {
  const auth = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: auth,
    check: {
      ...anna,
      transaction_type: 'preauthorization',
      check_items: [
        {
          code: 'FUEL-95',
          quantity: 27.93,
          amount: 50,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
  });
  const id = uuidv7(Date.now());
  const sale = await t.ok('sale-process', {
    transaction_id: id,
    check: {
      ...anna,
      transaction_type: 'completion',
      preliminary_transaction_id: auth,
      check_items: [{ code: 'FUEL-95', quantity: litres, processed_quantity: litres }],
    },
  });
  const booked = sale.payments.find((p) => p.operation === 'completion');
  if (!booked) throw new Error('no completion booked');
  return { id, sale, booked };
}

describe('a card-prepaid fuel sale given back', () => {
  it('a cancelled card fuel sale reverses its completion on the unit once, reported with the cancel', async () => {
    const { t, dir } = await till();
    const { id, booked } = await cardFuelSale(t, 10);
    await booksAgree(t, dir, cents(booked.amount));

    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancel.payments.map((p) => [p.operation, p.status, p.amount])).toEqual([
      ['cancel', 'success', booked.amount],
    ]);
    expect(tillReports(t).ops).toEqual([
      ['completion', cents(booked.amount)],
      ['cancel', cents(booked.amount)],
    ]);
    await booksAgree(t, dir, 0);
    // A second cancel answers the first: nothing more is given back.
    expect(await t.ok('sale-cancel', { transaction_id: id })).toEqual(cancel);
    await booksAgree(t, dir, 0);
  }, 30_000);

  it('a refunded part of a card fuel sale goes back to the card, reported with the refund', async () => {
    const { t, dir } = await till();
    const { id, sale, booked } = await cardFuelSale(t, 10);
    const refund = await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 4 }],
    });
    const back = cents(refund.check.amount_to_pay);
    expect(back).toBeGreaterThan(0);
    expect(refund.payments.map((p) => [p.operation, p.status, cents(p.amount)])).toEqual([
      ['refund', 'success', back],
    ]);
    await booksAgree(t, dir, cents(booked.amount) - back);
    // The rest refunded: the card has all its money back, and the books say so.
    await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 6 }],
    });
    expect(cents(sale.check.amount_to_pay)).toBe(cents(booked.amount));
    await booksAgree(t, dir, 0);
  }, 30_000);
});

/** A sale of 3 oils (38.70) paid by two cards, 10 then 28.70. */
async function twoCardSale(t: Till) {
  const id = uuidv7(Date.now());
  const sale = await t.ok('sale-process', {
    transaction_id: id,
    check: {
      check_items: [item('OIL-1', 3)],
      payments: [
        { type: 'bank-card', amount: 10 },
        { type: 'bank-card', amount: 28.7 },
      ],
    },
  });
  expect(sale.payments.map((p) => [p.operation, p.amount])).toEqual([
    ['purchase', 10],
    ['purchase', 28.7],
  ]);
  return { id, sale };
}

describe('a sale paid by two cards given back', () => {
  it('a cancel says how the money went back: each card reversed for its own part', async () => {
    const { t } = await till();
    const { id } = await twoCardSale(t);
    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancel.paid_back).toEqual([
      { type: 'bank-card', amount: 10 },
      { type: 'bank-card', amount: 28.7 },
    ]);
  }, 30_000);

  it('a refund of a card-and-cash sale says the card got its part back and the rest is cash', async () => {
    const { t } = await till();
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: {
        check_items: [item('OIL-1', 3)],
        payments: [
          { type: 'bank-card', amount: 10 },
          { type: 'cash', amount: 28.7 },
        ],
      },
    });
    const refund = await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 2 }],
    });
    expect(refund.paid_back).toEqual([
      { type: 'bank-card', amount: 10 },
      { type: 'cash', amount: 15.8 },
    ]);
  }, 30_000);

  it('a cancelled two-card sale reverses each card on its own receipt for its own amount', async () => {
    const { t, dir } = await till();
    const { id, sale } = await twoCardSale(t);
    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancel.payments.map((p) => [p.operation, p.status, p.amount])).toEqual([
      ['cancel', 'success', 10],
      ['cancel', 'success', 28.7],
    ]);
    const j = t.terminal.store.cardJournal;
    expect(cancel.payments.map((p) => j.targetOf(p.payment_id)?.id)).toEqual(
      sale.payments.map((p) => p.payment_id),
    );
    await booksAgree(t, dir, 0);
  }, 30_000);

  it('a refund of a two-card sale gives back to the last card first, then the one before', async () => {
    const { t, dir } = await till();
    const { id, sale } = await twoCardSale(t);
    const [first, last] = sale.payments;
    const step = async (quantity: number) =>
      t.ok('sale-refund', {
        transaction_id: uuidv7(Date.now()),
        original_transaction_id: id,
        lines: [{ index: 0, quantity }],
      });
    const j = t.terminal.store.cardJournal;
    const receiptOf = (paymentId: string) => j.get(paymentId)?.receiptNo;
    const onto = (r: Awaited<ReturnType<typeof step>>) =>
      r.payments.map((p) => [j.get(p.payment_id)?.originalReceipt, p.amount]);

    // 12.90 back: all from the last card (28.70).
    const one = await step(1);
    expect(onto(one)).toEqual([[receiptOf(last!.payment_id), 12.9]]);
    // 25.80 more: 15.80 left on the last card, then 10 from the first card, one refund each.
    const two = await step(2);
    expect(onto(two)).toEqual([
      [receiptOf(last!.payment_id), 15.8],
      [receiptOf(first!.payment_id), 10],
    ]);
    await booksAgree(t, dir, 0);
  }, 30_000);
});

describe('giving back to two cards interrupted half-way', () => {
  /** The unit fails the `nth` card operation of this kind (the till died, the line broke). */
  function failNth(t: Till, operation: 'cancel' | 'refund', nth: number): void {
    const cards = t.terminal.services.cards;
    const run = cards.run.bind(cards);
    let seen = 0;
    cards.run = (...args: Parameters<typeof run>) => {
      if (args[0] === operation && ++seen === nth) {
        cards.run = run;
        return Promise.resolve({
          ok: false as const,
          error: refuse('payment-failed', 'the payment unit failed: line broken', 'check'),
        });
      }
      return run(...args);
    };
  }

  it('a cancel retried after one of two cards was reversed reverses only the other, once', async () => {
    const { t, dir } = await till();
    const { id } = await twoCardSale(t);
    failNth(t, 'cancel', 2);
    expect((await t.call('sale-cancel', { transaction_id: id })).status).not.toBe(200);
    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancel.payments.map((p) => [p.operation, p.amount])).toEqual([
      ['cancel', 10],
      ['cancel', 28.7],
    ]);
    expect(new Set(cancel.payments.map((p) => p.transaction_id)).size).toBe(1);
    await booksAgree(t, dir, 0);
  }, 30_000);

  it('a refund retried under its id after one of two cards was refunded refunds only the other, once', async () => {
    const { t, dir } = await till();
    const { id } = await twoCardSale(t);
    const refund = {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 3 }],
    };
    failNth(t, 'refund', 2);
    expect((await t.call('sale-refund', refund)).status).not.toBe(200);
    const again = await t.ok('sale-refund', refund);
    expect(again.payments.map((p) => [p.operation, p.amount])).toEqual([
      ['refund', 28.7],
      ['refund', 10],
    ]);
    await booksAgree(t, dir, 0);
  }, 30_000);
});

describe("the till's record of card money given back", () => {
  it('a refund to two cards records one card payment per card, each with its refund', async () => {
    const { t } = await till();
    const { id } = await twoCardSale(t);
    const refundId = uuidv7(Date.now());
    const refund = await t.ok('sale-refund', {
      transaction_id: refundId,
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 3 }],
    });
    const recorded = t.terminal.store.ledger
      .effectsOf(refundId)
      .payments.map((p) => [p.payment_type, p.payment_id, Number(p.amount)]);
    expect(recorded).toEqual(refund.payments.map((p) => ['bank-card', p.payment_id, p.amount]));
  }, 30_000);
});
