// After the sale: a coupon redeemed, a partial refund computed from the stored check, a
// cancel that gives everything back, and a bank-card sale (the simulated ZVT unit) whose cancel
// reverses the card payment.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, tillPerTest, type Till } from './helpers.js';

const { signedIn } = tillPerTest();
const senior = () => signedIn(DEMO.authCodes.senior);

/** Anna fills 45 EUR: the server emits her a free coffee coupon, which the till then pulls. */
async function emittedCoupon(t: Till): Promise<{ id: string; code: string }> {
  const mine = () =>
    (t.central.store.findBy('coupon', 'customer_id', DEMO.customers.anna) as { id: string }[]).map(
      (c) => c.id,
    );
  const before = new Set(mine());
  await t.ok('sale-process', {
    transaction_id: uuidv7(Date.now()),
    check: {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      check_items: [item('FUEL-95', 25)],
    },
  });
  expect((await t.ok('sync-now', {})).error).toBeNull();
  const made = mine().filter((id) => !before.has(id));
  expect(made).toHaveLength(1);
  return t.central.store.getRecord('coupon', made[0]!) as { id: string; code: string };
}

describe('coupons, refunds and cancels', () => {
  it('redeems a free-coffee coupon online', async () => {
    const t = await senior();
    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      redeemed_coupons: [{ code: DEMO.coupons.coffee }],
      check_items: [item('COF-1', 1), item('WTR-1', 1)],
    };
    const calc = await t.ok('check-calc', { check });
    expect(calc.check.redeemed_coupons?.[0]).toMatchObject({ code: DEMO.coupons.coffee });
    // The coffee is free: 2.50 off, only the water is paid.
    expect(calc.check.amount_to_pay).toBe(1.49);
    const sale = await t.ok('sale-process', { transaction_id: uuidv7(Date.now()), check });
    expect(sale.subtype).toBe('online');
    expect(sale.check.amount_to_pay).toBe(1.49);
    // Used once: the same coupon no longer gives a free coffee (only the 10% coffee rule).
    const second = await t.ok('check-calc', { check });
    expect(second.check.redeemed_coupons?.[0]).toMatchObject({ valid: false });
    expect(second.check.amount_to_pay).toBe(3.74);
  }, 30_000);

  it('presents and redeems a coupon the sandbox emitted', async () => {
    const t = await senior();
    const coupon = await emittedCoupon(t);
    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      redeemed_coupons: [{ code: coupon.code }],
      check_items: [item('COF-1', 1)],
    };
    const calc = await t.ok('check-calc', { check });
    expect(calc.check.redeemed_coupons?.[0]).toMatchObject({ code: coupon.code, id: coupon.id });
    const sale = await t.ok('sale-process', { transaction_id: uuidv7(Date.now()), check });
    expect(sale).toMatchObject({ subtype: 'online', sync: { state: 'done' } });
  }, 30_000);

  it('answers a stand-in sale presenting a coupon the sandbox emitted (committed, never 500)', async () => {
    const t = await senior();
    const coupon = await emittedCoupon(t);
    t.central.server.setFaults({ error_rate: 1 });
    const id = uuidv7(Date.now());
    const sale = await t.call('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        redeemed_coupons: [{ code: coupon.code }],
        check_items: [item('COF-1', 1)],
      },
    });
    t.central.server.setFaults({ error_rate: 0 });
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    expect(sale.body).toMatchObject({ subtype: 'offline', sync: { state: 'queued' } });
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({
      state: 'committed',
    });
  }, 30_000);

  it('refunds one line from the stored check and cancels another sale whole', async () => {
    const t = await senior();
    const check = {
      customer_id: DEMO.customers.ben,
      id: DEMO.cards.ben,
      id_type: 'card',
      check_items: [item('COF-1', 3), item('SNK-1', 1)],
    };
    const saleId = uuidv7(Date.now());
    const sale = await t.ok('sale-process', { transaction_id: saleId, check });
    const added = sale.check.bonuses_added_amount ?? 0;
    expect(added).toBeGreaterThan(0);

    const refundId = uuidv7(Date.now());
    const refund = await t.ok('sale-refund', {
      transaction_id: refundId,
      original_transaction_id: saleId,
      lines: [{ index: 0, quantity: 1 }],
    });
    // One coffee of three: 2.50 with its 10% discount share 0.25.
    expect(refund.check.amount_to_pay).toBe(2.25);
    expect(refund.check.transaction_type).toBe('refund');
    await t.refused(
      'sale-refund',
      {
        transaction_id: uuidv7(Date.now()),
        original_transaction_id: saleId,
        lines: [{ index: 0, quantity: 3 }],
      },
      'refund-exceeds-sale',
    );
    // A sale with refunds is not cancelled whole.
    await t.refused('sale-cancel', { transaction_id: saleId }, 'sale-refunded');

    const other = uuidv7(Date.now());
    const second = await t.ok('sale-process', {
      transaction_id: other,
      check: { ...check, payment_type: 'cash' },
    });
    const cancel = await t.ok('sale-cancel', {
      transaction_id: other,
      comment: 'customer changed their mind',
    });
    expect(cancel.check.transaction_cancelled).toBe(1);
    expect(cancel.check.amount_to_pay).toBe(second.check.amount_to_pay);
    expect(cancel.check.bonuses_added_amount).toBe(second.check.bonuses_added_amount);
    expect(await t.ok('sale-status', { transaction_id: other })).toMatchObject({ cancelled: true });
    // Cancelling twice answers the first result.
    expect(
      await t.ok('sale-cancel', { transaction_id: other, comment: 'customer changed their mind' }),
    ).toEqual(cancel);
    await t.ok('sync-now', {});
    const tx = (await (
      await fetch(`${t.central.url}/sandbox/transactions`, {
        headers: { Authorization: `Bearer ${DEMO.apiKey}` },
      })
    ).json()) as { transactions: Array<{ transaction_id: string; cancelled: number }> };
    expect(tx.transactions.find((x) => x.transaction_id === other)?.cancelled).toBeTruthy();
  }, 30_000);

  it('charges a bank card on the payment unit and reverses it when the sale is cancelled', async () => {
    const t = await senior();
    const check = { payment_type: 'bank-card', check_items: [item('OIL-1', 1)] };
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', { transaction_id: id, check });
    expect(sale.payments).toHaveLength(1);
    expect(sale.payments[0]).toMatchObject({
      operation: 'purchase',
      status: 'success',
      amount: 12.9,
      transaction_id: id,
    });
    expect(sale.check.payment_id).toBe(sale.payments[0]!.payment_id);

    // Split: part cash, part card; the parts must add up.
    await t.refused(
      'sale-process',
      {
        transaction_id: uuidv7(Date.now()),
        check: {
          check_items: [item('OIL-1', 1)],
          payments: [
            { type: 'cash', amount: 5 },
            { type: 'bank-card', amount: 5 },
          ],
        },
      },
      'payments-mismatch',
    );
    const split = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        check_items: [item('OIL-1', 1)],
        payments: [
          { type: 'cash', amount: 2.9 },
          { type: 'bank-card', amount: 10 },
        ],
      },
    });
    expect(split.payments.map((p) => p.amount)).toEqual([10]);

    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancel.payments).toHaveLength(1);
    expect(cancel.payments[0]).toMatchObject({
      operation: 'cancel',
      status: 'success',
      amount: 12.9,
    });
    const recovered = await t.ok('payment-recover', {});
    expect(recovered.pending).toBe(0);
  }, 30_000);

  it('refunds a sale in steps that add up exactly to the sale', async () => {
    const t = await senior();
    const saleId = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: saleId,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        bonuses_redeemed_amount: 2,
        check_items: [item('COF-1', 3), item('SNK-1', 1)],
      },
    });
    const steps = [
      [{ index: 0, quantity: 1 }],
      [{ index: 0, quantity: 1 }],
      [
        { index: 0, quantity: 1 },
        { index: 1, quantity: 1 },
      ],
    ];
    const cents = (v: number | undefined) => Math.round((v ?? 0) * 100);
    let paid = 0;
    let returned = 0;
    let writtenOff = 0;
    for (const lines of steps) {
      const r = await t.ok('sale-refund', {
        transaction_id: uuidv7(Date.now()),
        original_transaction_id: saleId,
        lines,
      });
      paid += cents(r.check.amount_to_pay);
      returned += cents(r.check.bonuses_redeemed_amount);
      writtenOff += cents(r.check.bonuses_added_amount);
    }
    expect(paid).toBe(cents(sale.check.amount_to_pay));
    expect(returned).toBe(cents(sale.check.bonuses_redeemed_amount));
    expect(writtenOff).toBe(cents(sale.check.bonuses_added_amount));
    await t.refused(
      'sale-refund',
      {
        transaction_id: uuidv7(Date.now()),
        original_transaction_id: saleId,
        lines: [{ index: 1, quantity: 1 }],
      },
      'refund-exceeds-sale',
    );
  }, 30_000);
});

describe('card money given back is reported like card money taken', () => {
  /** The central service's bank-card record of an operation, after the till has synced. */
  async function reportedCardPayment(t: Till, transactionId: string | null) {
    await t.ok('sync-now', {});
    const tx = (await (
      await fetch(`${t.central.url}/sandbox/transactions`, {
        headers: { Authorization: `Bearer ${DEMO.apiKey}` },
      })
    ).json()) as { transactions: Array<{ transaction_id: string; operation: string }> };
    return (
      tx.transactions.find(
        (x) => x.operation === 'bank_card_payments' && x.transaction_id === transactionId,
      ) ?? null
    );
  }

  it('a card reversal of a cancelled sale is reported as a bank card payment', async () => {
    const t = await senior();
    const id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: id,
      check: { payment_type: 'bank-card', check_items: [item('OIL-1', 1)] },
    });
    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    const reversal = cancel.payments[0]!;
    const row = t.terminal.store.outbox.byTransaction(reversal.payment_id);
    expect(row).toMatchObject({ operation: 'bank_card_payments' });
    expect((row?.payload as { body?: unknown } | undefined)?.body).toMatchObject({
      id: reversal.payment_id,
      operation_type: 'cancel',
      status: 'success',
      amount: 12.9,
    });
    expect(reversal.transaction_id).not.toBe(id);
    expect(await reportedCardPayment(t, reversal.transaction_id)).not.toBeNull();
  }, 30_000);

  it('a card refund is reported as a bank card payment', async () => {
    const t = await senior();
    const saleId = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: saleId,
      check: { payment_type: 'bank-card', check_items: [item('OIL-1', 2)] },
    });
    const refund = await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: saleId,
      lines: [{ index: 0, quantity: 1 }],
    });
    const back = refund.payments[0]!;
    expect(back).toMatchObject({ operation: 'refund', status: 'success' });
    const row = t.terminal.store.outbox.byTransaction(back.payment_id);
    expect(row).toMatchObject({ operation: 'bank_card_payments' });
    expect((row?.payload as { body?: unknown } | undefined)?.body).toMatchObject({
      id: back.payment_id,
      transaction_id: refund.transaction_id,
      operation_type: 'refund',
      status: 'success',
      amount: back.amount,
    });
    expect(await reportedCardPayment(t, refund.transaction_id)).not.toBeNull();
  }, 30_000);
});

describe('a cancel or refund killed before its answer was kept', () => {
  /** The till dies right after recording, before the answer is kept: the next put throws. */
  function dieOnNextAnswer(t: Till): void {
    const results = t.terminal.store.commandResults;
    const put = results.put.bind(results);
    results.put = (..._args: Parameters<typeof put>) => {
      results.put = put;
      throw new Error('killed before the answer was kept');
    };
  }

  it('a refund retried under its id after the kill refunds once', async () => {
    const t = await senior();
    const saleId = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: saleId,
      check: {
        customer_id: DEMO.customers.ben,
        id: DEMO.cards.ben,
        id_type: 'card',
        check_items: [item('COF-1', 2)],
      },
    });
    const refund = {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: saleId,
      lines: [{ index: 0, quantity: 1 }],
    };
    dieOnNextAnswer(t);
    expect((await t.call('sale-refund', refund)).status).not.toBe(200);
    const again = await t.ok('sale-refund', refund);
    expect(again.transaction_id).toBe(refund.transaction_id);
    expect(t.terminal.store.refunds.of(saleId)).toHaveLength(1);
  }, 30_000);

  it('a cancel retried after the kill cancels once', async () => {
    const t = await senior();
    const saleId = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: saleId,
      check: {
        customer_id: DEMO.customers.ben,
        id: DEMO.cards.ben,
        id_type: 'card',
        check_items: [item('COF-1', 1)],
      },
    });
    dieOnNextAnswer(t);
    expect((await t.call('sale-cancel', { transaction_id: saleId })).status).not.toBe(200);
    const again = await t.ok('sale-cancel', { transaction_id: saleId });
    expect(again.transaction_id).toBe(saleId);
    expect(t.terminal.store.ledger.storedCheck(saleId)?.cancelledBy).not.toBeNull();
  }, 30_000);
});
