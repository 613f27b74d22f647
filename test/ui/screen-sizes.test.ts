// The sale screen at every size a till has (issue 15): at 800x600, 1024x768, 1280x1024 and
// 1920x1080, with 30 lines on the check, the newest line, the amount to pay and Pay are inside
// the viewport without scrolling the page, and nothing overflows sideways. The lines scroll
// inside their own box. Each size leaves a screenshot under test-results/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import {
  STEP_MS,
  TEST_MS,
  describePage,
  calculated,
  openUiTill,
  screenshot,
  signInToSale,
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

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

async function box(page: Page, testid: string): Promise<Box> {
  const b = await page.getByTestId(testid).boundingBox();
  if (!b) throw new Error(`${testid} is not shown`);
  return { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width };
}

// The page's scripts are text: the tests' tsconfig has no DOM types.

/** Elements wider inside than their box (what overflows sideways), by test id or class. */
const SIDEWAYS = `(() => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    // a screen reader's text is clipped to a pixel on purpose (.sr-only): never shown
    if (el.classList.contains('sr-only')) continue;
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

/** The item form took its line: the code field is empty again (polled; the CSP refuses the
 * page an eval, so no waitForFunction). */
async function formEmptied(page: Page): Promise<void> {
  const deadline = Date.now() + STEP_MS;
  while ((await page.getByTestId('item-code').inputValue()) !== '') {
    if (Date.now() > deadline) throw new Error('the item form did not take its line');
    await page.waitForTimeout(20);
  }
}

describe('the sale screen at every till size, with 30 lines', () => {
  let till: UiTill;
  beforeAll(async () => {
    till = await openUiTill({});
    const { page } = till;
    await signInToSale(page, DEMO.authCodes.cashier);
    for (let i = 0; i < LINES; i++) {
      await page.getByTestId('item-code').fill(weightLabel(100 + i));
      await page.getByTestId('item-code').press('Enter');
      // expect.poll (itemAdded) is for tests only: the form emptied means the line is in
      await formEmptied(page);
      await calculated(page);
    }
  }, 120_000);
  afterAll(async () => {
    await till?.close();
  });

  it.each(SIZES)(
    'keeps the newest line, the amount to pay and Pay in view at %ix%i, nothing sideways',
    async (width, height) => {
      const { page } = till;
      try {
        await page.setViewportSize({ width, height });
        await page.waitForTimeout(100); // the resize's own render
        expect(await page.locator('[data-testid^="line-"][aria-selected]').count()).toBe(LINES);
        const inView = (b: Box) =>
          b.top >= 0 && b.bottom <= height && b.left >= 0 && b.right <= width;
        const lines = await box(page, 'lines-panel');
        const last = await box(page, `line-${LINES - 1}`);
        expect(last.top >= lines.top && last.bottom <= lines.bottom + 1, 'newest line').toBe(true);
        expect(inView(last), 'newest line in the viewport').toBe(true);
        expect(inView(await box(page, 'totals-to-pay')), 'the amount to pay').toBe(true);
        expect(inView(await box(page, 'sale-pay')), 'Pay').toBe(true);
        const scroll = await page.evaluate<number>(PAGE_SCROLL);
        expect(scroll, 'the page scrolls').toBeLessThanOrEqual(0);
        expect(await page.evaluate<string[]>(SIDEWAYS)).toEqual([]);
        await screenshot(page, `screen-size-${width}x${height}`);
      } catch (e) {
        await screenshot(page, `screen-size-${width}x${height}-failed`).catch(() => undefined);
        (e as Error).message += `\n--- the page showed ---\n${await describePage(page)}`;
        throw e;
      }
    },
    TEST_MS,
  );
});
