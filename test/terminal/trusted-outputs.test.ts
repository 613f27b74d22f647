// The outputs a running terminal answers unchecked (TRUSTED_OUTPUTS: check-calc, for the speed
// of every line added) must still never carry what the output schema would strip: the tests
// check every output (LT_CHECK_OUTPUTS=all), so this one runs the production configuration.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { TRUSTED_OUTPUTS } from '../../src/terminal/command-map.js';
import { driver1Fleet, item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

describe('a trusted output', () => {
  it('answers a fleet check-calc without the PIN it was given', async () => {
    till = await openTill({ trusted: TRUSTED_OUTPUTS });
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    await t.ok('customer-identify', { id: DEMO.cards.driver1, id_type: 'card' });
    const pin = DEMO.pins.driver1;
    const check = {
      ...driver1Fleet,
      check_items: [item('DIESEL', 40)],
      odometer: 120_600,
      special_account_pin: pin,
    };
    const r = await t.call('check-calc', { check });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain('special_account_pin"');
    expect(r.body).not.toHaveProperty('check.special_account_pin');
  }, 30_000);
});
