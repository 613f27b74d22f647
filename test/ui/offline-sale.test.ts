// The retail sale again with the sandbox central stopped: the till identifies the customer
// from its cache, stands in (the receipt says offline, the outbox holds one sale), and when
// the sandbox is back on the same port and file, "Sync now" delivers the sale exactly once.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  addItem,
  calculated,
  confirmPayment,
  expectText,
  fastCentral,
  OwnCentral,
  identify,
  onTill,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';
import type { Page } from 'playwright-core';

/**
 * Presses "Sync now" until the status bar shows an empty outbox (a backoff may hold the first
 * press back; the status reaches the page by its event or its poll).
 */
async function syncUntilEmpty(page: Page): Promise<void> {
  let seen = '';
  for (let press = 0; press < 3; press++) {
    await page.locator('[data-testid="nav-sync-now"]:not([disabled])').click();
    const deadline = Date.now() + 7_000;
    while (Date.now() < deadline) {
      seen = ((await page.getByTestId('status-outbox').textContent()) ?? '').trim();
      if (seen === 'To send: 0') return;
      await page.waitForTimeout(100);
    }
  }
  throw new Error(`the outbox did not empty after three presses of Sync now: ${seen}`);
}

describe('the cashier screen: a sale while the central service is down', () => {
  it(
    'stands in offline and is synced exactly once when the sandbox returns',
    async () => {
      const central = await OwnCentral.start();
      try {
        await onTill('offline-sale', { central: fastCentral(central.url) }, async ({ page }) => {
          await signInToSale(page, DEMO.authCodes.cashier);
          // The first pull (started with the agent) has filled the cache: customers and rules.
          await expectText(page.getByTestId('status-cache-age'), /\d/);
          await expectText(page.getByTestId('status-connection'), 'Online');

          await central.stop();

          await identify(page, DEMO.cards.anna);
          await page.getByTestId('customer-source').waitFor();
          await expectText(page.getByTestId('customer-bonuses-available'), '135.50');
          await addItem(page, { code: 'COF-1', price: '2.50', quantity: '2' });
          await addItem(page, { code: 'SNK-1', price: '4.99', quantity: '1' });
          await page.getByTestId('bonuses').fill('2');
          await page.getByTestId('bonuses-apply').click();
          await calculated(page);
          await expectText(page.getByTestId('totals-discount'), '0.50');
          await expectText(page.getByTestId('totals-bonuses-redeemed'), '2.00');
          await expectText(page.getByTestId('totals-bonuses-added'), '0.44');
          await expectText(page.getByTestId('totals-to-pay'), '7.49');

          await toPayment(page);
          await confirmPayment(page);
          await expectText(page.getByTestId('receipt-subtype'), /offline/i);
          await expectText(page.getByTestId('receipt-total-bonuses-redeemed'), '2.00');
          await expectText(page.getByTestId('receipt-total-to-pay'), '7.49');
          await expectText(page.getByTestId('receipt-sync'), 'waiting to be sent');
          const id = (
            (await page.getByTestId('receipt-transaction-id').textContent()) ?? ''
          ).trim();
          await expectText(page.getByTestId('status-outbox'), 'To send: 1');
          expect(await page.getByTestId('status-connection').getAttribute('data-state')).toBe(
            'offline',
          );
          await expectText(page.getByTestId('offline-queued'), 'Waiting to be sent: 1');
          await expectText(page.getByTestId('offline-since'), /^OFFLINE since /);
          // 2 bonuses spent offline come off the terminal's 1,000.00 allowance
          await expectText(
            page.getByTestId('offline-allowance'),
            /may still spend 99\d\.\d\d of 1,000\.00 offline, until /,
          );
          await screenshot(page, 'offline-sale-stored');

          await central.restart();
          await syncUntilEmpty(page);
          await expectText(page.getByTestId('status-connection'), 'Online');
          await expect(page.getByTestId('offline-banner').count()).resolves.toBe(0);
          await screenshot(page, 'offline-sale');

          const got = await central.sandbox<{
            transactions: Array<{ transaction_id: string; subtype: string }>;
          }>('transactions');
          const mine = got.transactions.filter((t) => t.transaction_id === id);
          expect(mine).toHaveLength(1);
          expect(mine[0]!.subtype).toBe('offline');
        });
      } finally {
        await central.close();
      }
    },
    TEST_MS,
  );
});
