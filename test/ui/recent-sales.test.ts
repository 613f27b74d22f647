// Recent sales on the cashier's screen: a senior cashier sells twice, finds the first sale by
// its amount (nobody types a transaction id), prints its receipt again (a COPY), refunds one
// bottle, and on opening the sale again sees that bottle as refunded.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { Page } from 'playwright-core';
import {
  TEST_MS,
  addItem,
  confirmPayment,
  expectText,
  noError,
  onTill,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';

async function sell(page: Page, items: Parameters<typeof addItem>[1][]): Promise<void> {
  for (const item of items) await addItem(page, item);
  await toPayment(page);
  await confirmPayment(page);
  await page.getByTestId('receipt-new-sale').click();
  await page.getByTestId('screen-sale').waitFor();
}

const errorShown = (page: Page) => page.locator('[data-testid="message"][data-kind="error"]');

describe('the cashier screen: recent sales', () => {
  it(
    'finds a sale by its amount, reprints it as a copy and refunds one line of it',
    async () => {
      await onTill('recent-sales', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.senior);
        await sell(page, [
          { code: 'WTR-1', price: '1.49', quantity: '3' },
          { code: 'SNK-1', price: '4.99', quantity: '1' },
        ]);
        await sell(page, [{ code: 'SNK-1', price: '4.99', quantity: '2' }]);

        // from the header, by its shortcut
        await page.keyboard.press('Alt+6');
        await page.getByTestId('screen-recent').waitFor();
        await page.getByTestId('recent-sale-1').waitFor();
        await expectText(page.getByTestId('recent-sale-0-amount'), '9.98');
        await screenshot(page, 'recent-sales-list');

        await page.getByTestId('recent-search').fill('9.46');
        await page.getByTestId('recent-search').press('Enter');
        await expect
          .poll(() => page.locator('[data-testid^="recent-sale-"][data-testid$="-amount"]').count())
          .toBe(1);
        await expectText(page.getByTestId('recent-sale-0-amount'), '9.46');
        await page.getByTestId('recent-sale-0-open').click();
        await page.getByTestId('recent-detail').waitFor();
        await expectText(page.getByTestId('recent-line-0'), /Water/);

        await page.getByTestId('recent-reprint').click();
        await page.getByTestId('recent-copy').or(errorShown(page)).first().waitFor();
        await noError(page);
        await expectText(page.getByTestId('receipt-paper'), /COPY/);
        await screenshot(page, 'recent-sales-copy');

        await page.getByTestId('recent-refund').click();
        await page.getByTestId('refund-sale').or(errorShown(page)).first().waitFor();
        await noError(page);
        await expectText(page.getByTestId('refund-line-0-refunded'), '0');
        await page.getByTestId('refund-qty-0').fill('1');
        await page.getByTestId('refund-comment').fill('one bottle leaked');
        await page.getByTestId('refund-submit').click();
        await page.getByTestId('refund-result').or(errorShown(page)).first().waitFor();
        await noError(page);
        await expectText(page.getByTestId('refund-give-back-0'), 'Give back 1.49 in cash.');
        await screenshot(page, 'recent-sales-refund');

        // opened again (back from the refund, it is still open): the bottle shows as
        // refunded, and more than is left is refused
        await page.getByTestId('refund-to-recent').click();
        await page.getByTestId('screen-recent').waitFor();
        await expectText(page.getByTestId('recent-detail-status'), /partly refunded/);
        await page.keyboard.press('Escape');
        await expectText(page.getByTestId('recent-sale-0-status'), /partly refunded/);
        await page.getByTestId('recent-sale-0-open').click();
        await expectText(page.getByTestId('recent-line-0-refunded'), /^1 · 1\.49$/);
        await page.getByTestId('recent-refund').click();
        await page.getByTestId('refund-sale').waitFor();
        await expectText(page.getByTestId('refund-line-0-refunded'), '1');
        await page.getByTestId('refund-qty-0').fill('3');
        await page.getByTestId('refund-submit').click();
        await expectText(
          page.getByTestId('refund-qty-0-error'),
          'More than is left to refund on this line.',
        );
        await expect
          .poll(() => page.locator(':focus').getAttribute('data-testid'))
          .toBe('refund-qty-0');
        await screenshot(page, 'recent-sales-reopened');
      });
    },
    TEST_MS,
  );

  it(
    'cancels a sale opened from the list, and says to give the cash back',
    async () => {
      await onTill('recent-sales-cancel', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.senior);
        await sell(page, [{ code: 'SNK-1', price: '4.99', quantity: '2' }]);
        await page.getByTestId('nav-recent').click();
        await page.getByTestId('recent-sale-0-open').click();
        await page.getByTestId('recent-refund').click();
        await page.getByTestId('refund-sale').waitFor();
        await page.getByTestId('cancel-submit').click();
        await expectText(page.getByTestId('message-text'), /again/);
        await page.getByTestId('cancel-submit').click();
        await page.getByTestId('cancel-result').or(errorShown(page)).first().waitFor();
        await noError(page);
        await expectText(page.getByTestId('refund-give-back-0'), 'Give back 9.98 in cash.');
        await screenshot(page, 'recent-sales-cancel');

        await page.getByTestId('refund-to-recent').click();
        await expectText(page.getByTestId('recent-detail-status'), 'cancelled');
        expect(await page.getByTestId('recent-refund').isDisabled()).toBe(true);
      });
    },
    TEST_MS,
  );
});
