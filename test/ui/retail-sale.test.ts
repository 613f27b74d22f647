// A retail sale on the cashier's screen: a gold card holder buys two coffees (10% off coffee)
// and a sandwich, spends 2 bonuses and earns 2% regular and 5% promotional shop bonuses.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  addItem,
  calculated,
  confirmPayment,
  expectText,
  identify,
  onTill,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';

describe('the cashier screen: a retail sale', () => {
  it(
    'sells with a discount, spends bonuses and earns them, online',
    async () => {
      await onTill('retail-sale', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await expectText(page.getByTestId('header-staff'), 'Carla Cashier');
        await identify(page, DEMO.cards.anna);
        await expectText(page.getByTestId('customer-name'), 'Anna Gold');
        await expectText(page.getByTestId('customer-bonuses-available'), '135.50');

        await addItem(page, { code: 'COF-1', price: '2.50', quantity: '2' });
        await addItem(page, { code: 'SNK-1', price: '4.99', quantity: '1' });
        await expectText(page.getByTestId('line-0-discount'), '0.50');
        await page.getByTestId('bonuses').fill('2');
        await page.getByTestId('bonuses-apply').click();
        await calculated(page);
        await expectText(page.getByTestId('bonuses-granted'), /2\.00/);
        await expectText(page.getByTestId('totals-amount'), '9.99');
        await expectText(page.getByTestId('totals-discount'), '0.50');
        await expectText(page.getByTestId('totals-bonuses-redeemed'), '2.00');
        // 2% of 9.49 regular + 5% of the sandwich promotional
        await expectText(page.getByTestId('totals-bonuses-added'), '0.44');
        await expectText(page.getByTestId('totals-to-pay'), '7.49');

        await toPayment(page);
        await expectText(page.getByTestId('payment-due'), /7\.49/);
        await page.getByTestId('payment-cash-given').fill('10');
        await expectText(page.getByTestId('payment-change'), '2.51');
        await confirmPayment(page);

        await expectText(page.getByTestId('receipt-subtype'), /online/i);
        await expectText(page.getByTestId('receipt-total-discount'), '0.50');
        await expectText(page.getByTestId('receipt-total-bonuses-redeemed'), '2.00');
        await expectText(page.getByTestId('receipt-total-bonuses-added'), '0.44');
        await expectText(page.getByTestId('receipt-total-to-pay'), '7.49');
        await expectText(page.getByTestId('receipt-payment-0'), /7\.49/);
        await expectText(page.getByTestId('receipt-sync'), 'sent');
        await expectText(page.getByTestId('receipt-printed'), 'Yes');
        await expectText(page.getByTestId('status-outbox'), 'To send: 0');
        await screenshot(page, 'retail-sale');

        // The next sale sees the new balance: 135.50 - 2 + 0.44.
        await page.getByTestId('receipt-new-sale').click();
        await page.getByTestId('screen-sale').waitFor();
        await expect(page.getByTestId('customer-anonymous').isVisible()).resolves.toBe(true);
        await identify(page, DEMO.cards.anna);
        await expectText(page.getByTestId('customer-bonuses-available'), '133.94');
      });
    },
    TEST_MS,
  );
});
