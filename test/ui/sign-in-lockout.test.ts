// Sign-in lockout: three wrong auth codes inside the window lock sign-in; while locked even
// the right code is refused and the screen says for how long.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { TEST_MS, expectText, messageCode, onTill, screenshot, signIn } from './helpers.js';
import type { Page } from 'playwright-core';

async function refusedWith(page: Page, code: string): Promise<void> {
  await page.locator('[data-testid="message"][data-kind="error"]').waitFor();
  await page.locator('[data-testid="sign-in-submit"]:not([disabled])').waitFor();
  await expect.poll(() => messageCode(page)).toBe(code);
}

describe('the cashier screen: sign-in lockout', () => {
  it(
    'locks sign-in after three wrong codes and refuses even the right one',
    async () => {
      const config = { terminal: { sign_in: { max_failures: 3, window_s: 600, lockout_s: 120 } } };
      await onTill('sign-in-lockout', config, async ({ page }) => {
        await signIn(page, '0000');
        await refusedWith(page, 'auth-code-invalid');
        expect(await page.getByTestId('sign-in-lockout').count()).toBe(0);
        await signIn(page, '0001');
        await refusedWith(page, 'auth-code-invalid');

        await signIn(page, '0002');
        await refusedWith(page, 'sign-in-locked');
        await expectText(page.getByTestId('sign-in-lockout'), /\d+/);

        await signIn(page, DEMO.authCodes.manager);
        await refusedWith(page, 'sign-in-locked');
        await page.getByTestId('sign-in-lockout').waitFor();
        await page.getByTestId('screen-sign-in').waitFor();
        expect(await page.getByTestId('header-staff').count()).toBe(0);
        await screenshot(page, 'sign-in-lockout');
      });
    },
    TEST_MS,
  );
});
