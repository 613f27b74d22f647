// Words a cashier understands, from the keyboard (issue 15, point 7), on the screens of a
// shift: a refusal puts the focus in the field that needs fixing, and Esc leaves the field the
// focus is in. On the sale, which has nothing to go back to, Esc only leaves the field: the
// arrows then move through the lines again. Elsewhere it leaves the field and goes back.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  calculated,
  expectText,
  itemAdded,
  noError,
  onTill,
  paymentReady,
  signIn,
} from './helpers.js';

/** The test id of the element that has the focus ('' for none, the page itself). */
async function focused(page: Page): Promise<string> {
  const el = page.locator(':focus');
  return (await el.count()) > 0 ? ((await el.getAttribute('data-testid')) ?? '') : '';
}

/** A refusal said at the field, with the focus in it (the field is `testid`). */
async function refusedAt(page: Page, testid: string, words: RegExp): Promise<void> {
  await expectText(page.getByTestId(`${testid}-error`), words);
  await expect.poll(() => focused(page), { timeout: 5_000 }).toBe(testid);
}

/** Esc in the field: the focus leaves it. */
async function escLeaves(page: Page, testid: string): Promise<void> {
  await page.getByTestId(testid).focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => focused(page), { timeout: 5_000 }).not.toBe(testid);
}

describe('the cashier screen: fields from the keyboard', () => {
  it(
    'puts the focus in the field a refusal names, and Esc leaves the field, on every screen of a shift',
    async () => {
      await onTill('keyboard-fields', {}, async ({ page }) => {
        // sign-in: no code
        await page.getByTestId('sign-in-code').press('Enter');
        await refusedAt(page, 'sign-in-code', /Required/);
        await escLeaves(page, 'sign-in-code');
        await expect(page.getByTestId('screen-sign-in').isVisible()).resolves.toBe(true);

        // the shift: no float counted
        await signIn(page, DEMO.authCodes.manager);
        await page.getByTestId('screen-shift-open').waitFor();
        await page.getByTestId('shift-opening-cash').press('Enter');
        await refusedAt(page, 'shift-opening-cash', /Count the cash/);
        await escLeaves(page, 'shift-opening-cash');
        await page.getByTestId('shift-opening-cash').fill('100');
        await page.getByTestId('shift-opening-cash').press('Enter');
        await page.getByTestId('screen-sale').waitFor();
        await noError(page);

        // the sale: a card number too short, a coupon without its code, a quantity in words
        await page.getByTestId('customer-id').fill('ab');
        await page.getByTestId('customer-id').press('Enter');
        await refusedAt(page, 'customer-id', /At least 3/);
        await page.getByTestId('customer-id').fill('');
        await page.keyboard.press('F6');
        await page.keyboard.press('Enter');
        await refusedAt(page, 'coupon-code', /Required/);
        await page.getByTestId('item-quantity').fill('two');
        await page.getByTestId('item-code').fill('WTR-1');
        await page.getByTestId('item-code').press('Enter');
        await refusedAt(page, 'item-quantity', /Type a number/);
        await page.getByTestId('item-quantity').fill('1');
        await page.getByTestId('item-code').press('Enter');
        await itemAdded(page);
        await page.getByTestId('item-code').fill('SNK-1');
        await page.getByTestId('item-code').press('Enter');
        await itemAdded(page);

        // Esc in the code field leaves it, still on the sale; ↑ then moves to the first line
        await escLeaves(page, 'item-code');
        expect(await focused(page)).toBe('');
        await expect(page.getByTestId('screen-sale').isVisible()).resolves.toBe(true);
        await expect(page.getByTestId('line-1').getAttribute('aria-selected')).resolves.toBe(
          'true',
        );
        await page.keyboard.press('ArrowUp');
        await expect
          .poll(() => page.getByTestId('line-0').getAttribute('aria-selected'))
          .toBe('true');

        // the payment: a part in words, then cash given in words; Esc leaves for the sale
        await calculated(page);
        await page.keyboard.press('F8');
        await page.getByTestId('screen-payment').waitFor();
        await paymentReady(page);
        await page.getByTestId('payment-tender-amount').fill('some');
        await page.getByTestId('payment-tender-add').click();
        await refusedAt(page, 'payment-tender-amount', /Type a number/);
        await page.getByTestId('payment-tender-amount').fill('');
        await page.getByTestId('payment-cash-given').fill('a lot');
        await page.keyboard.press('F8');
        await refusedAt(page, 'payment-cash-given', /Type a number/);
        await escLeaves(page, 'payment-cash-given');
        await page.getByTestId('screen-sale').waitFor();

        // the refund: an id that is none; Esc leaves it (and the screen, for the sale)
        await page.keyboard.press('Alt+2');
        await page.getByTestId('screen-refund').waitFor();
        await page.getByTestId('refund-transaction-id').fill('yesterday');
        await page.getByTestId('refund-transaction-id').press('Enter');
        await refusedAt(page, 'refund-transaction-id', /transaction id looks like/);
        await escLeaves(page, 'refund-transaction-id');

        // the close: the cash counted in words
        await page.keyboard.press('Alt+4');
        await page.getByTestId('screen-report').waitFor();
        await page.getByTestId('report-counted-cash').fill('plenty');
        await page.getByTestId('report-counted-cash').press('Enter');
        await refusedAt(page, 'report-counted-cash', /Type a number/);
        await escLeaves(page, 'report-counted-cash');
        await noError(page);
      });
    },
    TEST_MS,
  );
});
