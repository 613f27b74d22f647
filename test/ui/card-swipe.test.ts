// A card swiped on the loyalty reader identifies the customer on the cashier's screen. The
// reader is on a serial line (a socat pty pair stands in for its cable): the test writes the
// swipe's bytes into the far end exactly as a magnetic-stripe reader sends them.
import { openSync, writeSync, closeSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { PtyPair } from '../devices/support/pty.js';
import { TEST_MS, expectText, onTill, screenshot, signInToSale } from './helpers.js';

/** STX, track 1, track 2, CR, ETX: one swipe as the reader frames it (framing `stx-etx`). */
function swipe(pan: string, name: string): Buffer {
  const track1 = `%B${pan}^${name}^29122010000000000000?`;
  const track2 = `;${pan}=29122010000000000?`;
  return Buffer.concat([
    Buffer.of(0x02),
    Buffer.from(track1 + track2, 'ascii'),
    Buffer.of(0x0d, 0x03),
  ]);
}

function send(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

describe('the cashier screen: a card swipe', () => {
  let pty: PtyPair;
  beforeEach(async () => {
    pty = await PtyPair.open();
  });
  afterEach(async () => {
    await pty.close();
  });

  it(
    'identifies the customer from a swipe on the sale screen, and names a bank card without its number',
    async () => {
      const config = {
        devices: {
          card_reader: {
            path: pty.a,
            timeouts: { reconnect_min_ms: 50, reconnect_max_ms: 200 },
          },
          printer: { simulated: true },
        },
      };
      await onTill('card-swipe', config, async ({ page }) => {
        await signInToSale(page, DEMO.authCodes.cashier);
        await page
          .locator('[data-testid="status-device-card_reader"][data-state="connected"]')
          .waitFor();

        send(pty.b, swipe(DEMO.cards.anna, 'GOLD/ANNA'));
        await expectText(page.getByTestId('customer-name'), 'Anna Gold');
        await expectText(page.getByTestId('customer-bonuses-available'), '135.50');
        await screenshot(page, 'card-swipe');

        // A Luhn-valid Visa number: masked on screen, never used to identify anyone.
        send(pty.b, swipe('4111111111111111', 'BANK/CARD'));
        await expectText(page.getByTestId('message'), /411111\S*1111/);
        expect(await page.content()).not.toContain('4111111111111111');
        await expectText(page.getByTestId('customer-name'), 'Anna Gold');
      });
    },
    TEST_MS,
  );
});
