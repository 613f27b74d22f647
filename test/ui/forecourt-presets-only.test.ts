// A fuel prepay at a till that sells catalogue figures only (docs/forecourt.md, "A prepay's
// fuel is picked"), at 1024x768 over the embedded default's simulated DART pumps. The station's
// POS is `presets-only` and sells Super 95 at 1.759 (set on the test's own sandbox central
// before the till starts). The cashier prepays pump 1 from its grade button: the form asks for
// the amount alone, 20 and Enter put 20.00 on the check, cash pays it, the pump runs to its
// preset (11.37 l) and Sell completes it. Each step leaves test-results/forecourt-presets-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  calculated,
  expectText,
  fastCentral,
  noError,
  OwnCentral,
  onTill,
  pressEnterOn,
  screenshot,
  typeInto,
  openShift,
} from './helpers.js';
import { prepayPaidAndCompleted, tileState, toForecourt } from './forecourt-steps.js';

const SALE_MS = 120_000;

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `forecourt-presets-${name}`);
}

describe('the cashier screen: a fuel prepay at a presets-only till', () => {
  it(
    'takes the prepay from the grade button and the amount alone, and completes it from the fill',
    async () => {
      const central = await OwnCentral.start();
      central.setPrice('FUEL-95', 1.759);
      central.setEnterMode('presets-only');
      try {
        await onTill(
          'forecourt-presets',
          { central: fastCentral(central.url) },
          async ({ page }) => {
            await page.setViewportSize({ width: 1024, height: 768 });
            await openShift(page);
            await toForecourt(page);
            await tileState(page, 1, 'idle');
            await pressEnterOn(page, 'pump-1-prepay-sale');
            await page.getByTestId('screen-sale').waitFor();
            await calculated(page); // the POS's enter mode is known from the check's calculation
            await expectText(page.getByTestId('sale-prepay-grade-0'), 'Super 95 1.759');
            await pressEnterOn(page, 'sale-prepay-grade-0');
            await page.getByTestId('item-amount').waitFor();
            // nothing typed by hand here: no price, no kind of line
            expect(await page.getByTestId('item-price').count()).toBe(0);
            expect(await page.getByTestId('item-kind').count()).toBe(0);
            await typeInto(page, 'item-amount', '20');
            await page.keyboard.press('Enter');
            await page.getByTestId('line-0').waitFor();
            await calculated(page);
            await noError(page);
            await expectText(page.getByTestId('totals-to-pay'), '20.00');
            // the form is back to goods: a quantity, no amount
            await page.getByTestId('item-quantity').waitFor();
            await shot(page, '1-prepay-line');
            await prepayPaidAndCompleted(page, (name) => shot(page, `2-${name}`));
          },
        );
      } finally {
        await central.close();
      }
    },
    SALE_MS,
  );
});
