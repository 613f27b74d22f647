// Two card operations at once on one till (two pumps authorised together, or a request whose
// caller timed out still running when the next one comes): found by the chaos mix run (seed
// 1943084121), where a pump's completion, sent right after its authorisation was answered,
// was refused by the unit (ZVT 0x64, no such pre-authorisation). The second operation's
// payment flow took the first one's journal entry, `inprocess` only because it was on the
// unit at that moment, for a crash's leftover and "recovered" it: the unit's last receipt (the
// first pump's fresh pre-authorisation, same amount) looked like its booking, and was reversed
// after the first pump had been answered as authorised. Card operations run one at a time.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { tillPerTest, type Till } from './helpers.js';

const { signedIn } = tillPerTest();

const unitOf = (t: Till) => t.terminal.devices?.simulators.payment as ZvtSimulator;

/** A pump authorised for 30.00 on a bank card (the chaos mix's card prepay). */
function authorisation(id: string) {
  return {
    transaction_id: id,
    check: {
      transaction_type: 'preauthorization',
      payment_type: 'bank-card',
      check_items: [
        {
          code: 'FUEL-95',
          quantity: 16.77,
          amount: 30,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
  };
}

function completion(auth: string, litres: number) {
  return {
    transaction_id: uuidv7(Date.now()),
    check: {
      transaction_type: 'completion',
      preliminary_transaction_id: auth,
      payment_type: 'bank-card',
      check_items: [{ code: 'FUEL-95', quantity: litres, processed_quantity: litres }],
    },
  };
}

describe('two card operations at once', () => {
  it('a pump authorised while another is on the unit keeps both pre-authorisations, and both complete', async () => {
    const t = await signedIn(DEMO.authCodes.cashier);
    await t.terminal.services.cards.settled;
    const first = uuidv7(Date.now());
    const second = uuidv7(Date.now() + 1);
    // The second pump is authorised the moment the first one's command reaches the unit.
    let secondAnswer: ReturnType<Till['call']> | null = null;
    unitOf(t).hooks.onCommand = (apdu) => {
      if (apdu.cls === 0x06 && apdu.ins === 0x22 && !secondAnswer)
        secondAnswer = t.call('sale-process', authorisation(second));
    };
    const a = await t.ok('sale-process', authorisation(first));
    expect(secondAnswer).not.toBeNull();
    const b = await secondAnswer!;
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(a.payments).toEqual([
      expect.objectContaining({ operation: 'authorize', status: 'authorized' }),
    ]);
    // Both reservations stand on the unit: nobody released the first one.
    expect(
      unitOf(t)
        .openPreAuthorisations()
        .map((x) => x.amount_cents),
    ).toEqual([3_000, 3_000]);

    const done = await t.call('sale-process', completion(first, 4));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const other = await t.call('sale-process', completion(second, 4));
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(unitOf(t).openPreAuthorisations()).toEqual([]);
  }, 30_000);
});
