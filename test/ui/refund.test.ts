// A refund on the cashier's screen: a senior cashier sells three bottles of water and a
// sandwich for cash, opens the refund from the receipt and gives back one bottle; the refund
// reaches the sandbox central (the outbox drains with nothing refused).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  OwnCentral,
  TEST_MS,
  addItem,
  confirmPayment,
  expectText,
  fastCentral,
  noError,
  onTill,
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

describe('the cashier screen: a refund', () => {
  it(
    'gives back one line of a cash sale from its receipt',
    async () => {
      await onTill('refund', { central: fastCentral(central.url) }, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.senior);
        await addItem(page, { code: 'WTR-1', price: '1.49', quantity: '3' });
        await addItem(page, { code: 'SNK-1', price: '4.99', quantity: '1' });
        await expectText(page.getByTestId('totals-to-pay'), '9.46');
        await toPayment(page);
        await confirmPayment(page);
        const id = ((await page.getByTestId('receipt-transaction-id').textContent()) ?? '').trim();

        await page.getByTestId('receipt-refund').click();
        await page.getByTestId('screen-refund').waitFor();
        await page.getByTestId('refund-sale').waitFor();
        await noError(page);
        expect(await page.getByTestId('refund-transaction-id').inputValue()).toBe(id);
        await expectText(page.getByTestId('refund-sale-amount'), /9\.46/);
        await expectText(page.getByTestId('refund-line-0'), /Water/);

        await page.getByTestId('refund-qty-0').fill('1');
        await page.getByTestId('refund-comment').fill('one bottle leaked');
        await page.getByTestId('refund-submit').click();
        await page
          .getByTestId('refund-result')
          .or(page.locator('[data-testid="message"][data-kind="error"]'))
          .first()
          .waitFor();
        await noError(page);
        await expectText(page.getByTestId('refund-result-amount'), /1\.49/);
        await screenshot(page, 'refund');

        // Sent: the sandbox gets one operation that refers to the sale, and the status bar
        // shows nothing refused and nothing to look at.
        const refundsOf = async () => {
          const got = await central.sandbox<{ transactions: Array<{ transaction_id: string }> }>(
            'transactions',
          );
          return got.transactions.filter(
            (t) => t.transaction_id !== id && JSON.stringify(t).includes(id),
          ).length;
        };
        const bar = page.getByTestId('status-rejected').or(page.getByTestId('status-attention'));
        await expect
          .poll(refundsOf, {
            timeout: 15_000,
            message: `the refund never reached the sandbox (status bar: ${await bar.allTextContents()})`,
          })
          .toBe(1);
        await expectText(page.getByTestId('status-outbox'), 'To send: 0', 15_000);
        expect(await bar.count(), `the status bar shows ${await bar.allTextContents()}`).toBe(0);
      });
    },
    TEST_MS,
  );
});
