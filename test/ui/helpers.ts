// The browser tests' till: the headless agent in-process (`runAgent`, the same path as
// `loyalty-terminal agent`) over a temp data directory, the renderer's build it serves, and
// Debian's Chromium driven by playwright-core through the one-time code of `open_url`.
// Chromium missing is a failure with a clear message, never a skip: a skipped browser test
// would pass CI without the cashier's screen ever being tried.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Agent } from '../../src/agent/server.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { memoryIO } from '../../src/cli/io.js';
import { setCataloguePrice, setEnterMode } from '../support/catalogue.js';
import { runAgent } from '../../src/cli/agent.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS_DIR = join(ROOT, 'test-results');
export const RENDERER_DIR = join(ROOT, 'renderer', 'dist');

/** Debian's package; LT_CHROMIUM names another binary (it too must exist). */
export const CHROMIUM = process.env.LT_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** Waits inside one step (a render, a command round trip); every test stays under 60 s. */
export const STEP_MS = 10_000;
export const TEST_MS = 60_000;

export class ChromiumMissing extends Error {
  constructor(path: string) {
    super(
      `Chromium is missing at ${path}: the browser tests need it and fail without it ` +
        `(Debian: apt-get install chromium; elsewhere set LT_CHROMIUM to a Chromium binary)`,
    );
    this.name = 'ChromiumMissing';
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh user-data directory; throws `ChromiumMissing` when it is not there. */
export async function launchBrowser(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) throw new ChromiumMissing(executablePath);
  const profile = mkdtempSync(join(tmpdir(), 'lt-ui-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(STEP_MS);
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Timeouts short enough that a dead link shows in a second, not in the defaults' minutes. */
export function fastCentral(url: string | null = null): Record<string, unknown> {
  return {
    url,
    timeouts: { connect_ms: 500, headers_ms: 1_500, body_ms: 2_000, online_deadline_ms: 1_000 },
    retry: { base_ms: 50, max_ms: 500, drain_interval_ms: 60_000 },
    pull_interval_ms: 60_000,
  };
}

export interface RunningAgent {
  agent: Agent;
  dir: string;
  stop(): Promise<void>;
}

/** `loyalty-terminal agent --port 0 --data DIR` in-process, DIR/config.json = `config`. */
export async function startUiAgent(config: Record<string, unknown>): Promise<RunningAgent> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `the renderer is not built (${RENDERER_DIR}/index.html is missing): run npm run build first`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'lt-ui-'));
  const configFile = join(dir, 'config.json');
  const text = JSON.stringify(config);
  writeFileSync(configFile, text);
  const io = memoryIO({ [configFile]: text });
  const stop = new AbortController();
  let started!: (a: Agent) => void;
  const agentReady = new Promise<Agent>((resolve) => (started = resolve));
  const exited = runAgent(['--port', '0', '--data', dir], io, {
    signal: stop.signal,
    rendererDir: RENDERER_DIR,
    onStarted: (a) => started(a),
  });
  const agent = await Promise.race([
    agentReady,
    exited.then((code) => {
      throw new Error(`the agent exited with ${code}: ${io.err}`);
    }),
  ]);
  return {
    agent,
    dir,
    async stop() {
      stop.abort();
      await exited;
      if (!process.env.KEEP_TILL) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface UiTill {
  agent: Agent;
  dir: string;
  page: Page;
  browser: Browser;
  /** Uncaught errors of the page so far (a test expects none). */
  pageErrors: string[];
  close(): Promise<void>;
}

/** An agent, a browser, and the page opened through the agent's one-time code. */
export async function openUiTill(config: Record<string, unknown> = {}): Promise<UiTill> {
  const browser = await launchBrowser();
  let running: RunningAgent | null = null;
  try {
    running = await startUiAgent({ central: fastCentral(), ...config });
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.stack ?? e.message}`));
    await page.goto(running.agent.openUrl);
    await page.getByTestId('screen-sign-in').waitFor();
    const r = running;
    return {
      agent: r.agent,
      dir: r.dir,
      page,
      browser,
      pageErrors: problems,
      async close() {
        await browser.close();
        await r.stop();
      },
    };
  } catch (e) {
    await browser.close();
    await running?.stop();
    throw e;
  }
}

/** The page as it is now, under test-results/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Polls a locator's text until it equals (or matches) `want`. */
export async function expectText(
  locator: Locator,
  want: string | RegExp,
  timeout = STEP_MS,
): Promise<void> {
  const poll = expect.poll(async () => ((await locator.textContent()) ?? '').trim(), {
    timeout,
    interval: 50,
  });
  if (typeof want === 'string') await poll.toBe(want);
  else await poll.toMatch(want);
}

/** The calculation has answered (totals not busy). */
export async function calculated(page: Page): Promise<void> {
  await page.locator('[data-testid="totals"][aria-busy="false"]').waitFor();
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

/** Fails at once with the message's text when the page shows an error. */
export async function noError(page: Page): Promise<void> {
  const msg = page.locator('[data-testid="message"][data-kind="error"]');
  if ((await msg.count()) > 0) {
    throw new Error(`the page shows an error: ${(await msg.textContent())?.trim() ?? ''}`);
  }
}

export async function signIn(page: Page, code: string): Promise<void> {
  await page.getByTestId('sign-in-code').fill(code);
  await page.getByTestId('sign-in-submit').click();
}

/** Signs in and opens a shift when none is open; ends on the sale screen. */
export async function signInToSale(page: Page, code: string, openingCash = '100'): Promise<void> {
  await signIn(page, code);
  const sale = page.getByTestId('screen-sale');
  const shift = page.getByTestId('screen-shift-open');
  await sale.or(shift).or(page.getByTestId('message')).first().waitFor();
  await noError(page);
  if (await shift.isVisible()) {
    await page.getByTestId('shift-opening-cash').fill(openingCash);
    await page.getByTestId('shift-open-submit').click();
  }
  await sale.or(page.locator('[data-testid="message"][data-kind="error"]')).first().waitFor();
  await noError(page);
}

export async function identify(page: Page, id: string, idType = 'card'): Promise<void> {
  await page.getByTestId('customer-id').fill(id);
  await page.getByTestId('customer-id-type').selectOption(idType);
  await page.getByTestId('customer-identify').click();
  await page
    .getByTestId('customer-summary')
    .or(page.locator('[data-testid="message"][data-kind="error"]'))
    .first()
    .waitFor();
  await noError(page);
}

export interface ItemEntry {
  code: string;
  /** Typed only for fuel; goods take the catalogue's price (a typed one is a line by hand). */
  price?: string;
  quantity?: string;
  /** `goods` (default), `fuel-amount` (prepay: `amount`), `fuel-quantity` (litres). */
  kind?: 'goods' | 'fuel-amount' | 'fuel-quantity';
  amount?: string;
}

/**
 * Adds a line from the item form: goods by their code (the catalogue's title and price), fuel
 * with its price typed. Waits for the line and its calculation; a field error fails at once.
 */
export async function addItem(page: Page, item: ItemEntry): Promise<void> {
  const kind = item.kind ?? 'goods';
  await page.getByTestId('item-kind').selectOption(kind);
  await page.getByTestId('item-code').fill(item.code);
  if (kind !== 'goods') await page.getByTestId('item-price').fill(item.price ?? '');
  if (kind === 'fuel-amount') await page.getByTestId('item-amount').fill(item.amount ?? '');
  else await page.getByTestId('item-quantity').fill(item.quantity ?? '1');
  await page.getByTestId('item-add').click();
  await itemAdded(page);
}

/** The item form took its line (the code field is empty again) and the totals answered. */
export async function itemAdded(page: Page): Promise<void> {
  const refused = page.locator('[data-testid="item-form"] [role="alert"]');
  await expect
    .poll(
      async () => {
        if ((await refused.count()) > 0) return `refused: ${await refused.first().textContent()}`;
        return page.getByTestId('item-code').inputValue();
      },
      { timeout: STEP_MS, interval: 50 },
    )
    .toBe('');
  await calculated(page);
}

/** On the payment screen, the calculation has answered (confirm is enabled again). */
export async function paymentReady(page: Page): Promise<void> {
  await page.locator('[data-testid="payment-confirm"]:not([disabled])').waitFor();
}

/** Opens the payment screen (the calculation must have answered). */
export async function toPayment(page: Page): Promise<void> {
  await calculated(page);
  await page.getByTestId('sale-pay').click();
  await page.getByTestId('screen-payment').waitFor();
}

/**
 * Confirms the payment and waits for the receipt; a refusal fails with its code, and a press
 * that sends nothing at all fails at once rather than at the timeout.
 */
export async function confirmPayment(page: Page, timeout = 20_000): Promise<void> {
  await page.getByTestId('payment-confirm').click();
  const error = page.locator('[data-testid="message"][data-kind="error"]');
  const receipt = page.getByTestId('screen-receipt');
  await page
    .getByTestId('status-busy')
    .or(receipt)
    .or(error)
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => {
      throw new Error('pressing Confirm sent nothing: no command ran, no receipt, no message');
    });
  await receipt.or(error).first().waitFor({ timeout });
  expect(await messageCode(page), 'the sale was refused').toBe('');
}

/** A JSON call to a URL with a bearer token (the sandbox's controls, the agent's API). */
export async function getJson(url: string, token: string): Promise<unknown> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every test id on the page with its text: what a failing step saw. */
export async function describePage(page: Page): Promise<string> {
  const rows = await page
    .locator('[data-testid]')
    .evaluateAll((els) =>
      els.map(
        (e) =>
          `${e.getAttribute('data-testid')}${e.getAttribute('data-state') ? `[${e.getAttribute('data-state')}]` : ''} = ${(e.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)}`,
      ),
    );
  return rows.join('\n');
}

/**
 * Runs one scenario on a fresh till. A failing step leaves test-results/<name>-failed.png and
 * the page's test ids in the error, so the report names what the screen showed.
 */
export async function onTill(
  name: string,
  config: Record<string, unknown>,
  scenario: (till: UiTill) => Promise<void>,
): Promise<void> {
  const till = await openUiTill(config);
  try {
    await scenario(till);
    expect(till.pageErrors, 'the page threw').toEqual([]);
  } catch (e) {
    const seen = await describePage(till.page).catch(() => '(the page is gone)');
    await screenshot(till.page, `${name}-failed`).catch(() => undefined);
    const thrown =
      till.pageErrors.length > 0 ? `\n--- the page threw ---\n${till.pageErrors.join('\n')}` : '';
    (e as Error).message += `${thrown}\n--- the page showed ---\n${seen}`;
    throw e;
  } finally {
    await till.close();
  }
}

/** The message line's code, or '' when none is shown. */
export async function messageCode(page: Page): Promise<string> {
  const code = page.getByTestId('message-code');
  return (await code.count()) > 0 ? ((await code.textContent()) ?? '').trim() : '';
}

/**
 * A sandbox central of our own (demo seed, its SQLite file in a temp directory), so a test
 * can read its /sandbox controls, stop it and start it again on the same port and file.
 */
export class OwnCentral {
  readonly dir: string;
  readonly db: string;
  port: number;
  private running: RunningCentral | null = null;
  /** The base URL it printed; the same after a restart (same port). */
  url = '';
  private constructor(dir: string, db: string, port: number) {
    this.dir = dir;
    this.db = db;
    this.port = port;
  }

  static async start(): Promise<OwnCentral> {
    const dir = mkdtempSync(join(tmpdir(), 'lt-ui-central-'));
    const c = new OwnCentral(dir, join(dir, 'central.sqlite'), 0);
    await c.restart();
    return c;
  }

  /** Starts it (again) on the same port and file. */
  async restart(): Promise<void> {
    if (this.running) return;
    this.running = await startCentral({ port: this.port, db: this.db, seed: 'demo', faultSeed: 1 });
    this.url = this.running.url;
    this.port = Number(new URL(this.url).port);
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.running = null;
    await r?.close();
  }

  /** Sets a good's price in the central's POS catalogue (the station changed its price). */
  setPrice(code: string, price: number): void {
    setCataloguePrice(this.running!, code, price);
  }

  /** Sets how the demo POS takes lines (`presets-only`: catalogue goods at its figures). */
  setEnterMode(mode: string): void {
    setEnterMode(this.running!, mode);
  }

  /** GET /sandbox/NAME with the demo terminal's API key. */
  async sandbox<T>(name: 'transactions' | 'balances'): Promise<T> {
    return (await getJson(`${this.url}/sandbox/${name}`, DEMO.apiKey)) as T;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// Keyboard only (the whole-shift test): a control is reached as Tab would reach it (it must be
// in the tab order: shown, enabled, tabIndex >= 0), then driven by keys alone.

/** Fails when the control is out of the keyboard's reach; else puts the focus on it. */
export async function focusByKeyboard(page: Page, testid: string): Promise<void> {
  const el = page.getByTestId(testid);
  await el.waitFor();
  const reach = await el.evaluate((e: { tabIndex: number; disabled?: boolean }) =>
    e.disabled ? 'disabled' : e.tabIndex < 0 ? 'out of the tab order' : 'ok',
  );
  if (reach !== 'ok') throw new Error(`${testid} cannot be reached from the keyboard: ${reach}`);
  await el.focus();
}

/** Enter on a button (or a form's field), reached from the keyboard. */
export async function pressEnterOn(page: Page, testid: string): Promise<void> {
  await focusByKeyboard(page, testid);
  await page.keyboard.press('Enter');
}

/** Replaces a field's text by typing, as a cashier does (select all, type). */
export async function typeInto(page: Page, testid: string, text: string): Promise<void> {
  await focusByKeyboard(page, testid);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  if (text !== '') await page.keyboard.type(text);
}

/** Moves a select to `value` with the arrow keys (bounded), never by a mouse. */
export async function chooseByKeys(page: Page, testid: string, value: string): Promise<void> {
  await focusByKeyboard(page, testid);
  const el = page.getByTestId(testid);
  const values = await el.evaluate((e: { options: ArrayLike<{ value: string }> }) =>
    Array.from(e.options, (o) => o.value),
  );
  const want = values.indexOf(value);
  if (want < 0) throw new Error(`${testid} has no option ${value} (${values.join(', ')})`);
  for (let i = 0; i < values.length; i++) {
    const now = values.indexOf(await el.inputValue());
    if (now === want) return;
    await page.keyboard.press(now < want ? 'ArrowDown' : 'ArrowUp');
  }
  expect(await el.inputValue(), `${testid} by the arrow keys`).toBe(value);
}
