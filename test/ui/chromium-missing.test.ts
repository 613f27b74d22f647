// The browser tests fail, never skip, when Chromium is missing: the launcher refuses with a
// message that says what is missing and how to get it.
import { describe, expect, it } from 'vitest';
import { ChromiumMissing, launchBrowser } from './helpers.js';

describe('the browser tests without Chromium', () => {
  it('fail with a message naming the missing binary', async () => {
    const missing = '/nonexistent/chromium';
    const launched = launchBrowser(missing);
    await expect(launched).rejects.toBeInstanceOf(ChromiumMissing);
    await expect(launched).rejects.toThrow(/Chromium is missing at \/nonexistent\/chromium/);
  });
});
