// Card operations a crash left open: the next sale waits for them, and payment-recover settles
// them with the unit through the journal kept in the store.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

describe('card payment recovery', () => {
  it('settles an operation a crash left before its first byte, and the card sells again', async () => {
    till = await openTill();
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    // As if the till died after writing the journal entry and before sending anything.
    const stuck = t.terminal.store.cardJournal.create(
      {
        id: uuidv7(Date.now()),
        system: 'payment',
        protocol: 'zvt',
        operationType: 'purchase',
        amountCents: 990,
        currency: 'EUR',
        transactionId: null,
        originalReceipt: null,
        baselineReceipt: null,
        receiptNo: null,
        traceNo: null,
        panMasked: null,
        resultCode: null,
        note: null,
      },
      Date.now(),
    );
    const listed = await t.ok('attention-list', {});
    expect(listed.items).toContainEqual(expect.objectContaining({ kind: 'payment-unresolved' }));
    const recovered = await t.ok('payment-recover', { payment_id: stuck.id });
    expect(recovered).toEqual({
      recovered: [
        expect.objectContaining({ payment_id: stuck.id, status: 'fail', action: 'status-enquiry' }),
      ],
      pending: 0,
    });
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'bank-card', check_items: [item('WTR-1', 1)] },
    });
    expect(sale.payments[0]).toMatchObject({ status: 'success', amount: 1.49 });
  }, 30_000);

  it('charges the card once when the same sale is sent twice at the same time', async () => {
    till = await openTill();
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    const input = {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'bank-card', check_items: [item('OIL-1', 1)] },
    };
    const [a, b] = await Promise.all([t.ok('sale-process', input), t.ok('sale-process', input)]);
    expect(b).toEqual(a);
    expect(t.terminal.store.cardJournal.forTransaction(input.transaction_id)).toHaveLength(1);
  }, 30_000);
});
