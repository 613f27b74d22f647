// A prepay whose pump can no longer dispense on it is completed (docs/forecourt.md, "Selling a
// fill"): a pump still released for the prepay holds its completion (`prepay-pump-open`), but
// one stopped before its driver drew anything, or found idle (switched off and on), cannot
// deliver on it any more, so its prepay's money is given back at once instead of waiting for
// a release that will never end on its own.
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/sync/ids.js';
import { cashPrepay, forecourtTill } from './forecourt-till.js';
import { tillPerTest } from './helpers.js';

const { open } = tillPerTest();

const completion = (prepay: string) => ({
  transaction_id: uuidv7(Date.now()),
  check: { transaction_type: 'completion', preliminary_transaction_id: prepay },
});

describe('a prepay whose pump can no longer deliver it', () => {
  it('completes with its money given back once its pump was stopped before any fuel', async () => {
    const { t, port } = await forecourtTill(open);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await t.ok('pump-stop', { pump: 1 });
    const sale = await t.ok('sale-process', completion(prepay));
    expect(sale.check.amount_to_pay).toBe(0);
    expect(sale.warnings).toContainEqual(
      expect.objectContaining({
        code: 'change-due',
        message: 'give back 20 of the 20 prepaid in cash',
      }),
    );
    // the pump no longer holds the prepay: what it draws next is a postpay fill
    expect((await t.ok('forecourt-state', {})).pumps[0]).toMatchObject({ authorisation_id: null });
    expect(port.pump(1)!.state).toBe('stopped');
  }, 30_000);

  it('is calculated without letting its stopped pump go: only the sale does', async () => {
    const { t } = await forecourtTill(open);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await t.ok('pump-stop', { pump: 1 });
    const calc = await t.ok('check-calc', { check: completion(prepay).check });
    expect(calc.check.amount_to_pay).toBe(0);
    // a calculation writes nothing: the pump still holds the prepay
    expect((await t.ok('forecourt-state', {})).pumps[0]).toMatchObject({
      authorisation_id: prepay,
    });
    await t.ok('sale-process', completion(prepay));
    expect((await t.ok('forecourt-state', {})).pumps[0]).toMatchObject({ authorisation_id: null });
  }, 30_000);

  it('keeps its stopped pump’s hold when its completion is refused', async () => {
    const { t } = await forecourtTill(open);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await t.ok('pump-stop', { pump: 1 });
    // the cash was taken with the prepay: a completion handing cash over is refused
    await t.refused('sale-process', { ...completion(prepay), cash_given: 5 }, 'cash-not-due');
    expect((await t.ok('forecourt-state', {})).pumps[0]).toMatchObject({
      authorisation_id: prepay,
    });
  }, 30_000);

  it('completes once its pump is found idle, switched off and on', async () => {
    const { t, port } = await forecourtTill(open);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await port.clearFill(1); // the pump came back from a power cut idle
    const sale = await t.ok('sale-process', completion(prepay));
    expect(sale.check.amount_to_pay).toBe(0);
  }, 30_000);
});
