// The forecourt's steps as a cashier and a driver take them in the browser tests: the shift
// opened, the forecourt screen, a pump tile's state, the person at a simulated pump (over the
// agent's `simulator-pump`), and a sale confirmed on the payment screen.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { expectText, noError, paymentReady, typeInto } from './helpers.js';

/** The simulated pumps run 0.5 l/s: 11.37 l take 23 s. */
export const FILL_MS = 40_000;

/** A command as the page sends it (its session cookie, same origin): status and body. */
export async function command<T = Record<string, unknown>>(
  page: Page,
  name: string,
  input: Record<string, unknown>,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ name, input }) => {
      const r = await fetch(`/api/commands/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
        credentials: 'same-origin',
      });
      return { status: r.status, body: (await r.json()) as T };
    },
    { name, input },
  );
}

/** The person at the pump: lift, dispense, hang up. */
export async function atPump(page: Page, input: Record<string, unknown>): Promise<void> {
  const r = await command(page, 'simulator-pump', input);
  expect(r.status, `simulator-pump ${JSON.stringify(input)}: ${JSON.stringify(r.body)}`).toBe(200);
}

const tile = (page: Page, n: number) => page.getByTestId(`pump-${n}`);

export async function tileState(
  page: Page,
  n: number,
  state: string,
  timeout = 8_000,
): Promise<void> {
  await expect.poll(() => tile(page, n).getAttribute('data-state'), { timeout }).toBe(state);
}

export async function toForecourt(page: Page): Promise<void> {
  await page.keyboard.press('F10');
  await page.getByTestId('screen-forecourt').waitFor();
  // its forecourt-state has answered: a press before it could be undone by that answer
  await expect.poll(() => page.getByTestId('status-busy').count()).toBe(0);
}

/** Lifts `nozzle`, dispenses (`litres`, or to the preset), waits for `volume` and hangs up. */
export async function fill(
  page: Page,
  pump: number,
  nozzle: number,
  litres: number | null,
  volume: string,
): Promise<void> {
  await atPump(page, { pump, action: 'lift', nozzle });
  await atPump(page, { pump, action: 'dispense', ...(litres === null ? {} : { litres }) });
  await tileState(page, pump, 'fuelling');
  await expectText(page.getByTestId(`pump-${pump}-volume`), volume, FILL_MS);
  await atPump(page, { pump, action: 'hang-up' });
  await tileState(page, pump, 'finished');
}

/** The manager signs in and opens the shift with a counted float of 150.00. */
export async function openShift(page: Page): Promise<void> {
  await typeInto(page, 'sign-in-code', DEMO.authCodes.manager);
  await page.keyboard.press('Enter');
  await page.getByTestId('screen-shift-open').waitFor();
  await typeInto(page, 'shift-opening-cash', '150');
  await page.keyboard.press('Enter');
  await page.getByTestId('screen-sale').waitFor();
  await noError(page);
}

/** F8 on the payment screen; waits for the receipt, an error fails at once. */
export async function confirm(page: Page): Promise<void> {
  await paymentReady(page);
  await page.keyboard.press('F8');
  await page
    .getByTestId('screen-receipt')
    .or(page.locator('[data-testid="message"][data-kind="error"]'))
    .first()
    .waitFor({ timeout: 20_000 });
  await noError(page);
}
