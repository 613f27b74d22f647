// A whole shift at 1024x768 from the keyboard and a simulated scanner, never typing a price
// (issue 15): the float counted at opening; twenty sales mixing shop goods by barcode and by
// name, coffee by quick key, a weighed good, a loyalty customer earning and spending, a coupon,
// a fleet payment, a card payment and a split tender; a paid-out; a reprint and a refund from
// the recent sales; the X report; the close with the cash counted and the Z report. The test
// keeps its own cash book from what each screen said, and the Z report must agree with it.
// A screenshot of each screen goes to test-results/.
import { closeSync, openSync, writeSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { PtyPair } from '../devices/support/pty.js';
import {
  calculated,
  expectText,
  itemAdded,
  noError,
  onTill,
  paymentReady,
  screenshot,
} from './helpers.js';

const FLOAT = 150;
const QUICK_KEYS = [{ category: 'Coffee', codes: ['COF-1', 'COF-2'] }];
const BARCODES = { water: '4260000000011', coffee: '4260000000028', cheese456g: '2100042004566' };

/** Cents of a figure as the screen shows it ("1,234.50" in English). */
const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/,/g, '')) * 100);

describe('the cashier screen: a whole shift', () => {
  let pty: PtyPair;
  beforeEach(async () => {
    pty = await PtyPair.open();
  });
  afterEach(async () => {
    await pty.close();
  });

  /** The scanner's cable: a code and CR, as a scanner in serial mode sends it. */
  function scan(code: string): void {
    const fd = openSync(pty.b, 'w');
    try {
      writeSync(fd, Buffer.from(`${code}\r`, 'ascii'));
    } finally {
      closeSync(fd);
    }
  }

  it('runs from the opening float to the Z report, and the drawer comes out exact', async () => {
    const config = {
      terminal: { quick_keys: QUICK_KEYS },
      devices: {
        scanner: { path: pty.a, timeouts: { reconnect_min_ms: 50, reconnect_max_ms: 200 } },
        // the rest of the demo's devices, simulated: the card terminal, the printer and its drawer
        card_reader: { simulated: true },
        payment: { simulated: true },
        printer: { simulated: true },
      },
    };
    await onTill('whole-shift', config, async ({ page }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      const shot = (name: string) => screenshot(page, `whole-shift-${name}`);
      const key = (k: string) => page.keyboard.press(k);
      const type = async (testid: string, text: string) => {
        await page.getByTestId(testid).focus();
        await page.getByTestId(testid).fill(text);
      };
      /** Cash taken in the drawer, by the test's own book (cents). */
      let drawer = FLOAT * 100;
      let sales = 0;

      // ---- sign in and open the shift with the float counted ----
      await page.getByTestId('screen-sign-in').waitFor();
      await shot('sign-in');
      await type('sign-in-code', DEMO.authCodes.manager);
      await key('Enter');
      await page.getByTestId('screen-shift-open').waitFor();
      await shot('shift-open');
      await type('shift-opening-cash', String(FLOAT));
      await key('Enter');
      await page.getByTestId('screen-sale').waitFor();
      await noError(page);
      await page.locator('[data-testid="status-device-scanner"][data-state="connected"]').waitFor();

      // ---- the ways goods come onto the check ----
      const enter = async (text: string, quantity = '1') => {
        await key('F3');
        await page.getByTestId('item-quantity').fill(quantity);
        await type('item-code', text);
        await key('Enter');
      };
      const byBarcode = async (barcode: string) => {
        const before = await page.locator('[data-testid^="line-"][aria-selected]').count();
        scan(barcode);
        await expect
          .poll(() => page.locator('[data-testid^="line-"][aria-selected]').count())
          .toBeGreaterThan(before);
        await calculated(page);
      };
      const byName = async (words: string) => {
        await enter(words);
        await page.getByTestId('goods-results').waitFor();
        await key('Enter');
        await itemAdded(page);
      };
      const byCode = async (code: string, quantity = '1') => {
        await enter(code, quantity);
        await itemAdded(page);
      };
      const identify = async (card: string) => {
        await key('F2');
        await page.getByTestId('customer-id').fill(card);
        await key('Enter');
        await page.getByTestId('customer-summary').waitFor();
        await noError(page);
      };

      // ---- paying: what is due read from the screen, the drawer's book kept ----
      const toPay = async () => {
        await calculated(page);
        return cents(await page.getByTestId('totals-to-pay').textContent());
      };
      const confirm = async () => {
        await key('F8');
        await page
          .getByTestId('screen-receipt')
          .or(page.locator('[data-testid="message"][data-kind="error"]'))
          .first()
          .waitFor({ timeout: 20_000 });
        await noError(page);
        sales++;
      };
      const nextSale = async () => {
        await page.getByTestId('receipt-new-sale').focus();
        await key('Enter');
        await page.getByTestId('screen-sale').waitFor();
      };
      /** Cash: handed over as typed (or the exact sum), the change said, the drawer's book. */
      const payCash = async (given?: string) => {
        const due = await toPay();
        await key('F8');
        await page.getByTestId('screen-payment').waitFor();
        await paymentReady(page);
        if (given) {
          await type('payment-cash-given', given);
          await expectText(
            page.getByTestId('payment-change'),
            ((cents(given) - due) / 100).toFixed(2),
          );
        } else await page.getByTestId('quick-cash-0').click();
        drawer += due;
        await confirm();
      };
      const payCard = async () => {
        await toPay();
        await key('F8');
        await page.getByTestId('screen-payment').waitFor();
        await page.getByTestId('payment-method-bank-card').click();
        await paymentReady(page);
        await confirm();
      };

      // 1: two goods scanned, exact cash
      await byBarcode(BARCODES.water);
      await byBarcode(BARCODES.coffee);
      await shot('sale-scanned');
      await payCash();
      await shot('receipt');
      await nextSale();
      // 2: a good found by its name, cash handed over and the change
      await byName('sandwich');
      await payCash('20');
      await nextSale();
      // 3: coffee by its quick key
      await page.getByTestId('quick-key-0').click();
      await calculated(page);
      await expectText(page.locator('[data-testid="line-0-title"] .title'), /Coffee/);
      await payCash();
      await nextSale();
      // 4: a weighed good by its label: 456 g of Bergkäse
      await byBarcode(BARCODES.cheese456g);
      await expectText(page.getByTestId('line-0-quantity'), /0\.456/);
      await payCash();
      await nextSale();
      // 5: a loyalty customer scanned by card earns bonuses
      scan(DEMO.cards.anna);
      await expectText(page.getByTestId('customer-name'), 'Anna Gold');
      await byCode('SNK-1');
      await expectText(page.getByTestId('totals-bonuses-added'), /\d\.\d\d/);
      await payCash();
      await nextSale();
      // 6: she spends bonuses (2.00 asked)
      await identify(DEMO.cards.anna);
      await byBarcode(BARCODES.coffee);
      await byCode('WTR-1');
      await key('F4');
      await page.getByTestId('bonuses').fill('2');
      await key('Enter');
      await calculated(page);
      // the rules cap what a check may take in bonuses: some of the 2.00 is granted
      await expectText(page.getByTestId('totals-bonuses-redeemed'), /^(?!0\.00)\d+\.\d\d$/);
      await shot('sale-bonuses');
      await payCash();
      await nextSale();
      // 7: her free-coffee coupon
      await identify(DEMO.cards.anna);
      await byCode('COF-1');
      await byCode('WTR-1');
      await key('F6');
      await page.getByTestId('coupon-code').fill(DEMO.coupons.coffee);
      await key('Enter');
      await calculated(page);
      await expectText(page.getByTestId('totals-discount'), '2.50');
      await shot('sale-coupon');
      await payCash();
      await nextSale();
      // 8: a fleet driver fills 20 l from the fleet account: PIN, vehicle and odometer
      await identify(DEMO.cards.driver1);
      await byCode('DIESEL', '20');
      await toPay();
      await key('F8');
      await page.getByTestId('screen-payment').waitFor();
      await page.getByTestId('payment-method-corporate-special-account').click();
      await page.getByTestId('payment-pin').waitFor();
      await type('payment-odometer', '121000');
      await page.getByTestId('payment-odometer-unit').selectOption('km');
      await type('payment-vehicle-id', 'TRUCK-1');
      await type('payment-pin', DEMO.pins.driver1);
      await paymentReady(page);
      await shot('payment-fleet');
      await confirm();
      await nextSale();
      // 9: a card payment
      await byCode('OIL-1');
      await payCard();
      await shot('receipt-card');
      await nextSale();
      // 10: a split tender: 5.00 in cash, the rest by card
      await byCode('OIL-1');
      await byCode('SNK-1');
      const due = await toPay();
      await key('F8');
      await page.getByTestId('screen-payment').waitFor();
      await paymentReady(page);
      await page.getByTestId('payment-tender-type').selectOption('cash');
      await type('payment-tender-amount', '5');
      await page.getByTestId('payment-tender-add').click();
      await page.getByTestId('payment-tender-type').selectOption('bank-card');
      await expect
        .poll(() => page.getByTestId('payment-tender-amount').inputValue())
        .toBe(((due - 500) / 100).toFixed(2));
      await page.getByTestId('payment-tender-add').click();
      await expectText(page.getByTestId('payment-remaining'), '0.00');
      await type('payment-cash-given', '5');
      await shot('payment-split');
      drawer += 500;
      await confirm();
      await nextSale();
      // 11-20: the day's run of small sales, by barcode and by name
      for (let i = 0; i < 10; i++) {
        if (i % 2 === 0) await byBarcode(i % 4 === 0 ? BARCODES.water : BARCODES.coffee);
        else await byName(i % 3 === 0 ? 'latte' : 'water');
        await payCash();
        await nextSale();
      }
      expect(sales).toBe(20);

      // ---- a paid-out with its reason ----
      await key('Alt+7');
      await page.getByTestId('screen-cash').waitFor();
      await page.getByTestId('cash-kind').selectOption('paid-out');
      await type('cash-amount', '10');
      await type('cash-reason', 'window cleaner');
      await key('Enter');
      await expectText(page.getByTestId('message-text'), /Paid out 10\.00/);
      drawer -= 1000;
      await shot('cash');

      // ---- the recent sales: a reprint and a refund of one line ----
      await key('Alt+6');
      await page.getByTestId('screen-recent').waitFor();
      await page.getByTestId('recent-sale-1').waitFor();
      await shot('recent');
      await page.getByTestId('recent-sale-0-open').click();
      await page.getByTestId('recent-detail').waitFor();
      await page.getByTestId('recent-reprint').click();
      await expectText(page.getByTestId('receipt-paper'), /COPY/);
      await shot('recent-copy');
      await page.getByTestId('recent-refund').click();
      await page.getByTestId('refund-sale').waitFor();
      await type('refund-qty-0', '1');
      await type('refund-comment', 'spilt');
      await page.getByTestId('refund-submit').click();
      await page.getByTestId('refund-result').waitFor();
      await noError(page);
      const back = await page.getByTestId('refund-give-back-0').textContent();
      const refunded = /Give back ([\d.,]+) in cash/.exec(back ?? '');
      expect(refunded, `the refund said: ${back}`).not.toBeNull();
      drawer -= cents(refunded![1]!);
      await shot('refund');

      // ---- the X report, then the close with the cash counted: exact ----
      await key('Alt+4');
      await page.getByTestId('screen-report').waitFor();
      await page.getByTestId('report-print-x').click();
      await expectText(page.getByTestId('message-text'), /printed and kept/);
      await expectText(page.getByTestId('report-sales'), /^20 · /);
      await expectText(page.getByTestId('report-expected-cash'), (drawer / 100).toFixed(2));
      await shot('x-report');
      await type('report-counted-cash', (drawer / 100).toFixed(2));
      await key('Enter');
      await expectText(page.getByTestId('report-over-short'), 'exact');
      await expectText(page.getByTestId('report-closed-at'), /\d\d:\d\d/);
      await noError(page);
      await shot('z-report');
    });
  }, 300_000);
});
