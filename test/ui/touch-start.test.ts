// A touch till starts without a keyboard: the staff code and the opening float are typed on
// the number pad, which types into the field that has the focus.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO } from '../../src/central/index.js';
import { TEST_MS, expectText, noError, onTill } from './helpers.js';

async function tap(page: Page, keys: string): Promise<void> {
  for (const k of keys) await page.getByTestId(k === '.' ? 'keypad-sep' : `keypad-${k}`).click();
}

describe('the cashier screen: a touch start', () => {
  it(
    'signs in and opens the shift with the float on the number pad alone',
    async () => {
      await onTill('touch-start', {}, async ({ page }) => {
        await page.getByTestId('screen-sign-in').waitFor();
        await tap(page, DEMO.authCodes.cashier);
        await page.getByTestId('sign-in-submit').click();
        await page.getByTestId('screen-shift-open').waitFor();
        await tap(page, '150.5');
        expect(await page.getByTestId('shift-opening-cash').inputValue()).toBe('150.5');
        await page.getByTestId('shift-open-submit').click();
        await page.getByTestId('screen-sale').waitFor();
        await noError(page);
        await page.keyboard.press('Alt+7');
        await expectText(page.getByTestId('report-opening-cash'), '150.50');
      });
    },
    TEST_MS,
  );
});
