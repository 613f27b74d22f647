// A corporate fuel sale: the driver's card, 30 l of diesel, paid from the fleet account
// through the driver's access, which asks for the PIN, the odometer and the vehicle.
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  OwnCentral,
  addItem,
  confirmPayment,
  expectText,
  fastCentral,
  identify,
  messageCode,
  onTill,
  paymentReady,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';

let central: OwnCentral;
beforeEach(async () => {
  central = await OwnCentral.start();
});
afterEach(async () => {
  await central.close();
});

/** Driver One, 30 l of diesel, the corporate account chosen on the payment screen. */
async function dieselForDriverOne(page: Page): Promise<void> {
  await signInToSale(page, DEMO.authCodes.cashier);
  await identify(page, DEMO.cards.driver1);
  await expectText(page.getByTestId('customer-name'), 'Driver One');
  await expectText(page.getByTestId('customer-account-0'), /PIN/);
  await addItem(page, { kind: 'fuel-quantity', code: 'DIESEL', price: '1.659', quantity: '30' });
  await expectText(page.getByTestId('line-0-quantity'), '30.000');
  await toPayment(page);
  await page.getByTestId('payment-method-corporate-special-account').click();
  await paymentReady(page);
  expect(await page.getByTestId('payment-account-0').getAttribute('aria-pressed')).toBe('true');
}

async function fillVehicle(page: Page, pin: string): Promise<void> {
  await page.getByTestId('payment-odometer').fill('120900');
  await page.getByTestId('payment-odometer-unit').selectOption('km');
  await page.getByTestId('payment-vehicle-id').fill('TRUCK-1');
  await page.getByTestId('payment-pin').fill(pin);
}

describe('the cashier screen: a corporate fuel sale', () => {
  it(
    'pays diesel from the fleet account with vehicle, odometer and PIN',
    async () => {
      await onTill('corporate-fuel', { central: fastCentral(central.url) }, async ({ page }) => {
        await dieselForDriverOne(page);
        await page.getByTestId('payment-pin').waitFor();
        await page.getByTestId('payment-vehicle-id').waitFor();
        // The odometer is required: the form says so before anything is sent.
        await page.getByTestId('payment-confirm').click();
        await page.getByTestId('payment-odometer-error').waitFor();

        await fillVehicle(page, DEMO.pins.driver1);
        await confirmPayment(page);
        await expectText(page.getByTestId('receipt-subtype'), /online/i);
        await expectText(page.getByTestId('receipt-line-0'), /Diesel/);
        // The fleet's corporate rule: 3 cents off per litre, 0.90 on 30 l.
        await expectText(page.getByTestId('receipt-total-discount'), '0.90');
        const paid = ((await page.getByTestId('receipt-total-to-pay').textContent()) ?? '').trim();
        expect(await page.getByTestId('receipt').textContent()).not.toContain(DEMO.pins.driver1);
        await screenshot(page, 'corporate-fuel');

        // The fleet account on the sandbox went down by the charge.
        const balances = await central.sandbox<{
          accounts: Array<{ account_id: string; balance: number }>;
        }>('balances');
        const fleet = balances.accounts.find((a) => a.account_id === DEMO.accounts.fleet);
        expect(fleet?.balance).toBeCloseTo(5000 - Number(paid), 2);
      });
    },
    TEST_MS,
  );

  it(
    'refuses a wrong PIN on screen, and the right one then pays',
    async () => {
      await onTill(
        'corporate-fuel-pin',
        { central: fastCentral(central.url) },
        async ({ page }) => {
          await dieselForDriverOne(page);
          await fillVehicle(page, '9999');
          await page.getByTestId('payment-confirm').click();
          await page.locator('[data-testid="message"][data-kind="error"]').waitFor();
          expect(await messageCode(page)).toBe('pin-invalid');
          await page.getByTestId('screen-payment').waitFor();
          await screenshot(page, 'corporate-fuel-pin');

          await page.getByTestId('message-dismiss').click();
          await page.getByTestId('payment-pin').fill(DEMO.pins.driver1);
          await confirmPayment(page);
          await expectText(page.getByTestId('receipt-subtype'), /online/i);
        },
      );
    },
    TEST_MS,
  );
});
