// A whole shift at a 1024x768 till, from the keyboard and a scanner only, never typing a price
// (issue 15): the manager opens with a counted float; twenty sales mix shop goods scanned and
// found by name, coffee by quick key, cheese by its in-store weight label, a loyalty customer
// earning and spending bonuses, a coupon, a fleet payment, a card payment and a split tender;
// then a paid-out, a refund and a reprint found in the recent sales, the X report, and the
// close with the cash counted, whose Z report must add up to what was sold. Every screen
// leaves test-results/whole-shift-NN-*.png.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { PtyPair } from '../devices/support/pty.js';
import {
  OwnCentral,
  confirm,
  openShift,
  calculated,
  chooseByKeys,
  expectText,
  fastCentral,
  noError,
  onTill,
  paymentReady,
  pressEnterOn,
  screenshot,
  typeInto,
} from './helpers.js';

const SHIFT_MS = 180_000;

const QUICK_KEYS = [
  { category: 'Coffee', codes: ['COF-1', 'COF-2'] },
  { category: 'Shop', codes: ['WTR-1', 'SNK-1'] },
];

/** An in-store weight label (prefix 21) for Bergkäse (item 00042), `grams` net. */
function weightLabel(grams: number): string {
  const body = `2100042${String(grams).padStart(5, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** Cents, so the test's own sums never touch a binary float. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
const money = (c: number) => (c / 100).toFixed(2);

let pty: PtyPair;
let central: OwnCentral;
beforeEach(async () => {
  pty = await PtyPair.open();
  central = await OwnCentral.start();
});
afterEach(async () => {
  await pty.close();
  await central.close();
});

/** The till's shift, as it goes: what each sale took, and the screens seen. */
class Shift {
  cash = 0;
  card = 0;
  fleet = 0;
  sales = 0;
  sold = 0;
  shots = 0;
  lines = 0;
  due = '';
  earned = 0;
  readonly page: Page;
  readonly scanPath: string;
  constructor(page: Page, scanPath: string) {
    this.page = page;
    this.scanPath = scanPath;
  }

  async shot(name: string): Promise<void> {
    this.shots += 1;
    await screenshot(this.page, `whole-shift-${String(this.shots).padStart(2, '0')}-${name}`);
  }

  /** A scan as the scanner sends it: the code and CR on its serial line. */
  scan(code: string): void {
    const fd = openSync(this.scanPath, 'w');
    try {
      writeSync(fd, Buffer.from(`${code}\r`, 'ascii'));
    } finally {
      closeSync(fd);
    }
  }

  /** Waits for the sale's next line (a scan, a key, a pick) and its calculation. */
  async lineAdded(): Promise<void> {
    await this.page.getByTestId(`line-${this.lines}`).waitFor();
    this.lines += 1;
    await calculated(this.page);
    await noError(this.page);
  }

  async scanGood(code: string): Promise<void> {
    this.scan(code);
    await this.lineAdded();
  }

  /** F3, the code or the words, Enter; words list the goods and Enter takes the first. */
  async byCode(text: string, quantity = '1'): Promise<void> {
    const page = this.page;
    await page.keyboard.press('F3');
    await typeInto(page, 'item-quantity', quantity);
    await page.keyboard.press('F3');
    await typeInto(page, 'item-code', text);
    await page.keyboard.press('Enter');
  }

  async byName(words: string, quantity = '1'): Promise<void> {
    await this.byCode(words, quantity);
    await this.page.getByTestId('goods-result-0').waitFor();
    await this.page.keyboard.press('Enter');
    await this.lineAdded();
  }

  async quickKey(page: number, key: number): Promise<void> {
    await pressEnterOn(this.page, `quick-page-${page}`);
    await pressEnterOn(this.page, `quick-key-${key}`);
    await this.lineAdded();
  }

  async customer(card: string, name: string): Promise<void> {
    this.scan(card);
    await expectText(this.page.getByTestId('customer-name'), name);
    await calculated(this.page);
  }

  /** The amount to pay the sale must come to; `due` keeps it for the payment. */
  async toPay(want: string): Promise<void> {
    await calculated(this.page);
    const shown = this.page.getByTestId('totals-to-pay');
    if (process.env.LEARN) {
      this.due = ((await shown.textContent()) ?? '').trim();
      if (this.due !== want) console.log(`sale ${this.sales + 1}: ${this.due} (want ${want})`);
    } else {
      await expectText(shown, want);
      this.due = want;
    }
    await this.page.keyboard.press('F8');
    await this.page.getByTestId('screen-payment').waitFor();
    await paymentReady(this.page);
  }

  /** F8 on the payment screen; the receipt must show the sale's total. */
  async confirm(total = this.due): Promise<void> {
    const page = this.page;
    await confirm(page);
    await expectText(page.getByTestId('receipt-total-to-pay'), total);
    const earned = page.getByTestId('receipt-total-bonuses-added');
    if ((await earned.count()) > 0) this.earned += cents((await earned.textContent()) ?? '');
    this.sales += 1;
    this.sold += cents(total);
  }

  async newSale(): Promise<void> {
    await pressEnterOn(this.page, 'receipt-new-sale');
    await this.page.getByTestId('lines-empty').waitFor();
    this.lines = 0;
  }

  /** Cash: `given` typed (or the exact amount), the change checked on screen and receipt. */
  async payCash(given: string | null = null): Promise<void> {
    const page = this.page;
    const total = this.due;
    const change = given === null ? '0.00' : money(cents(given) - cents(total));
    if (given === null) await pressEnterOn(page, 'quick-cash-0');
    else await typeInto(page, 'payment-cash-given', given);
    await expectText(page.getByTestId('payment-change'), change);
    await this.confirm(total);
    if (given !== null) await expectText(page.getByTestId('receipt-change'), change);
    this.cash += cents(total);
  }

  async payCard(): Promise<void> {
    const total = this.due;
    await pressEnterOn(this.page, 'payment-method-bank-card');
    await this.confirm(total);
    await expectText(this.page.getByTestId('receipt-payments'), /purchase success .*\*{6}\d{4}/);
    this.card += cents(total);
  }
}

describe('a whole shift from the keyboard and the scanner', () => {
  it(
    'opens with a float, sells twenty times, pays out, refunds, reprints, and closes with a Z report that adds up',
    async () => {
      const config = {
        central: fastCentral(central.url),
        terminal: { quick_keys: QUICK_KEYS },
        devices: {
          scanner: { path: pty.a, timeouts: { reconnect_min_ms: 50, reconnect_max_ms: 200 } },
          card_reader: { simulated: true },
          payment: { simulated: true },
          printer: { simulated: true },
        },
      };
      await onTill('whole-shift', config, async ({ page }) => {
        const started = Date.now();
        await page.setViewportSize({ width: 1024, height: 768 });
        const s = new Shift(page, pty.b);
        await s.shot('sign-in');
        await openShift(page);
        await page
          .locator('[data-testid="status-device-scanner"][data-state="connected"]')
          .waitFor();
        await s.shot('sale-empty');

        // 1: water scanned, a sandwich found by name; the exact cash
        await s.scanGood('4260000000011');
        await s.byName('sandwich');
        await expectText(page.locator('[data-testid="line-1-title"] .title'), 'Sandwich');
        await s.shot('sale-1-lines');
        await s.toPay('6.48');
        await s.shot('payment-cash');
        await s.payCash();
        await s.shot('receipt-cash');
        await s.newSale();

        // 2: coffee and latte by quick key; a 10 note
        await s.quickKey(0, 0);
        await s.quickKey(0, 1);
        await s.toPay('5.13'); // 10% off coffee
        await s.payCash('10');
        await s.newSale();

        // 3: cheese by its weight label (456 g at 24.90/kg); a 20 note
        await s.scanGood(weightLabel(456));
        await expectText(page.getByTestId('line-0-quantity'), /0\.456/);
        await s.toPay('11.35');
        await s.payCash('20');
        await s.newSale();

        // 4: Anna earns bonuses on motor oil and two boxes of eggs, paid by card
        await s.customer(DEMO.cards.anna, 'Anna Gold');
        await expectText(page.getByTestId('customer-bonuses-available'), '135.50');
        await s.scanGood('036000291452');
        await s.byName('eggs', '2');
        await s.shot('sale-loyalty');
        await s.toPay('18.48');
        await s.payCard();
        await expectText(page.getByTestId('receipt-total-bonuses-added'), /[1-9]/);
        await s.shot('receipt-bonuses-earned');
        await s.newSale();

        // 5: Anna spends 5.00 of her bonuses (F4) on a sandwich and screen wash
        await s.customer(DEMO.cards.anna, 'Anna Gold');
        await s.scanGood('96385074');
        await s.scanGood('09501101530003');
        await page.keyboard.press('F4');
        await typeInto(page, 'bonuses', '5');
        await page.keyboard.press('Enter');
        await calculated(page);
        await noError(page);
        await s.shot('sale-bonuses-spent');
        await s.toPay('7.49');
        await s.payCash();
        await expectText(page.getByTestId('receipt-total-bonuses-redeemed'), '5.00');
        await s.newSale();

        // 6: Anna's free-coffee coupon (F6) on a coffee, with water found by name
        await s.customer(DEMO.cards.anna, 'Anna Gold');
        await s.quickKey(0, 0);
        await s.byName('water');
        await page.keyboard.press('F6');
        await typeInto(page, 'coupon-code', DEMO.coupons.coffee);
        await page.keyboard.press('Enter');
        await calculated(page);
        await expectText(page.getByTestId('coupon-0-state'), 'valid');
        await expectText(page.getByTestId('line-0-discount'), '2.50');
        await s.shot('sale-coupon');
        await s.toPay('1.49');
        await s.payCash();
        await s.newSale();

        // 7: Driver One's 30 l of diesel (the catalogue price) from the fleet account
        await s.customer(DEMO.cards.driver1, 'Driver One');
        await s.byCode('DIESEL', '30');
        await s.lineAdded();
        await expectText(page.getByTestId('line-0-quantity'), /30/);
        await s.toPay('48.87');
        await pressEnterOn(page, 'payment-method-corporate-special-account');
        await paymentReady(page);
        await typeInto(page, 'payment-odometer', '120900');
        await chooseByKeys(page, 'payment-odometer-unit', 'km');
        await typeInto(page, 'payment-vehicle-id', 'TRUCK-1');
        await typeInto(page, 'payment-pin', DEMO.pins.driver1);
        await s.shot('payment-fleet');
        await s.confirm();
        s.fleet += cents(s.due);
        await s.shot('receipt-fleet');
        await s.newSale();

        // 8: a latte scanned (10% off coffee) and motor oil by name, paid by card
        await s.scanGood('4260000000035');
        await s.byName('motor oil');
        await s.toPay('15.78');
        await s.payCard();
        await s.shot('receipt-card');
        await s.newSale();

        // 9: two sandwiches and screen wash: 10.00 in cash, the rest by card
        await s.byName('sandwich', '2');
        await s.scanGood('09501101530003');
        await s.toPay('17.48');
        await chooseByKeys(page, 'payment-tender-type', 'cash');
        await typeInto(page, 'payment-tender-amount', '10');
        await pressEnterOn(page, 'payment-tender-add');
        const rest = money(cents(s.due) - 1000);
        await expectText(page.getByTestId('payment-remaining'), rest);
        await chooseByKeys(page, 'payment-tender-type', 'bank-card');
        await typeInto(page, 'payment-tender-amount', rest);
        await pressEnterOn(page, 'payment-tender-add');
        await expectText(page.getByTestId('payment-remaining'), '0.00');
        await s.shot('payment-split');
        await s.confirm();
        s.cash += 1000;
        s.card += cents(rest);
        await s.shot('receipt-split');
        await s.newSale();

        // 10–20: the shop's run of small sales, scanned, keyed and found, in cash
        const run: Array<[() => Promise<void>, string]> = [
          [() => s.scanGood('4260000000011'), '1.49'],
          [() => s.quickKey(0, 0), '2.25'],
          [() => s.scanGood(weightLabel(1234)), '30.73'],
          [() => s.byName('latte'), '2.88'],
          [() => s.quickKey(1, 1), '4.99'],
          [() => s.scanGood('4260000000042'), '2.79'],
          [() => s.byName('screen wash'), '7.50'],
          [() => s.quickKey(1, 0), '1.49'],
          [() => s.scanGood('4260000000028'), '2.25'],
          [() => s.byName('sandwich'), '4.99'],
          [() => s.scanGood('036000291452'), '12.90'],
        ];
        for (const [add, total] of run) {
          await add();
          await s.toPay(total);
          await s.payCash();
          await s.newSale();
        }
        expect(s.sales).toBe(20);

        // a paid-out from the drawer (Alt+7), with its reason
        await page.keyboard.press('Alt+7');
        await page.getByTestId('screen-cash').waitFor();
        await chooseByKeys(page, 'cash-kind', 'paid-out');
        await typeInto(page, 'cash-amount', '12.50');
        await typeInto(page, 'cash-reason', 'window cleaner');
        await page.keyboard.press('Enter');
        await expectText(page.getByTestId('cash-movement-0'), /Paid out 12\.50 · window cleaner/);
        await noError(page);
        await s.shot('cash-paid-out');

        // the first sale found by its amount in the recent sales (Alt+6): reprinted, and its
        // water refunded
        await page.keyboard.press('Alt+6');
        await page.getByTestId('screen-recent').waitFor();
        await typeInto(page, 'recent-search', '6.48');
        await page.keyboard.press('Enter');
        await expect
          .poll(() => page.locator('[data-testid^="recent-sale-"][data-testid$="-amount"]').count())
          .toBe(1);
        await s.shot('recent-sales');
        await pressEnterOn(page, 'recent-sale-0-open');
        await page.getByTestId('recent-detail').waitFor();
        await pressEnterOn(page, 'recent-reprint');
        await page.getByTestId('recent-copy').waitFor();
        await noError(page);
        await expectText(page.getByTestId('receipt-paper'), /COPY/);
        await s.shot('recent-reprint');
        await pressEnterOn(page, 'recent-refund');
        await page.getByTestId('refund-sale').waitFor();
        await typeInto(page, 'refund-qty-0', '1');
        await typeInto(page, 'refund-comment', 'the bottle leaked');
        await pressEnterOn(page, 'refund-submit');
        await page.getByTestId('refund-result').waitFor();
        await noError(page);
        await expectText(page.getByTestId('refund-give-back-0'), 'Give back 1.49 in cash.');
        await s.shot('refund');

        // the X report (Alt+4): the drawer holds the float, the cash taken, less what left it
        const expected = 15000 + s.cash - 1250 - 149;
        await page.keyboard.press('Alt+4');
        await page.getByTestId('screen-report').waitFor();
        await pressEnterOn(page, 'report-refresh');
        await expectText(page.getByTestId('report-expected-cash'), money(expected));
        await expectText(page.getByTestId('report-sales'), `20 · ${money(s.sold)}`);
        await s.shot('x-report');

        // closed with the cash counted 0.50 short: the Z report says so and adds up
        await typeInto(page, 'report-counted-cash', money(expected - 50));
        await pressEnterOn(page, 'report-close-shift');
        await page.getByTestId('report-over-short').waitFor();
        await noError(page);
        await expectText(page.getByTestId('report-closed-at'), /\d\d:\d\d/);
        await expectText(page.getByTestId('report-opening-cash'), '150.00');
        await expectText(page.getByTestId('report-sales'), `20 · ${money(s.sold)}`);
        await expectText(page.getByTestId('report-refunds'), '1 · 1.49');
        await expectText(page.getByTestId('report-expected-cash'), money(expected));
        await expectText(page.getByTestId('report-counted'), money(expected - 50));
        await expectText(page.getByTestId('report-over-short'), '0.50 short');
        // payments by kind: the cash net of the refund given back in cash
        await expectText(page.getByTestId('report-payment-cash'), `18 · ${money(s.cash - 149)}`);
        await expectText(page.getByTestId('report-payment-bank-card'), `3 · ${money(s.card)}`);
        await expectText(
          page.getByTestId('report-payment-corporate-special-account'),
          `1 · ${money(s.fleet)}`,
        );
        expect(s.earned).toBeGreaterThan(0);
        await expectText(page.getByTestId('report-bonuses-added'), money(s.earned));
        await expectText(page.getByTestId('report-bonuses-redeemed'), '5.00');
        await s.shot('z-report');
        console.log(
          `whole shift: ${s.sales} sales, ${s.shots} screens, ${Date.now() - started} ms`,
        );
      });
    },
    SHIFT_MS,
  );
});
