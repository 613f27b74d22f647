// Selling fuel at the forecourt (issue 16, "Done when": the browser test), at 1024x768 over the
// embedded default: four simulated DART pumps driven by the real master, nozzle 1 FUEL-95,
// 2 DIESEL, 3 FUEL-98, each told the catalogue's prices. The station sells Super 95 at 1.759
// today (set on the test's own sandbox central before the till starts; DIESEL 1.659), so a
// prepay of 20.00 runs to 11.37 l, the figures. The
// driver at the pump is `simulator-pump` over the agent's HTTP (docs/forecourt.md, "A person at
// a simulated pump"). A cash prepay of 20.00 on pump 1 authorises it and runs to its preset,
// and Sell completes it with no change; a postpay on pump 2 paid from a fleet account with
// vehicle and odometer; a drive-off on pump 3; a delivery and the wet stock on the tanks
// screen. Each step leaves test-results/forecourt-sale-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  calculated,
  chooseByKeys,
  confirm,
  expectText,
  fastCentral,
  noError,
  OwnCentral,
  onTill,
  paymentReady,
  pressEnterOn,
  screenshot,
  typeInto,
  openShift,
} from './helpers.js';
import { fill, prepayPaidAndCompleted, tileState, toForecourt } from './forecourt-steps.js';

const SALE_MS = 180_000;

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `forecourt-sale-${name}`);
}

describe('the cashier screen: selling fuel at the forecourt', () => {
  it(
    'prepays pump 1, sells a fleet postpay on pump 2, records a drive-off on pump 3, and counts a delivery in the wet stock',
    async () => {
      const central = await OwnCentral.start();
      central.setPrice('FUEL-95', 1.759);
      try {
        await onTill('forecourt-sale', { central: fastCentral(central.url) }, async ({ page }) => {
          const started = Date.now();
          await page.setViewportSize({ width: 1024, height: 768 });

          // 1. signed in, the shift opened with its float counted
          await openShift(page);
          await shot(page, '1-shift-open');

          // 2. a cash prepay of 20.00 on pump 1
          await toForecourt(page);
          await tileState(page, 1, 'idle');
          await pressEnterOn(page, 'pump-1-prepay-sale');
          await page.getByTestId('screen-sale').waitFor();
          await expectText(page.getByTestId('sale-prepay-for'), /pump 1/i);
          // the pump's fuels at their prices: Super 95 fills the fuel line's form (kind, code,
          // price), the cashier types the amount
          await expectText(page.getByTestId('sale-prepay-grade-0'), 'Super 95 1.759');
          await pressEnterOn(page, 'sale-prepay-grade-0');
          await expect.poll(() => page.getByTestId('item-price').inputValue()).toBe('1.759');
          await typeInto(page, 'item-amount', '20');
          await page.keyboard.press('Enter');
          await page.getByTestId('line-0').waitFor();
          await calculated(page);
          await noError(page);
          await expectText(page.getByTestId('totals-to-pay'), '20.00');
          await shot(page, '2-prepay-line');
          await prepayPaidAndCompleted(page, (name) => shot(page, `2-prepay-${name}`));

          // 3. a postpay on pump 2 for Driver One, paid from the fleet account
          await chooseByKeys(page, 'customer-id-type', 'card');
          await typeInto(page, 'customer-id', DEMO.cards.driver1);
          await page.keyboard.press('Enter');
          await expectText(page.getByTestId('customer-name'), 'Driver One');
          await toForecourt(page);
          await pressEnterOn(page, 'pump-2-release');
          await tileState(page, 2, 'authorised');
          await fill(page, 2, 2, 10, '10.00 l');
          await expectText(page.getByTestId('pump-2-fill-0'), /^DIESEL · 10\.00 l · 16\.59/);
          await shot(page, '3-postpay-filled');
          await pressEnterOn(page, 'pump-2-fill-0-sell');
          await page.getByTestId('fill-line-0').waitFor({ timeout: 10_000 });
          await calculated(page);
          await expectText(page.getByTestId('fill-line-0-quantity'), /^10(\.0+)?\b/);
          await expectText(page.getByTestId('fill-line-0-amount'), '16.59');
          await expectText(page.getByTestId('customer-name'), 'Driver One');
          await shot(page, '3-postpay-on-check');
          await page.keyboard.press('F8');
          await page.getByTestId('screen-payment').waitFor();
          await paymentReady(page);
          await pressEnterOn(page, 'payment-method-corporate-special-account');
          await paymentReady(page);
          await typeInto(page, 'payment-odometer', '121000');
          await chooseByKeys(page, 'payment-odometer-unit', 'km');
          await typeInto(page, 'payment-vehicle-id', 'TRUCK-1');
          await typeInto(page, 'payment-pin', DEMO.pins.driver1);
          await shot(page, '3-postpay-fleet');
          await confirm(page);
          // recorded online at the pump's figures, less the fleet's 3 cents a litre
          await expectText(page.getByTestId('receipt-subtype'), /online/i);
          await expectText(page.getByTestId('receipt-line-0'), /^Diesel10\.001\.659/);
          await expectText(page.getByTestId('receipt-total-discount'), '0.30');
          await expectText(page.getByTestId('receipt-total-to-pay'), '16.29');
          await expectText(
            page.getByTestId('receipt-paper'),
            /Fleet account\s+16\.29.*Vehicle TRUCK-1.*Odometer 121,000 km/,
          );
          await shot(page, '3-postpay-paid');
          await toForecourt(page);
          await tileState(page, 2, 'idle');

          // 4. a drive-off on pump 3
          await pressEnterOn(page, 'pump-3-release');
          await tileState(page, 3, 'authorised');
          await fill(page, 3, 1, 5, '5.00 l');
          await expectText(page.getByTestId('pump-3-fill-0'), /^FUEL-95 · 5\.00 l · 8\.80/);
          await pressEnterOn(page, 'pump-3-fill-0-drive-off');
          await expect.poll(() => page.getByTestId('pump-3-fill-0').count()).toBe(0);
          await expectText(page.getByTestId('message-text'), /Drive-off recorded at pump 3/);
          // the pump is cleared: the open tile goes idle
          await tileState(page, 3, 'idle');
          await shot(page, '4-drive-off');
          await page.keyboard.press('Alt+3');
          await page.getByTestId('screen-attention').waitFor();
          await expect
            .poll(async () => (await page.getByTestId('attention').textContent()) ?? '')
            .toMatch(/drive-off at pump 3: 5\.00 l of FUEL-95, 8\.80 unpaid/);
          await shot(page, '4-attention');

          // 5. the wet stock after a delivery, on the forecourt's tanks screen: the gauge's
          // tanks, a delivery of 1,000 l on the note that raised tank 1 by 995 l, the wet stock
          await toForecourt(page);
          await pressEnterOn(page, 'forecourt-tanks');
          await page.getByTestId('screen-tanks').waitFor();
          // the gauge is read now (its poller may not have read it yet this early in the shift)
          await pressEnterOn(page, 'tanks-gauge');
          await page.getByTestId('tank-reading-1').waitFor();
          await typeInto(page, 'delivery-note', '1000');
          await typeInto(page, 'delivery-before', '12345.5');
          await typeInto(page, 'delivery-after', '13340.5');
          await page.keyboard.press('Enter');
          await expectText(
            page.getByTestId('message-text'),
            'Delivery into tank 1: 995.00 l received, -5.00 l against the note.',
          );
          await expectText(page.getByTestId('wetstock-tank-1-deliveries'), '995.00');
          await noError(page);
          await shot(page, '5-wet-stock');
          console.log(`forecourt sale: ${Date.now() - started} ms`);
        });
      } finally {
        await central.close();
      }
    },
    SALE_MS,
  );
});
