// Every screen a cashier uses in a shift, at every size a till has (issue 15, point 2): at
// 800x600, 1024x768, 1280x1024 and 1920x1080 each screen's primary action and its key figures
// are inside the viewport without scrolling the page (nor hidden in a box scrolled away),
// nothing overflows sideways, and the navigation stays on one row. Lists scroll inside their
// own box (renderer/README.md, "Layout"). The shift runs in order: sign-in, the shift opened on
// the number pad, a sale of 30 lines for a loyalty customer, F7, the payment (cash, then split
// with the change due), the receipt, the recent sales (list, sale, reprint), the refund of a
// 30-line sale, the cash, the X report, settings, attention, the Z report; then a sale and its
// payment under the offline banner, and in German. Each screen at each size leaves
// test-results/screen-size-<screen>-<w>x<h>.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  OwnCentral,
  STEP_MS,
  TEST_MS,
  calculated,
  describePage,
  expectText,
  fastCentral,
  identify,
  noError,
  openUiTill,
  paymentReady,
  screenshot,
  signIn,
  type UiTill,
} from './helpers.js';

const SIZES = [
  [800, 600],
  [1024, 768],
  [1280, 1024],
  [1920, 1080],
] as const;

const LINES = 30;

/** An in-store weight label (prefix 21) for Bergkäse (item 00042), `grams` net. */
function weightLabel(grams: number): string {
  const body = `2100042${String(grams).padStart(5, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

// The page's scripts are text: the tests' tsconfig has no DOM types.

/** Elements wider inside than their box (what overflows sideways), by test id or class. */
const SIDEWAYS = `(() => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    // a screen reader's text is clipped to a pixel on purpose (.sr-only, a heading or a label
    // the screen shows otherwise): never shown
    if (el.classList.contains('sr-only') || (el.clientWidth <= 1 && el.clientHeight <= 1)) continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      const id = el.getAttribute('data-testid') ?? el.className;
      out.push(el.tagName.toLowerCase() + ' ' + id + ': ' + el.scrollWidth + ' > ' + el.clientWidth);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) out.push('the page: ' + page.scrollWidth + ' wide');
  return out;
})()`;

/** How far the page itself scrolls down (0: it fits). */
const PAGE_SCROLL =
  'document.scrollingElement.scrollHeight - document.scrollingElement.clientHeight';

/**
 * Why each element is not wholly on show (none: it is): missing, outside the viewport, or cut
 * by a box that clips it (a list scrolled, a column too short). Nothing is scrolled to find it.
 */
function unseen(testids: readonly string[]): string {
  return `((ids) => {
    const out = [];
    const W = window.innerWidth, H = window.innerHeight;
    for (const id of ids) {
      const el = document.querySelector('[data-testid="' + id + '"]');
      if (!el) { out.push(id + ': missing'); continue; }
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) { out.push(id + ': not shown'); continue; }
      if (b.top < -1 || b.left < -1 || b.bottom > H + 1 || b.right > W + 1) {
        out.push(id + ': outside the viewport (' + Math.round(b.left) + ',' + Math.round(b.top) +
          ' to ' + Math.round(b.right) + ',' + Math.round(b.bottom) + ')');
        continue;
      }
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const c = p.getBoundingClientRect();
        if (b.top < c.top - 1 || b.bottom > c.bottom + 1 || b.left < c.left - 1 || b.right > c.right + 1) {
          out.push(id + ': cut by ' + p.tagName.toLowerCase() + ' ' + (p.getAttribute('data-testid') ?? p.className));
          break;
        }
      }
    }
    return out;
  })(${JSON.stringify(testids)})`;
}

/**
 * The rows the header's buttons take: 1 when the navigation did not wrap (the navigation's
 * buttons share their top, and every other button of the header sits beside them).
 */
const NAV_ROWS = `(() => {
  const nav = [...document.querySelectorAll('header nav .btn')].map((b) => b.getBoundingClientRect());
  if (nav.length === 0) return 1;
  const tops = new Set(nav.map((b) => Math.round(b.top)));
  const first = nav[0];
  const others = [...document.querySelectorAll('header .btn')].map((b) => b.getBoundingClientRect());
  const below = others.filter((b) => b.top >= first.bottom || b.bottom <= first.top).length;
  return tops.size + (below > 0 ? 1 : 0);
})()`;

/** What is wrong with the page at this size: [] when the screen fits. */
async function misfits(page: Page, shown: readonly string[]): Promise<string[]> {
  const out = [...(await page.evaluate<string[]>(unseen(shown)))];
  const scroll = await page.evaluate<number>(PAGE_SCROLL);
  if (scroll > 0) out.push(`the page scrolls down by ${scroll} px`);
  out.push(...(await page.evaluate<string[]>(SIDEWAYS)));
  const rows = await page.evaluate<number>(NAV_ROWS);
  if (rows > 1) out.push(`the navigation wraps onto ${rows} rows`);
  return out;
}

/**
 * The screen on show at every size: `shown` (its primary action and key figures) wholly in
 * view, the page not scrolling, nothing sideways, the navigation on one row. Every size is
 * tried and every misfit reported at once; each size leaves its screenshot.
 */
async function fitsEverySize(page: Page, name: string, shown: readonly string[]): Promise<void> {
  const found: string[] = [];
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(100); // the resize's own render
    const wrong = await misfits(page, shown);
    found.push(...wrong.map((w) => `${width}x${height}: ${w}`));
    await screenshot(
      page,
      `screen-size-${name}-${width}x${height}${wrong.length ? '-failed' : ''}`,
    );
  }
  await page.setViewportSize({ width: 1280, height: 1024 });
  // soft: the shift goes on to the next screen, the test fails at its end
  expect.soft(found, `${name} at every size`).toEqual([]);
}

/** The item form took its line: the code field is empty again (polled). */
async function formEmptied(page: Page): Promise<void> {
  const deadline = Date.now() + STEP_MS;
  while ((await page.getByTestId('item-code').inputValue()) !== '') {
    if (Date.now() > deadline) throw new Error('the item form did not take its line');
    await page.waitForTimeout(20);
  }
}

/** 30 weighed lines on the check, by their labels. */
async function addLines(page: Page): Promise<void> {
  for (let i = 0; i < LINES; i++) {
    await page.getByTestId('item-code').fill(weightLabel(100 + i));
    await page.getByTestId('item-code').press('Enter');
    await formEmptied(page);
    await calculated(page);
  }
  await noError(page);
  expect(await page.locator('[data-testid^="line-"][aria-selected]').count()).toBe(LINES);
}

/** 50.00 in cash and the rest by card, 60.00 handed over: 10.00 change. */
async function splitTender(page: Page): Promise<void> {
  await page.getByTestId('payment-tender-type').selectOption('cash');
  await page.getByTestId('payment-tender-amount').fill('50');
  await page.getByTestId('payment-tender-add').click();
  await page.getByTestId('payment-tender-0').waitFor();
  const rest = await page.getByTestId('payment-remaining').textContent();
  await page.getByTestId('payment-tender-type').selectOption('bank-card');
  await page.getByTestId('payment-tender-amount').fill((rest ?? '').trim());
  await page.getByTestId('payment-tender-add').click();
  await expectText(page.getByTestId('payment-remaining'), '0.00');
  await page.getByTestId('payment-cash-given').fill('60');
  await expectText(page.getByTestId('payment-change'), '10.00');
}

async function nav(page: Page, key: string, screen: string): Promise<void> {
  await page.keyboard.press(key);
  await page.getByTestId(`screen-${screen}`).waitFor();
}

describe('every screen of a shift at every till size', () => {
  let till: UiTill;
  let central: OwnCentral;
  let page: Page;
  beforeAll(async () => {
    central = await OwnCentral.start();
    till = await openUiTill({
      central: fastCentral(central.url),
      devices: {
        card_reader: { simulated: true },
        payment: { simulated: true },
        printer: { simulated: true },
      },
    });
    page = till.page;
  }, 60_000);
  afterAll(async () => {
    await till?.close();
    await central?.close();
  });

  /** A step of the shift; a failure names what the page showed. */
  function step(title: string, body: () => Promise<void>, ms = TEST_MS): void {
    it(
      title,
      async () => {
        try {
          await body();
        } catch (e) {
          (e as Error).message += `\n--- the page showed ---\n${await describePage(page)}`;
          throw e;
        }
      },
      ms,
    );
  }

  step('shows the sign-in code, its number pad and Sign in', async () => {
    await fitsEverySize(page, 'sign-in', ['sign-in-code', 'keypad', 'sign-in-submit']);
  });

  step('shows the opening float, its number pad and Open shift', async () => {
    await signIn(page, DEMO.authCodes.manager);
    await page.getByTestId('screen-shift-open').waitFor();
    await fitsEverySize(page, 'shift-open', [
      'shift-opening-cash',
      'keypad',
      'shift-open-submit',
      'nav-sale',
      'nav-sign-out',
    ]);
  });

  step(
    'keeps the newest of 30 lines, the item form, the amount to pay and Pay in view',
    async () => {
      await page.getByTestId('shift-opening-cash').fill('150');
      await page.getByTestId('shift-open-submit').click();
      await page.getByTestId('screen-sale').waitFor();
      await noError(page);
      await identify(page, DEMO.cards.anna);
      await addLines(page);
      await fitsEverySize(page, 'sale', [
        `line-${LINES - 1}`,
        'item-code',
        'item-quantity',
        'item-add',
        'customer-name',
        'totals-to-pay',
        'sale-pay',
        'nav-sale',
        'nav-cash',
        'nav-sign-out',
      ]);
    },
    120_000,
  );

  step('shows the customer’s balances, the coupons on sale and Back on F7', async () => {
    await page.keyboard.press('F7');
    await page.getByTestId('screen-loyalty').waitFor();
    await page.getByTestId('coupon-buy-0').waitFor();
    await fitsEverySize(page, 'loyalty', [
      'loyalty-customer',
      'loyalty-bonuses',
      'coupon-buy-0',
      'loyalty-back',
      'bonus-submit',
    ]);
    await page.keyboard.press('Escape');
    await page.getByTestId('screen-sale').waitFor();
  });

  step('shows what is due, the quick cash, the change and Confirm', async () => {
    await calculated(page);
    await page.keyboard.press('F8');
    await page.getByTestId('screen-payment').waitFor();
    await paymentReady(page);
    await page.getByTestId('payment-cash-given').fill('200');
    await fitsEverySize(page, 'payment-cash', [
      'payment-due',
      'payment-method-cash',
      'payment-cash-given',
      'quick-cash-0',
      'payment-change',
      'payment-confirm',
    ]);
  });

  step('shows a split tender’s parts, what is left, the change and Confirm', async () => {
    await splitTender(page);
    await fitsEverySize(page, 'payment-split', [
      'payment-due',
      'payment-tender-0',
      'payment-tender-1',
      'payment-remaining',
      'payment-cash-given',
      'payment-change',
      'payment-confirm',
      'payment-back',
    ]);
  });

  step('shows the receipt’s total, the change and New sale', async () => {
    await page.getByTestId('payment-confirm').click();
    await page.getByTestId('screen-receipt').waitFor({ timeout: 20_000 });
    await noError(page);
    await fitsEverySize(page, 'receipt', [
      'receipt-total-to-pay',
      'receipt-change',
      'receipt-new-sale',
    ]);
    await page.getByTestId('receipt-new-sale').click();
    await page.getByTestId('lines-empty').waitFor();
  });

  step('shows the recent sales, their search and the newest sale', async () => {
    await nav(page, 'Alt+6', 'recent');
    await page.getByTestId('recent-sale-0-open').waitFor();
    await fitsEverySize(page, 'recent', [
      'recent-search',
      'recent-find',
      'recent-sale-0-open',
      'recent-sale-0-amount',
    ]);
  });

  step('shows a sale of 30 lines opened, reprinted, with Reprint and Refund in view', async () => {
    await page.getByTestId('recent-sale-0-open').click();
    await page.getByTestId('recent-detail').waitFor();
    const shown = ['recent-detail-amount', 'recent-reprint', 'recent-refund', 'recent-back'];
    await fitsEverySize(page, 'recent-sale', shown);
    await page.getByTestId('recent-reprint').click();
    await page.getByTestId('recent-copy').waitFor();
    await fitsEverySize(page, 'recent-reprint', shown);
  });

  step('shows the refund of 30 lines with what was paid and Refund in view', async () => {
    await page.getByTestId('recent-refund').click();
    await page.getByTestId('refund-sale').waitFor();
    await fitsEverySize(page, 'refund', [
      'refund-sale-amount',
      'refund-qty-0',
      'refund-comment',
      'refund-all',
      'refund-submit',
      'cancel-submit',
    ]);
    await page.getByTestId('refund-qty-0').fill('0.1');
    await page.getByTestId('refund-comment').fill('the cheese was dry');
    await page.getByTestId('refund-submit').click();
    await page.getByTestId('refund-result').waitFor();
    await noError(page);
    await fitsEverySize(page, 'refund-result', ['refund-give-back-0', 'refund-to-recent']);
  });

  step('shows the paid-in and paid-out form and the movements', async () => {
    await nav(page, 'Alt+7', 'cash');
    await page.getByTestId('cash-kind').selectOption('paid-out');
    await page.getByTestId('cash-amount').fill('12.50');
    await page.getByTestId('cash-reason').fill('window cleaner');
    await page.getByTestId('cash-submit').click();
    await page.getByTestId('cash-movement-0').waitFor();
    await noError(page);
    await fitsEverySize(page, 'cash', [
      'cash-kind',
      'cash-amount',
      'cash-reason',
      'cash-submit',
      'cash-movement-0',
    ]);
  });

  step('shows the X report’s expected cash, the counted cash and Close shift', async () => {
    await nav(page, 'Alt+4', 'report');
    await page.getByTestId('report-expected-cash').waitFor();
    await fitsEverySize(page, 'x-report', [
      'report-sales',
      'report-expected-cash',
      'report-print-x',
      'report-counted-cash',
      'report-close-shift',
    ]);
  });

  step('shows the settings: the language, the connection and Sync now', async () => {
    await nav(page, 'Alt+5', 'settings');
    await fitsEverySize(page, 'settings', [
      'settings-language',
      'settings-connection',
      'settings-sync-now',
    ]);
  });

  step('shows the attention list and its actions', async () => {
    await nav(page, 'Alt+3', 'attention');
    await fitsEverySize(page, 'attention', ['attention-refresh', 'attention-recover']);
  });

  step('shows the Z report’s over or short and Open shift after the close', async () => {
    await nav(page, 'Alt+4', 'report');
    await page.getByTestId('report-expected-cash').waitFor();
    await page.getByTestId('report-counted-cash').fill('100');
    await page.getByTestId('report-close-shift').click();
    await page.getByTestId('report-over-short').waitFor();
    await noError(page);
    await fitsEverySize(page, 'z-report', [
      'report-expected-cash',
      'report-counted',
      'report-over-short',
      'report-open-shift',
    ]);
  });

  step(
    'keeps the sale and a split payment in view under the offline banner',
    async () => {
      await page.getByTestId('report-open-shift').click();
      await page.getByTestId('shift-opening-cash').fill('100');
      await page.getByTestId('shift-open-submit').click();
      await page.getByTestId('screen-sale').waitFor();
      await central.stop();
      await identify(page, DEMO.cards.anna); // from the cache: the till finds itself offline
      await page.getByTestId('offline-banner').waitFor();
      await addLines(page);
      await fitsEverySize(page, 'sale-offline', [
        'offline-since',
        `line-${LINES - 1}`,
        'item-code',
        'item-add',
        'customer-name',
        'totals-to-pay',
        'sale-pay',
      ]);
      await page.keyboard.press('F8');
      await page.getByTestId('screen-payment').waitFor();
      await paymentReady(page);
      await splitTender(page);
      await fitsEverySize(page, 'payment-split-offline', [
        'offline-since',
        'payment-due',
        'payment-tender-1',
        'payment-remaining',
        'payment-change',
        'payment-confirm',
      ]);
    },
    120_000,
  );

  step('fits in German too, whose words are longer', async () => {
    await page.getByTestId('payment-back').click();
    await nav(page, 'Alt+5', 'settings');
    await page.getByTestId('settings-language').selectOption('de');
    await expectText(page.getByTestId('nav-settings'), /Einstellungen/);
    await fitsEverySize(page, 'settings-de', ['settings-language', 'settings-sync-now']);
    await nav(page, 'Alt+1', 'sale');
    const sale = ['item-code', 'item-add', 'customer-name', 'totals-to-pay', 'sale-pay'];
    await fitsEverySize(page, 'sale-de', [...sale, `line-${LINES - 1}`]);
    await page.keyboard.press('F8');
    await page.getByTestId('screen-payment').waitFor();
    await fitsEverySize(page, 'payment-split-de', [
      'payment-due',
      'payment-tender-1',
      'payment-remaining',
      'payment-change',
      'payment-confirm',
    ]);
    expect(till.pageErrors, 'the page threw').toEqual([]);
  });
});
