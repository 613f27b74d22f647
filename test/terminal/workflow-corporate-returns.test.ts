// A corporate sale given back: the fleet account is credited through the driver's access the
// sale was charged through, so the driver's day, month and overall usage is given back too
// (issue 11, item 4: usage is booked per access, on both sides).
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { driver1Fleet, item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

async function corporateSale(): Promise<{ t: Till; id: string; sale: string[] }> {
  till = await openTill();
  const t = till;
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', {});
  const id = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: id,
    check: {
      ...driver1Fleet,
      odometer: 120_600,
      special_account_pin: DEMO.pins.driver1,
      check_items: [item('DIESEL', 10)],
    },
  });
  return { t, id, sale: accessesOf(t, id) };
}

/** The accesses the ledger's account movements of an operation name. */
const accessesOf = (t: Till, id: string) =>
  t.terminal.store.ledger.effectsOf(id).accounts.map((a) => a.access_id ?? 'none');

describe('a corporate sale given back', () => {
  it("a corporate refund credits the fleet account through the driver's access", async () => {
    const { t, id, sale } = await corporateSale();
    expect(sale).toEqual([DEMO.accesses.driver1]);
    const refundId = uuidv7(Date.now());
    await t.ok('sale-refund', {
      transaction_id: refundId,
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 4 }],
    });
    expect(accessesOf(t, refundId)).toEqual([DEMO.accesses.driver1]);
  }, 30_000);

  it("a corporate cancel credits the fleet account through the driver's access", async () => {
    const { t, id } = await corporateSale();
    await t.ok('sale-cancel', { transaction_id: id });
    const cancelId = t.terminal.store.ledger.storedCheck(id)?.cancelledBy;
    expect(cancelId).toBeTruthy();
    expect(accessesOf(t, cancelId!)).toEqual([DEMO.accesses.driver1]);
  }, 30_000);
});
