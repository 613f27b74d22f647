// The customer display: a second page of the same browser (the till's session) that follows
// the cashier's check live, and after the sale thanks the customer, shows the change and a
// QR of the coupon the sale emitted (the demo's rule: fill 40 EUR, get a free coffee coupon);
// it goes on following through a change of cashier (its display pass outlives the sign-out).
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  TEST_MS,
  addItem,
  confirmPayment,
  expectText,
  identify,
  onTill,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';

describe('the customer display', () => {
  it(
    "follows the cashier's check live and shows the emitted coupon's QR after the sale",
    async () => {
      await onTill('customer-display', {}, async ({ page, browser, agent }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        const display = await browser.context.newPage();
        const problems: string[] = [];
        display.on('pageerror', (e) => problems.push(e.message));
        await display.setViewportSize({ width: 1024, height: 768 });
        await display.goto(new URL('/display.html', page.url()).href);
        await expect
          .poll(() => display.getByTestId('display').getAttribute('data-state'))
          .toBe('idle');

        await identify(page, DEMO.cards.anna);
        await addItem(page, {
          kind: 'fuel-quantity',
          code: 'DIESEL',
          price: '1.659',
          quantity: '30',
        });
        await expectText(display.getByTestId('display-line-0'), /Diesel/i);
        await expectText(display.getByTestId('display-to-pay'), '48.27');
        await screenshot(display, 'customer-display-open');

        await toPayment(page);
        await page.getByTestId('payment-cash-given').fill('50');
        await confirmPayment(page);
        await expectText(display.getByTestId('display-thanks'), 'Thank you!');
        await expectText(display.getByTestId('display-change'), 'Your change: 1.73');
        const code = (await display.getByTestId('display-coupon-0-code').textContent())?.trim();
        expect(code).toMatch(/\S{4,}/);
        expect(await display.getByTestId('display-coupon-0-qr').getAttribute('data-text')).toBe(
          code,
        );
        await screenshot(display, 'customer-display-paid');

        // a change of cashier: the display keeps following, on its own pass
        await page.getByTestId('nav-sign-out').click();
        await page.getByTestId('screen-session').waitFor();
        await page.goto(agent.mintOpenUrl());
        await signInToSale(page, DEMO.authCodes.senior);
        await addItem(page, { kind: 'goods', code: 'COF-1' });
        await expectText(display.getByTestId('display-line-0'), /Coffee/i);
        expect(problems).toEqual([]);
      });
    },
    TEST_MS,
  );
});
