// Goods on the cashier's screen come from the POS catalogue (issue 15): a barcode or a code
// and Enter adds the good at the catalogue's title and price, words open a list to pick from,
// a quick key adds its good with one tap, a weight label carries its weight, a good sold in
// whole pieces refuses a fraction, and a scan from the scanner adds the good while a loyalty
// card scanned still identifies the customer. No price is ever typed.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { PtyPair } from '../devices/support/pty.js';
import {
  TEST_MS,
  calculated,
  expectText,
  itemAdded,
  onTill,
  screenshot,
  signInToSale,
  toPayment,
} from './helpers.js';

const QUICK_KEYS = [
  { category: 'Coffee', codes: ['COF-1', 'COF-2'] },
  { category: 'Shop', codes: ['WTR-1', 'SNK-1', 'NOT-LISTED'] },
];

/** The test id of the element that has the focus. */
function focused(page: Page): Promise<string | null> {
  // a script as text: the tests' tsconfig has no DOM types
  return page.evaluate<string | null>(
    "document.activeElement?.getAttribute('data-testid') ?? null",
  );
}

/** Types into the code field and presses Enter, as a cashier (or a keyboard wedge) does. */
async function enter(page: Page, text: string, quantity = '1'): Promise<void> {
  await page.getByTestId('item-quantity').fill(quantity);
  await page.getByTestId('item-code').fill(text);
  await page.getByTestId('item-code').press('Enter');
}

describe('the cashier screen: goods from the catalogue', () => {
  it(
    'adds a good by its barcode and another by its code, each at the catalogue title and price',
    async () => {
      await onTill('goods-barcode', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await enter(page, '4260000000011');
        await itemAdded(page);
        await expectText(page.locator('[data-testid="line-0-title"] .title'), 'Water 0.5 l');
        await expectText(page.getByTestId('line-0-price'), '1.49');
        await enter(page, 'snk-1', '2');
        await itemAdded(page);
        await expectText(page.locator('[data-testid="line-1-title"] .title'), 'Sandwich');
        await expectText(page.getByTestId('line-1-amount'), '9.98');
        await expectText(page.getByTestId('totals-to-pay'), '11.47');
        expect(await page.getByTestId('item-price').isVisible()).toBe(false);
      });
    },
    TEST_MS,
  );

  it(
    'lists the goods whose names hold the words typed, and adds the one picked with the arrows and Enter',
    async () => {
      await onTill('goods-search', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await enter(page, 'coffee');
        await page.getByTestId('goods-results').waitFor();
        await expectText(page.getByTestId('goods-result-0'), /Coffee/);
        await enter(page, 'e');
        await page.getByTestId('goods-result-1').waitFor();
        const count = await page.locator('[data-testid^="goods-result-"][role="option"]').count();
        expect(count).toBeGreaterThan(2);
        await page.getByTestId('item-code').press('ArrowDown');
        await expect
          .poll(() => page.getByTestId('goods-result-1').getAttribute('aria-selected'))
          .toBe('true');
        const picked = (await page.locator('[data-testid="goods-result-1"] .title').textContent())!;
        await page.getByTestId('item-code').press('Enter');
        await itemAdded(page);
        await expect.poll(() => page.getByTestId('goods-results').count()).toBe(0);
        const title = picked.split(' · ')[0]!;
        await expectText(page.locator('[data-testid="line-0-title"] .title'), title);
        await screenshot(page, 'goods-search');
      });
    },
    TEST_MS,
  );

  it(
    'adds a good with one tap on its quick key, a page per configured category',
    async () => {
      const config = { terminal: { quick_keys: QUICK_KEYS } };
      await onTill('goods-quick-keys', config, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await page.getByTestId('quick-keys').waitFor();
        await expectText(page.getByTestId('quick-page-0'), 'Coffee');
        await page.getByTestId('quick-key-1').click();
        await calculated(page);
        await expectText(page.locator('[data-testid="line-0-title"] .title'), 'Latte');
        await page.getByTestId('quick-page-1').click();
        await expect.poll(() => page.locator('[data-testid^="quick-key-"]').count()).toBe(2);
        await page.getByTestId('quick-key-0').click();
        await page.getByTestId('line-1').waitFor();
        await calculated(page);
        await expectText(page.locator('[data-testid="line-1-title"] .title'), 'Water 0.5 l');
        await expectText(page.getByTestId('totals-amount'), '4.69');
        await screenshot(page, 'goods-quick-keys');
      });
    },
    TEST_MS,
  );

  it(
    'sells the weight a weight label carries at the catalogue price per kilogram',
    async () => {
      await onTill('goods-weighed', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        // in-store label 21: item 00042 (Bergkäse by weight), 456 g
        await enter(page, '2100042004566');
        await itemAdded(page);
        await expectText(page.locator('[data-testid="line-0-title"] .title'), 'Bergkäse by weight');
        await expectText(page.getByTestId('line-0-quantity'), /0\.456/);
        await expectText(page.getByTestId('line-0-amount'), '11.35');
      });
    },
    TEST_MS,
  );

  it(
    'refuses a fraction of a good sold in whole pieces, under the quantity, adding nothing',
    async () => {
      await onTill('goods-whole-number', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await enter(page, 'EGG-6', '1.5');
        await expectText(page.getByTestId('item-quantity-error'), /whole/);
        expect(await page.getByTestId('lines-empty').isVisible()).toBe(true);
        await expect.poll(() => focused(page)).toBe('item-quantity');
        await page.getByTestId('item-quantity').fill('2');
        await page.getByTestId('item-code').press('Enter');
        await itemAdded(page);
        await expectText(page.getByTestId('line-0-amount'), '5.58');
      });
    },
    TEST_MS,
  );

  it(
    'refuses a code the catalogue lacks in plain words, and takes it by hand only with a price and a reason',
    async () => {
      await onTill('goods-unknown', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await enter(page, 'NONSENSE-42');
        await expectText(page.getByTestId('item-code-error'), /No good in the catalogue/);
        expect(await page.getByTestId('lines-empty').isVisible()).toBe(true);
        await page.locator('[data-testid="item-by-hand"] summary').click();
        await page.getByTestId('item-price').fill('9.99');
        await page.getByTestId('item-code').fill('NONSENSE-42');
        await page.getByTestId('item-code').press('Enter');
        await expectText(page.getByTestId('item-reason-error'), /why/);
        await page.getByTestId('item-reason').fill('damaged label, price from the shelf');
        await page.getByTestId('item-reason').press('Enter');
        await itemAdded(page);
        await expectText(page.getByTestId('line-0-amount'), '9.99');
      });
    },
    TEST_MS,
  );
});

describe('the cashier screen: touch', () => {
  it(
    'types a quantity with the number pad into the field that has the focus',
    async () => {
      await onTill('goods-keypad', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await page.getByTestId('item-code').fill('WTR-1');
        await page.getByTestId('item-quantity').fill('');
        await page.getByTestId('item-quantity').focus();
        await page.getByTestId('keypad-3').click();
        await expect.poll(() => page.getByTestId('item-quantity').inputValue()).toBe('3');
        await expect.poll(() => focused(page)).toBe('item-quantity');
        await page.getByTestId('item-add').click();
        await itemAdded(page);
        await expectText(page.getByTestId('line-0-amount'), '4.47');
      });
    },
    TEST_MS,
  );

  it(
    'offers the exact cash and the next notes on the payment screen, and shows the change',
    async () => {
      await onTill('goods-quick-cash', {}, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await enter(page, 'WTR-1');
        await itemAdded(page);
        await toPayment(page);
        await expectText(page.getByTestId('quick-cash-0'), /1\.49/);
        await expectText(page.getByTestId('quick-cash-1'), '5.00');
        await page.getByTestId('quick-cash-1').click();
        await expectText(page.getByTestId('payment-change'), '3.51');
        await screenshot(page, 'goods-quick-cash');
      });
    },
    TEST_MS,
  );
});

describe('the cashier screen: the scanner', () => {
  let pty: PtyPair;
  beforeEach(async () => {
    pty = await PtyPair.open();
  });
  afterEach(async () => {
    await pty.close();
  });

  function scan(code: string): void {
    const fd = openSync(pty.b, 'w');
    try {
      writeSync(fd, Buffer.from(`${code}\r`, 'ascii'));
    } finally {
      closeSync(fd);
    }
  }

  it(
    'adds the good a scanned barcode names, and a scanned loyalty card still identifies the customer',
    async () => {
      const config = {
        devices: {
          scanner: { path: pty.a, timeouts: { reconnect_min_ms: 50, reconnect_max_ms: 200 } },
          printer: { simulated: true },
        },
      };
      await onTill('goods-scan', config, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await page
          .locator('[data-testid="status-device-scanner"][data-state="connected"]')
          .waitFor();
        scan('4260000000028');
        await page.getByTestId('line-0').waitFor();
        await calculated(page);
        await expectText(page.locator('[data-testid="line-0-title"] .title'), 'Coffee');
        scan('2100042004566');
        await page.getByTestId('line-1').waitFor();
        await calculated(page);
        await expectText(page.getByTestId('line-1-amount'), '11.35');
        scan(DEMO.cards.anna);
        await expectText(page.getByTestId('customer-name'), 'Anna Gold');
        await expect
          .poll(() => page.locator('[data-testid^="line-"][aria-selected]').count())
          .toBe(2);
        await screenshot(page, 'goods-scan');
      });
    },
    TEST_MS,
  );
});
