// Cash on the cashier's screen: a cashier opens the shift with a counted float and pays in
// change from the bank; paying out is refused in words (a senior cashier's or a manager's),
// with the focus back in the form; a manager pays out, reads the X report, and closes the
// shift with the cash counted: the Z report says how much is short.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  expectText,
  noError,
  onTill,
  screenshot,
  signIn,
  signInToSale,
} from './helpers.js';

const focused = (page: Page) => page.locator(':focus').getAttribute('data-testid');

async function move(page: Page, kind: 'paid-in' | 'paid-out', amount: string, reason: string) {
  await page.getByTestId('cash-kind').selectOption(kind);
  await page.getByTestId('cash-amount').fill(amount);
  await page.getByTestId('cash-reason').fill(reason);
  await page.getByTestId('cash-reason').press('Enter');
  await page.getByTestId('message').waitFor();
}

describe('the cashier screen: cash', () => {
  it(
    'pays in, refuses a cashier’s paid-out in words, takes a manager’s, and closes short',
    async () => {
      await onTill('cash', {}, async ({ page, agent }) => {
        // the float is counted: opening without it is refused at the field
        await signIn(page, DEMO.authCodes.cashier);
        await page.getByTestId('screen-shift-open').waitFor();
        await page.getByTestId('shift-open-submit').click();
        await expectText(page.getByTestId('shift-opening-cash-error'), /Count the cash/);
        await expect.poll(() => focused(page)).toBe('shift-opening-cash');
        await page.getByTestId('shift-opening-cash').fill('100');
        await page.getByTestId('shift-open-submit').click();
        await page.getByTestId('screen-sale').waitFor();
        await noError(page);

        await page.keyboard.press('Alt+7');
        await page.getByTestId('screen-cash').waitFor();
        await expectText(page.getByTestId('report-close-role'), /A manager/);
        await expectText(page.getByTestId('report-opening-cash'), '100.00');

        // a reason is required, said at the field
        await page.getByTestId('cash-amount').fill('20');
        await page.getByTestId('cash-submit').click();
        await expectText(page.getByTestId('cash-reason-error'), /Say why/);
        await expect.poll(() => focused(page)).toBe('cash-reason');

        await move(page, 'paid-in', '20', 'change from the bank');
        await noError(page);
        await expectText(page.getByTestId('message-text'), /Paid in 20\.00: change from the bank/);
        await expectText(page.getByTestId('report-expected-cash'), '120.00');
        await expectText(
          page.getByTestId('cash-movement-0'),
          /Paid in 20\.00 · change from the bank/,
        );

        // the drawer on request: opened through the printer, kept with the cashier's name
        await page.getByTestId('cash-drawer-open').click();
        await expectText(page.getByTestId('message-text'), /The drawer is open/);

        await move(page, 'paid-out', '10', 'window cleaner');
        await expectText(
          page.locator('[data-testid="message"][data-kind="error"] [data-testid="message-text"]'),
          /Your role does not allow this; ask a senior cashier or manager/,
        );
        await expect.poll(() => focused(page)).toBe('cash-amount');
        await screenshot(page, 'cash-paid-out-refused');

        // a sign-out ends the browser's session too: the manager opens a new one
        await page.getByTestId('nav-sign-out').click();
        await page.getByTestId('screen-session').waitFor();
        await page.goto(agent.mintOpenUrl());
        await page.getByTestId('screen-sign-in').waitFor();
        await signInToSale(page, DEMO.authCodes.manager);
        await page.getByTestId('nav-cash').click();
        await page.getByTestId('screen-cash').waitFor();
        await move(page, 'paid-out', '10', 'window cleaner');
        await noError(page);
        await expectText(page.getByTestId('cash-movement-1'), /Paid out 10\.00 · window cleaner/);

        // the X report
        await page.getByTestId('report-refresh').click();
        await expectText(page.getByTestId('report-expected-cash'), '110.00');
        await screenshot(page, 'cash-x-report');

        // close with the cash counted: 2.00 short, the Z report stays on screen
        await page.getByTestId('report-counted-cash').fill('108');
        await page.getByTestId('report-close-shift').click();
        await page.getByTestId('report-over-short').waitFor();
        await noError(page);
        await expectText(page.getByTestId('report-counted'), '108.00');
        await expectText(page.getByTestId('report-over-short'), '2.00 short');
        await expectText(page.getByTestId('report-closed-at'), /\d\d:\d\d/);
        await screenshot(page, 'cash-z-report');
      });
    },
    TEST_MS,
  );
});
