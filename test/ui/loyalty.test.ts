// Loyalty at the till on the cashier's screen: with Anna identified, F7 opens her coupons and
// bonuses; the till sells her the gift certificate for 25 bonuses (its code shown with a QR,
// her balance the till's new one), and a manager adds bonuses with why, from the keyboard.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  expectText,
  identify,
  noError,
  onTill,
  screenshot,
  signInToSale,
} from './helpers.js';

describe('the cashier screen: coupons and bonuses', () => {
  it(
    'sells a certificate for bonuses and adds bonuses with why, the balance following each',
    async () => {
      await onTill('loyalty', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.manager);
        await identify(page, DEMO.cards.anna);
        await page.keyboard.press('F7');
        await page.getByTestId('screen-loyalty').waitFor();
        await expectText(page.getByTestId('loyalty-bonuses-regular'), '120.50');
        await expectText(
          page.getByTestId('coupon-batch-0'),
          /10 bonus gift certificate · 25\.00 bonuses/,
        );

        await page.getByTestId('coupon-buy-0').click();
        await page.getByTestId('loyalty-sold-code').waitFor();
        await noError(page);
        await expectText(page.getByTestId('loyalty-sold-code'), /^GIFT-10-/);
        await expectText(page.getByTestId('message-text'), /Coupon GIFT-10-\S+ sold for 25\.00/);
        await expectText(page.getByTestId('loyalty-bonuses-regular'), '95.50');
        expect(await page.getByTestId('loyalty-qr').getAttribute('data-text')).toMatch(/^GIFT-10-/);
        await expectText(page.getByTestId('receipt-paper'), /Bonus balance +95\.50/);
        await screenshot(page, 'loyalty-coupon-sold');

        // a manager's bonus operation: the reason is required, said at its field
        await page.getByTestId('bonus-amount').fill('10');
        await page.getByTestId('bonus-amount').press('Enter');
        await expectText(page.getByTestId('bonus-comment-error'), /Say why/);
        await page.getByTestId('bonus-comment').fill('complaint settled');
        await page.getByTestId('bonus-comment').press('Enter');
        await expectText(page.getByTestId('message-text'), /Added 10\.00 bonuses/);
        await noError(page);
        await expectText(page.getByTestId('loyalty-bonuses-regular'), '105.50');
        await screenshot(page, 'loyalty-bonuses-added');

        // Esc (twice: the message first) goes back to the sale, the customer still there
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await page.getByTestId('screen-sale').waitFor();
        await expectText(page.getByTestId('customer-bonuses-regular'), '105.50');
      });
    },
    TEST_MS,
  );
});
