// The forecourt's steps as a cashier and a driver take them in the browser tests: the shift
// opened, the forecourt screen, a pump tile's state, the person at a simulated pump (over the
// agent's `simulator-pump`), and a sale confirmed on the payment screen.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { confirm, expectText, pressEnterOn, typeInto } from './helpers.js';

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

/**
 * The prepay of 20.00 for pump 1 on the check: paid in cash (no change), the pump authorised
 * for it, the driver running nozzle 1 to the preset (20.00 / 1.759 = 11.37 l), and Sell
 * completing it with what the pump gave (nothing back); a new sale after. `shot` takes a
 * screenshot at each step: paid, filled, completed.
 */
export async function prepayPaidAndCompleted(
  page: Page,
  shot: (name: string) => Promise<void>,
): Promise<void> {
  await page.keyboard.press('F8');
  await page.getByTestId('screen-payment').waitFor();
  await typeInto(page, 'payment-cash-given', '20');
  await expectText(page.getByTestId('payment-change'), '0.00');
  await confirm(page);
  await expectText(page.getByTestId('receipt-total-to-pay'), '20.00');
  await shot('paid');
  await pressEnterOn(page, 'receipt-new-sale');
  await page.getByTestId('lines-empty').waitFor();
  // paid, the till authorised pump 1 for it (pump-authorise)
  await toForecourt(page);
  await tileState(page, 1, 'authorised');
  await fill(page, 1, 1, null, '11.37 l');
  await expectText(page.getByTestId('pump-1-amount'), '20.00');
  await expectText(page.getByTestId('pump-1-unpaid'), '1 unpaid');
  await expectText(page.getByTestId('pump-1-fill-0'), /^FUEL-95 · 11\.37 l · 20\.00/);
  await page.getByTestId('pump-1-fill-0-sell').waitFor();
  await shot('filled');
  await pressEnterOn(page, 'pump-1-fill-0-sell');
  await page.getByTestId('screen-receipt').waitFor();
  await expectText(page.getByTestId('receipt-total-to-pay'), '20.00');
  await expectText(page.getByTestId('receipt-line-0'), /11\.37/);
  expect(await page.getByTestId('receipt-warnings').count()).toBe(0); // no change due
  await shot('completed');
  await pressEnterOn(page, 'receipt-new-sale');
  await page.getByTestId('lines-empty').waitFor();
}
