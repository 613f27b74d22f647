// The forecourt on the cashier's screen (issue 16; docs/forecourt.md, "The forecourt on
// screen"), at 1024x768, over the embedded default's four simulated DART pumps driven by the
// real master: a person lifts a nozzle of pump 2 from the settings screen's controls, the
// cashier releases the calling pump on the forecourt (F10), the person dispenses and hangs up
// (`simulator-pump`), and the tile goes calling -> released -> fuelling (the litres running)
// -> finished with one fill unpaid, Sell on it; then Stop all stops a released pump.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { TEST_MS, expectText, noError, onTill, screenshot, signInToSale } from './helpers.js';

/** `simulator-pump` as the page would send it (its session cookie, same origin). */
async function atPump(page: Page, input: Record<string, unknown>): Promise<number> {
  return page.evaluate(async (body) => {
    const r = await fetch('/api/commands/simulator-pump', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    return r.status;
  }, input);
}

const tile = (page: Page, n: number) => page.getByTestId(`pump-${n}`);

async function tileState(page: Page, n: number, state: string): Promise<void> {
  await expect.poll(() => tile(page, n).getAttribute('data-state'), { timeout: 8_000 }).toBe(state);
}

describe('the cashier screen: the forecourt', () => {
  it(
    'releases pump 2, follows its fill live to finished and unpaid, and stops every pump',
    async () => {
      await onTill('forecourt', {}, async ({ page }) => {
        await page.setViewportSize({ width: 1024, height: 768 });
        await signInToSale(page, DEMO.authCodes.cashier);

        // the forecourt from the sale screen's button; every pump idle
        await page.getByTestId('sale-forecourt').click();
        await page.getByTestId('screen-forecourt').waitFor();
        for (const n of [1, 2, 3, 4]) await tileState(page, n, 'idle');
        await screenshot(page, 'forecourt-1-idle');

        // a person lifts nozzle 1 of pump 2: the settings screen's simulated pump controls
        await page.keyboard.press('Alt+5');
        await page.getByTestId('sim-pumps').waitFor();
        await page.getByTestId('sim-pump').selectOption('2');
        await page.getByTestId('sim-lift').click();
        await expectText(page.getByTestId('sim-display'), /^Pump 2: nozzle 1 lifted · 0\.00 l/);
        await noError(page);

        // F10: pump 2 calls; the cashier releases it (postpay)
        await page.keyboard.press('F10');
        await page.getByTestId('screen-forecourt').waitFor();
        await tileState(page, 2, 'calling');
        await expectText(page.getByTestId('pump-2-state'), 'Nozzle up · nozzle 1');
        await screenshot(page, 'forecourt-2-calling');
        await page.getByTestId('pump-2-release').click();
        await tileState(page, 2, 'authorised');
        await noError(page);
        await screenshot(page, 'forecourt-3-released');

        // the person dispenses 2 litres (0.5 l/s): the litres run on the tile
        expect(await atPump(page, { pump: 2, action: 'dispense', litres: 2 })).toBe(200);
        await tileState(page, 2, 'fuelling');
        const volume = page.getByTestId('pump-2-volume');
        const seen = new Set<string>();
        await expect
          .poll(
            async () => {
              seen.add(((await volume.textContent()) ?? '').trim());
              return seen.size;
            },
            { timeout: 8_000, interval: 100 },
          )
          .toBeGreaterThanOrEqual(3);
        await screenshot(page, 'forecourt-4-fuelling');
        await expectText(volume, '2.00 l', 8_000);
        await expectText(page.getByTestId('pump-2-amount'), '3.58');

        // the nozzle back: finished, one fill unpaid with the pump's figures, Sell on it
        expect(await atPump(page, { pump: 2, action: 'hang-up' })).toBe(200);
        await tileState(page, 2, 'finished');
        await expectText(page.getByTestId('pump-2-unpaid'), '1 unpaid');
        await expectText(page.getByTestId('pump-2-fill-0'), /^FUEL-95 · 2\.00 l · 3\.58/);
        await page.getByTestId('pump-2-fill-0-sell').waitFor();
        await screenshot(page, 'forecourt-5-finished-unpaid');

        // pump 1 released, then Stop all: it stops
        expect(await atPump(page, { pump: 1, action: 'lift' })).toBe(200);
        await tileState(page, 1, 'calling');
        await page.getByTestId('pump-1-release').click();
        await tileState(page, 1, 'authorised');
        await page.getByTestId('forecourt-stop-all').click();
        await tileState(page, 1, 'stopped');
        await page.getByTestId('pump-1-resume').waitFor();
        await noError(page);
        await screenshot(page, 'forecourt-6-stopped');
      });
    },
    TEST_MS,
  );
});
