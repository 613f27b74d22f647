// A coupon on the cashier's screen: Anna's free-coffee coupon makes her coffee free; a code
// nobody issued is shown as not valid and does not change the check.
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

describe('the cashier screen: a coupon', () => {
  it(
    'redeems a free-coffee coupon and refuses an unknown code',
    async () => {
      await onTill('coupon', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await identify(page, DEMO.cards.anna);
        await addItem(page, { code: 'COF-1', price: '2.50', quantity: '1' });
        await addItem(page, { code: 'WTR-1', price: '1.49', quantity: '1' });

        await page.getByTestId('coupon-code').fill('NOBODY-0001');
        await page.getByTestId('coupon-add').click();
        await calculated(page);
        await expectText(page.getByTestId('coupon-0-state'), /.+/);
        expect(await page.getByTestId('coupon-0').getAttribute('class')).toBe('not-applied');
        await page.getByTestId('coupon-0-remove').click();
        await calculated(page);

        await page.getByTestId('coupon-code').fill(DEMO.coupons.coffee);
        await page.getByTestId('coupon-add').click();
        await calculated(page);
        await expectText(page.getByTestId('coupon-0-state'), 'valid');
        expect(await page.getByTestId('coupon-0').getAttribute('class')).toBe('applied');
        // The coffee is free: its whole 2.50 is the line's discount.
        await expectText(page.getByTestId('line-0-discount'), '2.50');
        await expectText(page.getByTestId('totals-to-pay'), '1.49');

        await toPayment(page);
        await confirmPayment(page);
        await expectText(page.getByTestId('receipt-total-discount'), '2.50');
        await expectText(page.getByTestId('receipt-total-to-pay'), '1.49');
        await screenshot(page, 'coupon');
      });
    },
    TEST_MS,
  );
});
