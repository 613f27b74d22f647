// A pump's status change to the screen (issue 16, target p95 < 250 ms on the polled line): the
// headless agent in-process with its pumps on a real serial line (a socat pty pair, 9600 8O1)
// driven by the real DART master, the simulated forecourt (four pumps) on the other end, and
// the cashier's forecourt screen in Debian's Chromium. Each sample: a nozzle lifted or hung up
// at the simulator (the clock starts), the master's poll reads it, the till sends `pump-state`
// on the agent's event stream, the page's tile changes its state and the clock stops at the
// next animation frame. Both clocks are the machine's wall clock (performance.timeOrigin +
// now(), in Node and in the page). Also timed: the same change to the agent's event hub (the
// line, the master and the till, no browser).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { DEMO } from '../src/central/index.js';
import { DartSimulator, demoPumps } from '../src/devices/dart/simulator.js';
import { ManagedLink } from '../src/devices/link.js';
import { openSerial } from '../src/devices/serial.js';
import { startBenchAgent } from './agent.js';
import { percentile } from './stats.js';

const CHROMIUM = process.env.LT_CHROMIUM ?? '/usr/bin/chromium';
const SAMPLES = 120;
const WARMUP = 8;
const PUMPS = 4;
const TARGET_MS = 250;

const wallNow = () => performance.timeOrigin + performance.now();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Pty {
  a: string;
  b: string;
  stop(): void;
}

async function ptyPair(dir: string): Promise<Pty> {
  const a = join(dir, 'pumps-till');
  const b = join(dir, 'pumps-forecourt');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 300 && !(existsSync(a) && existsSync(b)); i++) await wait(10);
  if (!existsSync(a)) throw new Error('socat made no pty pair');
  return { a, b, stop: () => void socat.kill('SIGTERM') };
}

/** The simulated forecourt on its end of the line (the pumps' side, 9600 8O1). */
async function forecourt(path: string): Promise<{ sim: DartSimulator; stop(): Promise<void> }> {
  const link = new ManagedLink(
    () => openSerial({ path, baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1 }),
    { reconnectMinMs: 100, reconnectMaxMs: 400, livenessMs: 1_000 },
  );
  link.start();
  await link.waitOpen(3_000);
  const sim = new DartSimulator(demoPumps(PUMPS));
  const detach = sim.attach(link);
  return {
    sim,
    async stop() {
      detach();
      await link.stop();
    },
  };
}

// real pumps on the pty; no other device; the sandbox central in-process
const startAgent = (dir: string, line: string) =>
  startBenchAgent(dir, {
    devices: { pumps: { path: line, pumps: [1, 2, 3, 4] } },
    central: { pull_interval_ms: 600_000 },
  });

async function openForecourt(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('sign-in-code').fill(DEMO.authCodes.cashier);
  await page.getByTestId('sign-in-submit').click();
  const sale = page.getByTestId('screen-sale');
  const shift = page.getByTestId('screen-shift-open');
  await sale.or(shift).first().waitFor();
  if (await shift.isVisible()) {
    await page.getByTestId('shift-opening-cash').fill('100');
    await page.getByTestId('shift-open-submit').click();
  }
  await sale.waitFor();
  await page.keyboard.press('F10');
  for (let n = 1; n <= PUMPS; n++)
    await page.locator(`[data-testid="pump-${n}"][data-state="idle"]`).waitFor({ timeout: 15_000 });
  // Every tile's change of state, stamped at the next animation frame (the frame that paints it).
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    g.benchSeen = [];
    const root = g.document.querySelector('[data-testid="pumps"]');
    new g.MutationObserver((records) => {
      for (const r of records) {
        const state = r.target.getAttribute('data-state');
        const id = r.target.getAttribute('data-testid') ?? '';
        g.requestAnimationFrame(() =>
          g.benchSeen.push({ id, state, at: performance.timeOrigin + performance.now() }),
        );
      }
    }).observe(root, { attributes: true, attributeFilter: ['data-state'], subtree: true });
  });
}

/** Typed by what is used: the bench compiles without the DOM's types. */
interface PageElement {
  getAttribute(name: string): string | null;
}
interface PageGlobal {
  benchSeen: { id: string; state: string | null; at: number }[];
  document: { querySelector(s: string): PageElement };
  requestAnimationFrame(fn: () => void): void;
  MutationObserver: new (fn: (records: { target: PageElement }[]) => void) => {
    observe(el: PageElement, o: Record<string, unknown>): void;
  };
}

/** When the page painted pump `n` in `state`, after `since` (wall clock ms). */
async function painted(page: Page, n: number, state: string, since: number): Promise<number> {
  const handle = await page.waitForFunction(
    ([id, want, after]) => {
      const g = globalThis as unknown as PageGlobal;
      return g.benchSeen.find((s) => s.id === id && s.state === want && s.at >= after)?.at ?? 0;
    },
    [`pump-${n}`, state, since] as const,
    { polling: 50, timeout: 5_000 },
  );
  return (await handle.jsonValue()) as number;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

function report(label: string, xs: number[]): void {
  const s = [...xs].sort((a, b) => a - b);
  const p95 = percentile(s, 95);
  console.log(
    `${label}   median ${ms(percentile(s, 50))}   p95 ${ms(p95)}   max ${ms(s.at(-1) ?? 0)}   (n=${s.length})   target p95 < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'met' : 'MISSED'}`,
  );
}

export async function benchPumpScreen(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`pump status change -> screen painted: skipped (no Chromium at ${CHROMIUM})`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'lt-bench-pumps-'));
  const pty = await ptyPair(dir);
  const pumps = await forecourt(pty.b);
  const till = await startAgent(mkdtempSync(join(dir, 'till-')), pty.a);
  const profile = mkdtempSync(join(dir, 'profile-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    viewport: { width: 1024, height: 768 },
  });
  // the same change as the agent's event hub sends it (no browser)
  const hubSeen: { pump: number; state: string; at: number }[] = [];
  const off = till.agent.events.subscribe((name, payload) => {
    if (name !== 'pump-state') return;
    const p = payload as { pump: { pump: number; state: string } };
    hubSeen.push({ pump: p.pump.pump, state: p.pump.state, at: wallNow() });
  });
  try {
    const page = await browser.newPage();
    await openForecourt(page, till.agent.openUrl);
    const toScreen: number[] = [];
    const toHub: number[] = [];
    // each round: a nozzle lifted (idle -> calling), then hung up (calling -> idle), both timed
    for (let i = 0; i < (WARMUP + SAMPLES) / 2; i++) {
      const n = (i % PUMPS) + 1;
      for (const lift of [true, false]) {
        const want = lift ? 'calling' : 'idle';
        // a random phase of the poll cycle, as a person's hand would fall
        await wait(Math.random() * 60);
        const t0 = wallNow();
        if (lift) pumps.sim.lift(n);
        else pumps.sim.hangUp(n);
        const at = await painted(page, n, want, t0);
        const hub = hubSeen.find((h) => h.pump === n && h.state === want && h.at >= t0);
        if (i >= WARMUP / 2) {
          toScreen.push(at - t0);
          if (hub) toHub.push(hub.at - t0);
        }
      }
    }
    report(
      'DART: pump status change -> agent event hub (pty 9600 8O1, 4 pumps, real master)',
      toHub,
    );
    report(
      'DART: pump status change -> forecourt tile painted (pty, agent event stream, Chromium)',
      toScreen,
    );
  } finally {
    off();
    await browser.close();
    await till.stop();
    await pumps.stop();
    pty.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
