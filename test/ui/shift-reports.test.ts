// Shift reports on the cashier's screen: a manager prints the X report during the shift (kept
// with it), closes with the cash counted (the Z report printed), then lists past shifts, opens
// the closed one's report and prints it again as a copy.
import { describe, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { TEST_MS, expectText, noError, onTill, screenshot, signInToSale } from './helpers.js';

describe('the cashier screen: shift reports', () => {
  it(
    'prints the X report, closes with the Z, and lists the past shift with a copy to print',
    async () => {
      await onTill('shift-reports', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.manager);
        await page.keyboard.press('Alt+4');
        await page.getByTestId('screen-report').waitFor();
        await page.getByTestId('report-print-x').click();
        await expectText(page.getByTestId('message-text'), /printed and kept with the shift/);
        await noError(page);

        await page.getByTestId('report-counted-cash').fill('100');
        await page.getByTestId('report-close-shift').click();
        await expectText(page.getByTestId('report-over-short'), 'exact');

        await page.getByTestId('report-past-load').click();
        await expectText(
          page.getByTestId('report-past-0'),
          /^Shift 1 · .* · Mia Manager · X reports: 1 · Z report printed/,
        );
        await page.getByTestId('report-past-0-open').click();
        await expectText(page.getByTestId('report-counted'), '100.00');
        await page.getByTestId('report-past-0-print').click();
        await expectText(page.getByTestId('message-text'), /printed and kept with the shift/);
        await noError(page);
        await screenshot(page, 'shift-reports-past');
      });
    },
    TEST_MS,
  );
});
