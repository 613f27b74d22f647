// Issue 16, point 7: the chaos test of the forecourt. Written apart from the code it tests, as
// an integrator sees the till: the built agent and the sandbox central run as child processes,
// the DART pump simulator runs here, in the test, on one end of a socat pty pair, and the agent
// drives the pumps over the other end as a real serial line (`devices.pumps`), so the pumps
// live on across the agent's kills like real pumps. The test is the drivers at the pumps (lift,
// dispense, hang up) and the cashier over HTTP: postpay fills released and sold as lines
// (`check.fills`), cash prepays by amount completed from their fill, fleet prepays (driver 1's
// access, PIN and odometer) capped by the access's day limit and completed from their fill,
// some fills recorded as drive-offs. The agent is SIGKILLed at random moments: while a pump is
// fuelling, right after a hang-up (before the till kept the fill), between a sale-process and
// its answer, and right after the answer (before the pump is cleared). Faults besides the
// kills: the sandbox central's faults (503, 429, resets, commits whose answer is dropped)
// switched on and off, the agent's link to the central cut for stretches of fills (the sales
// stand in offline and are delivered at the end), and DART line faults from the simulator
// (corrupt and cut blocks, NAKs, a pump silent for a moment, a pump switched off mid-fill, the
// till's totalizer read after a fill left unanswered), and the cashier stopping a pump mid-fill.
// Every sale goes under a client-made id and is sent again under it after a kill until it
// answers (sale-status says what happened first; the same id sent again gives the recorded
// answer, with the prepay's change). At the end it compares three ways: what the pumps
// dispensed and what the driver's books hold (the simulator's fills and totalizers, the cash
// and the fleet's spending), what the till knows (its fills, sales, drive-offs, the shift
// report's drawer and the fleet account it shows) and what the central holds (one
// process_check per sale, the fleet account's balance and the access's used limit).
//
// CHAOS_FILLS, CHAOS_FILL_KILLS size the run (default 20 and 6, the CI run); CHAOS_SEED
// replays the driver's choices (printed); CHAOS_FILL_MOMENTS=after-hang-up,fuelling aims the
// kills. Fails, never skips, without socat.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { seededRandom } from '../../src/central/faults.js';
import { DartSimulator, type SimPump } from '../../src/devices/dart/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { PtyPair } from '../devices/support/pty.js';
import { attachToPty } from '../devices/support/sim-host.js';
import { driver1Fleet } from '../terminal/helpers.js';
import {
  centralRecords,
  command,
  FAULTS_OFF,
  FAULTS_ON,
  Link,
  sandbox,
  simBooks,
  sleep,
  startChild,
  stopChild,
  type Child,
  type Json,
} from './harness.js';

const FILLS = Number(process.env.CHAOS_FILLS ?? 20);
const KILLS = Number(process.env.CHAOS_FILL_KILLS ?? 6);
// CHAOS_SEED replays a seed (printed); CHAOS_SEED=random draws one; the CI run is seed 12.
// Seed 1778721960 kept fills twice after kills (a restart read the next driver's nozzle).
const SEED_ASKED = process.env.CHAOS_SEED ?? '12';
const SEED = SEED_ASKED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(SEED_ASKED);
// A restart waits up to 30 s for its pumps (see pumpsOnline).
const TEST_MS = Math.max(300_000, FILLS * 6_000 + KILLS * 45_000);

const PUMPS = [1, 2, 3, 4];
/** The drawer's float at the shift's opening. */
const OPENING = 100;
/** What a fleet driver asks to prepay: more than driver 1's day limit (150) ever leaves. */
const FLEET_ASK = 200;
/** A bottle of water (WTR-1) sold beside a postpay fill, raw 0.01. */
const WATER = 149;
const FLEET_DAY_LIMIT = 15_000; // raw 0.01
/** Every 7th fill from the 3rd is a fleet prepay: at least a few per run, by design. */
const isFleetFill = (n: number) => n % 7 === 3;
/**
 * The fleet's rule: 3 cents off each litre (raw 0.001). A capped fleet prepay presets the pump
 * by the litres the cap buys at the fleet's price (docs/forecourt.md, "A prepay capped by the
 * account's limits"), so those litres at the pump's price less the cents off stay within it.
 */
const FLEET_CENTS_OFF = 30;
/**
 * The pump's preset is checked against each fleet prepay's cap (CHAOS_FLEET_CAP=0 turns it off).
 * It found the litres preset within the cap at the catalogue's price, not at the price the
 * simulated pump sold at while it was not told the catalogue's (1.799 against 1.789): a prepay
 * preset by volume now needs the pump's confirmed price to be the prepay's (docs/forecourt.md,
 * "A prepay capped by the account's limits"), and the run's pumps have their nozzles set up, so
 * the till tells them its prices.
 */
const FLEET_CAP = process.env.CHAOS_FLEET_CAP !== '0';
/**
 * The run's last fleet fills also run until the pump stops at its preset, and are completed
 * there (CHAOS_FLEET_TO_CAP=0 turns it off). It found a fill run to its preset between two
 * polls, after a fill on another nozzle of the same pump, reported under that nozzle and at its
 * price: fixed (the DART master's `fillFrom`).
 */
const FLEET_TO_CAP = FLEET_CAP && process.env.CHAOS_FLEET_TO_CAP !== '0';
/** DART faults the simulator plays during a fill. */
const DART_FAULTS = ['corrupt', 'cut', 'nak', 'silent', 'switch-off'] as const;
type DartFault = (typeof DART_FAULTS)[number];
/**
 * The simulator's unit prices per nozzle (raw, 3 decimals), as the registry's simulated pumps,
 * until the till tells them the catalogue's (Super 95 at 1.789).
 */
const PRICES = [1799, 1659, 1899];
/** Each pump's nozzles as the embedded default sets them up: Super 95, Diesel, Super Plus 98. */
const NOZZLES = Object.fromEntries(
  PUMPS.map((p) => [
    String(p),
    {
      '1': { goods_code: 'FUEL-95' },
      '2': { goods_code: 'DIESEL' },
      '3': { goods_code: 'FUEL-98' },
    },
  ]),
);
/**
 * A fleet prepay's preset stays within what it paid: by volume, the litres at the pump's price
 * less the fleet's cents off (raw 0.01 l x raw 0.001 = raw 0.00001, so / 1000 is raw 0.01).
 */
function presetWithin(
  preset: { volume: number } | { amount: number } | null,
  price: number,
  paid: number,
): boolean {
  if (!preset) return false;
  if ('amount' in preset) return preset.amount <= paid;
  return Math.round((preset.volume * (price - FLEET_CENTS_OFF)) / 1000) <= paid;
}
/** Where a kill lands in a fill's life. */
const ALL_MOMENTS = ['fuelling', 'after-hang-up', 'during-sale', 'after-answer'] as const;
type Moment = (typeof ALL_MOMENTS)[number];
/** CHAOS_FILL_MOMENTS (comma-separated) aims the kills at some moments only. */
const MOMENTS: readonly Moment[] = process.env.CHAOS_FILL_MOMENTS
  ? ALL_MOMENTS.filter((m) => process.env.CHAOS_FILL_MOMENTS!.split(',').includes(m))
  : ALL_MOMENTS;

/** One fill as the pump dispensed it (raw simulator integers: volume, amount 0.01). */
interface PumpFill {
  n: number;
  pump: number;
  nozzle: number;
  volume: number;
  amount: number;
  kind: 'postpay' | 'prepay' | 'card' | 'fleet' | 'drive-off';
  /**
   * The prepay's transaction and what was paid for it (raw 0.01), when prepaid: cash handed
   * over, pre-authorised on the card, or for a fleet prepay what its access allowed (the cap).
   */
  prepay?: { id: string; paid: number };
  dartFault?: DartFault;
  /** The cashier stopped the pump mid-fill (`pump-stop`); the driver hung up after. */
  stopped?: boolean;
  /** The pump left this many of the till's totalizer reads after the fill unanswered. */
  totalsUnanswered?: number;
  /** A postpay's tender, and the shop goods sold beside the fill (raw 0.01). */
  tender?: 'cash' | 'bank-card';
  /** The unpaid fill its pump held while this one ran (stacking). */
  stackedOn?: number;
  goods?: number;
  /** The link to the central was cut while this fill was sold. */
  offline?: boolean;
  kill?: Moment;
  /** The nozzle's volume totalizer moved this much from the release to the hang-up. */
  metered: number;
  /** The till's fill id, once the till lists it. */
  fillId?: string;
  /** The sale (or completion) that sold it, once answered; or the drive-off. */
  sale?: { id: string; check: Json; warnings?: Json[]; cash?: Json; subtype?: string };
  driveOff?: Json;
}

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let agent: Child | null = null;
let central: Child | null = null;
let link: Link | null = null;

afterAll(async () => {
  await stopChild(agent);
  await stopChild(central);
  await link?.close();
  for (const c of cleanups.reverse()) await c();
  if (!process.env.KEEP_CHAOS) for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);
/** A pump as the till shows it still shows a fill: finished, or stopped with fuel drawn. */
const showsFill = (p: Json) =>
  p.state === 'finished' || (p.state === 'stopped' && Number(p.filling?.volume ?? 0) > 0);
/** What a fill's sale asks: the fill and the shop goods beside it (raw 0.01). */
/**
 * What a fill is charged (raw 0.01): the pump's amount, less the fleet's 3 cents a litre on a
 * fleet prepay (raw 0.01 l x 3 / 100, rounded as the engine rounds a line's discount).
 */
const charged = (f: PumpFill) =>
  f.kind === 'fleet' ? f.amount - Math.round((f.volume * FLEET_CENTS_OFF) / 1000) : f.amount;
const total = (f: PumpFill) => charged(f) + (f.goods ?? 0);
const raw2 = (r: number) => (r / 100).toFixed(2);
/** A prepay's one fuel line, by amount (FUEL-95, the prepay nozzle's grade). */
const fuelByAmount = (amount: number) => ({
  code: 'FUEL-95',
  quantity: Number((amount / 1.789).toFixed(2)),
  amount,
  quantity_recalculate_type: 'recalculate-by-amount',
});

describe('the chaos run over the forecourt', () => {
  it(
    `sells every fill exactly once across ${FILLS} fills and ${KILLS} SIGKILLs (seed ${SEED})`,
    async () => {
      const started = Date.now();
      const random = seededRandom(SEED);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const chance = (p: number) => random() < p;
      console.log(
        `chaos fills: seed ${SEED} (CHAOS_SEED=${SEED} replays), ${FILLS} fills, ${KILLS} kills`,
      );

      const root = mkdtempSync(join(tmpdir(), 'lt-chaos-fills-'));
      dirs.push(root);
      const dbFile = join(root, 'central.db');
      const dataDir = join(root, 'till');
      mkdirSync(dataDir);

      // ---- the pumps: the simulator here, the agent's serial line at the pty's other end ----
      const sim = new DartSimulator(PUMPS.map((pump) => ({ pump, prices: [...PRICES] })));
      const pty = await PtyPair.open();
      cleanups.push(() => pty.close());
      // What the pumps were told: an AUTHORIZE applied to a pump already fuelling restarts its
      // fill (the simulator zeroes the running volume; the totalizer keeps counting).
      const midFill: string[] = [];
      const inner = sim as unknown as { cd1: (p: SimPump, command: string) => void };
      const cd1 = inner.cd1.bind(sim);
      inner.cd1 = (p, c) => {
        if (c === 'authorize' && p.status === 4)
          midFill.push(`pump ${p.pump} re-authorised at ${raw2(p.volume)} l`);
        cd1(p, c);
      };
      // A DART fault during the totalizer read that names a fill: the pump acknowledges the
      // till's CD101 and never answers it, this many times per pump (armed at a hang-up).
      const unansweredTotals = new Map<number, number>();
      let totalsDropped = 0;
      const cmd = sim as unknown as { command: (p: SimPump, t: { type: string }) => void };
      const command0 = cmd.command.bind(sim);
      cmd.command = (p, t) => {
        const left = unansweredTotals.get(p.pump) ?? 0;
        if (t.type === 'CD101' && left > 0) {
          unansweredTotals.set(p.pump, left - 1);
          totalsDropped++;
          return;
        }
        command0(p, t);
      };
      const simSide = attachToPty(sim, pty.b, 50);
      cleanups.push(() => simSide.stop());
      await simSide.link.waitOpen(5_000);

      central = await startChild(['central', '--port', '0', '--db', dbFile, '--seed', 'demo']);
      const creds = { url: central.info.url!, api_key: central.info.api_key! };
      // The agent reaches the central through a link the run cuts; the test reads the sandbox
      // straight.
      link = new Link({ port: Number(new URL(central.info.url!).port) });
      await link.listen();
      let faultsOn = false;
      let faultPhases = 0;
      const setFaults = async (on: boolean) => {
        await sandbox(creds, 'PUT', '/sandbox/faults', on ? FAULTS_ON : FAULTS_OFF);
        if (on && !faultsOn) faultPhases++;
        faultsOn = on;
      };
      const baseline = await sandbox(creds, 'GET', '/sandbox/transactions');
      const baselineIds = new Set<string>(
        (baseline.transactions as Json[]).map((t) => t.transaction_id as string),
      );
      const balancesBefore = await sandbox(creds, 'GET', '/sandbox/balances');
      const fleetBefore = cents(
        (balancesBefore.accounts as Json[]).find((a) => a.account_id === DEMO.accounts.fleet)
          ?.balance,
      );
      writeFileSync(
        join(dataDir, 'config.json'),
        JSON.stringify({
          central: {
            url: link.url,
            terminal_id: central.info.terminal_id,
            api_key: central.info.api_key,
            timeouts: {
              connect_ms: 300,
              headers_ms: 1_000,
              body_ms: 1_500,
              online_deadline_ms: 800,
            },
            retry: { base_ms: 50, max_ms: 1_000, drain_interval_ms: 1_000 },
          },
          // A real DART line on the pty, and the simulated card unit (its books kept on disk
          // in the data directory, so they outlive the kills).
          devices: {
            pumps: { path: pty.a, pumps: PUMPS, nozzles: NOZZLES },
            payment: { simulated: true },
          },
        }),
      );

      const problems: string[] = [];
      const fills: PumpFill[] = [];
      /** What the fleet's completed fills spent (raw 0.01): the books of the access. */
      const fleetUsedBooks = () =>
        fills.filter((f) => f.kind === 'fleet' && f.sale).reduce((t, f) => t + charged(f), 0);
      let kills = 0;
      let restarts = 0;
      let statusQueries = 0;
      let resends = 0;
      let offlineRetries = 0;
      let changedRetries = 0;
      let priceRetries = 0;
      let recordedAnswers = 0;
      /** Sales over the till's offline limit that waited for the link to come back. */
      let standinWaits = 0;
      /**
       * The ids of those sales: one whose online try had an unknown outcome is voided by the
       * till (docs/sync.md, "Unknown outcomes"), a cancel_check at the central when it landed.
       */
      const voided: string[] = [];
      /** How long each start took until every pump answered. */
      const onlineMs: number[] = [];
      const slowStarts: string[] = [];
      const killsAt = new Map<Moment, number>();

      const startAgent = async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            agent = await startChild(['agent', '--port', '0', '--data', dataDir], 30_000);
            return;
          } catch (e) {
            problems.push(`agent start attempt ${attempt} failed: ${(e as Error).message}`);
            if (attempt >= 3) throw e;
            await sleep(500);
          }
        }
      };
      const api = () => ({ url: agent!.info.url!, token: agent!.info.token! });
      /** One command; null when no answer came (the agent died under it). */
      const call = async (name: string, body: unknown) => {
        try {
          return await command(api(), name, body);
        } catch {
          return null;
        }
      };
      const ready = async () => {
        for (let i = 0; i < 50; i++) {
          const st = await command(api(), 'status', {});
          if (st.json.staff && st.json.shift) return;
          if (!st.json.staff)
            await command(api(), 'staff-sign-in', { auth_code: DEMO.authCodes.manager });
          else await command(api(), 'shift-open', { opening_cash: OPENING });
          await sleep(i < 5 ? 20 : 200);
        }
        throw new Error('could not sign in and open a shift within 50 tries');
      };
      const kill = async (at: Moment) => {
        kills++;
        killsAt.set(at, (killsAt.get(at) ?? 0) + 1);
        await stopChild(agent, 'SIGKILL');
      };
      const revive = async () => {
        await startAgent();
        restarts++;
        await ready();
        await pumpsOnline();
      };
      /** Polls the till's forecourt until `cond` holds (bounded); the last state either way. */
      const forecourtUntil = async (cond: (s: Json) => boolean, ms: number) => {
        const until = Date.now() + ms;
        let s: Json = {};
        while (Date.now() < until) {
          const r = await call('forecourt-state', {});
          if (r?.status === 200) {
            s = r.json;
            if (cond(s)) return s;
          }
          await sleep(100);
        }
        return s;
      };
      /**
       * A restarted till reads its pumps again before the cashier uses them; the time is
       * measured and printed. A pump still offline 30 s after a start on an answering line is a
       * problem: the master once dropped its status request when the line was still opening,
       * and the pump stayed offline until a nozzle was lifted (docs/forecourt.md, the master).
       */
      async function pumpsOnline() {
        const t0 = Date.now();
        const online = await forecourtUntil(
          (s) => (s.pumps as Json[] | undefined)?.every((p) => p.state !== 'offline') ?? false,
          30_000,
        );
        onlineMs.push(Date.now() - t0);
        if ((online.pumps as Json[] | undefined)?.some((p) => p.state === 'offline')) {
          const line = (await call('devices-state', {}))?.json.devices as Json[] | undefined;
          slowStarts.push(
            `${((online.pumps as Json[]) ?? []).filter((p) => p.state === 'offline').length} ` +
              `pumps offline 30 s after a start, the line ` +
              `${(line?.find((d) => d.kind === 'pumps')?.state as string | undefined) ?? '?'}`,
          );
        }
      }
      const simUntil = async (cond: () => boolean, ms: number) => {
        const until = Date.now() + ms;
        while (!cond() && Date.now() < until) await sleep(20);
        return cond();
      };

      await startAgent();
      await ready();
      await pumpsOnline();
      const totalsBefore = PUMPS.map((p) => sim.get(p).totals.map((t) => t.volume));

      /** A sale under its id, sent again under it after each kill until it answers. */
      const sell = async (f: PumpFill, body: Json, killAt: Moment | null, opMs: number) => {
        let id = uuidv7(Date.now());
        let input = { transaction_id: id, check: body };
        let killed: Promise<void> | null = null;
        let timer: NodeJS.Timeout | undefined;
        if (killAt === 'during-sale')
          timer = setTimeout(() => (killed = kill('during-sale')), random() * opMs * 1.2);
        let r = await call('sale-process', input);
        clearTimeout(timer);
        if (killAt === 'during-sale') {
          await (killed ?? kill('during-sale'));
          r = null; // whatever came, the run asks the restarted till
        } else if (killAt === 'after-answer' && r) await kill('after-answer');
        const answered = (json: Json) => {
          f.sale = {
            id,
            check: json.check as Json,
            warnings: json.warnings as Json[],
            cash: json.cash as Json | undefined,
            subtype: json.subtype as string,
          };
        };
        for (let round = 0; round < 10; round++) {
          if (r?.status === 200) return answered(r.json);
          if (r?.json.error?.code === 'standin-limit') {
            // More than the till may stand in for offline (a fleet fill run to its cap): the
            // cashier waits for the link and sells it again, under a new id (the refused one
            // is void).
            if (!link!.isUp) {
              standinWaits++;
              link!.restore();
              cutFor = 0;
            }
            await sleep(500);
            voided.push(id);
            id = uuidv7(Date.now());
            input = { transaction_id: id, check: body };
            r = await call('sale-process', input);
            continue;
          }
          if (r?.json.error?.code === 'transaction-voided') {
            // The till voided the id (its outcome unknown, the stand-in refused): the cashier
            // sells the fill again under a new id, as the refusal says.
            voided.push(id);
            if (!link!.isUp) {
              link!.restore();
              cutFor = 0;
            }
            id = uuidv7(Date.now());
            input = { transaction_id: id, check: body };
            r = await call('sale-process', input);
            continue;
          }
          if (r && r.status !== 200) {
            problems.push(`sale of fill ${f.n} (${f.kind}): ${r.status} ${JSON.stringify(r.json)}`);
            return;
          }
          if (agent!.proc.exitCode !== null || agent!.proc.signalCode !== null) await revive();
          statusQueries++;
          const st = await call('sale-status', { transaction_id: id });
          if (st?.status === 200 && st.json.state === 'committed') {
            // The sale is kept: the same id sent again answers what was recorded (the
            // prepay's change with it), as a cashier reprinting it would see.
            recordedAnswers++;
            const again = await call('sale-process', input);
            if (again?.status === 200) return answered(again.json);
            f.sale = { id, check: st.json.check as Json, subtype: st.json.subtype as string };
            problems.push(
              `fill ${f.n}: the kept sale sent again under its id answered ` +
                `${again?.status} ${JSON.stringify(again?.json)}`,
            );
            return;
          }
          resends++;
          r = await call('sale-process', input);
        }
        problems.push(`sale of fill ${f.n} never answered`);
      };

      const dartFaults = new Map<DartFault, number>();
      /**
       * A DART fault while the pump runs: broken or cut blocks and NAKs on the line (the
       * master asks again), the pump silent for a moment (offline on the till, back with its
       * fill), or switched off mid-fill and on again (its fill kept, finished).
       */
      const dartFaultNow = async (pump: number, fault: DartFault) => {
        dartFaults.set(fault, (dartFaults.get(fault) ?? 0) + 1);
        const k = 1 + Math.floor(random() * 3);
        if (fault === 'corrupt') sim.faults.corrupt += k;
        else if (fault === 'cut') sim.cut += k;
        else if (fault === 'nak') sim.faults.nak += k;
        else if (fault === 'silent') {
          sim.get(pump).silent = true;
          await sleep(300 + random() * 1_200);
          sim.get(pump).silent = false;
        } else {
          sim.switchOff(pump);
          await sleep(200 + random() * 800);
          sim.switchOn(pump);
        }
      };

      /** A postpay: cash or card, sometimes with a bottle of water from the shop beside it. */
      const sellPostpay = async (f: PumpFill, saleKill: Moment | null) => {
        f.tender = chance(0.3) ? 'bank-card' : 'cash';
        f.goods = chance(0.3) ? WATER : 0;
        const body: Json = { payment_type: f.tender, fills: [f.fillId] };
        if (f.goods > 0) body.check_items = [{ code: 'WTR-1', quantity: 1 }];
        await sell(f, body, saleKill, opMs);
      };
      /** A postpay fill left unpaid while the next fill runs on its pump, and how many. */
      let deferred: PumpFill | null = null;
      let stacked = 0;
      /**
       * The cashier's stops mid-fill (the driver hangs up after), and the releases asked of
       * such a pump while its nozzle was still up, all refused: its fill is not kept until the
       * nozzle is back, and the AUTHORIZE would take it off the pump unsold.
       */
      let stops = 0;
      let stoppedReleaseRefused = 0;

      // ---- the run: one fill at a time, on a pump picked at random ----
      let opMs = 300;
      let cuts = 0;
      /** Fills left until the cut link is restored (0: the link is up). */
      let cutFor = 0;
      let odometer = 120_600;
      /** Fleet prepays the till refused (the access had too little left), and capped right. */
      let fleetRefused = 0;
      let fleetCapped = 0;
      /** Fleet prepays capped short of what the books leave: cap of left. */
      const fleetShort: string[] = [];
      for (let n = 1; n <= FILLS; n++) {
        // The central's faults and the link: switched now and then, between fills.
        if (chance(0.2)) await setFaults(!faultsOn);
        if (cutFor > 0 && --cutFor === 0) link.restore();
        else if (link.isUp && chance(0.12)) {
          link.cut();
          cuts++;
          cutFor = 1 + Math.floor(random() * 3);
        }
        const drawnPump = pick(PUMPS);
        const pump = deferred ? deferred.pump : drawnPump;
        const kind: PumpFill['kind'] = isFleetFill(n)
          ? 'fleet'
          : chance(0.3)
            ? chance(0.35)
              ? 'card'
              : 'prepay'
            : chance(0.15)
              ? 'drive-off'
              : 'postpay';
        // A prepay's driver takes the prepaid grade's nozzle (1, FUEL-95): the till sends the
        // pump no allowed nozzles, and a cheaper grade would give more litres than the prepay's
        // line holds, which its completion refuses (a finding of this run, reported).
        const drawn = 1 + Math.floor(random() * PRICES.length);
        const prepaid = kind === 'prepay' || kind === 'card' || kind === 'fleet';
        const nozzle = prepaid ? 1 : drawn;
        const killAt =
          kills < KILLS && chance((KILLS - kills) / Math.max(1, FILLS - n + 1))
            ? pick(MOMENTS)
            : null;
        const dartFault = chance(0.4) ? pick(DART_FAULTS) : null;
        const cashierStops = chance(0.2);
        const totalsFault = chance(0.15) ? 1 + Math.floor(random() * 2) : 0;
        const f: PumpFill = { n, pump, nozzle, volume: 0, amount: 0, kind, metered: 0 };
        if (killAt) f.kill = killAt;
        if (dartFault) f.dartFault = dartFault;
        if (totalsFault) f.totalsUnanswered = totalsFault;
        if (deferred) f.stackedOn = deferred.n;
        if (!link.isUp) f.offline = true;

        // The cashier sells the prepay first, then the driver lifts the nozzle.
        if (kind === 'prepay') {
          const amount = pick([10, 15, 20, 30]);
          const id = uuidv7(Date.now());
          const r = await call('sale-process', {
            transaction_id: id,
            check: {
              transaction_type: 'preauthorization',
              payment_type: 'cash',
              check_items: [fuelByAmount(amount)],
            },
            cash_given: amount,
          });
          if (r?.status !== 200) {
            problems.push(`prepay of fill ${n}: ${r?.status} ${JSON.stringify(r?.json)}`);
            continue;
          }
          f.prepay = { id, paid: amount * 100 };
        } else if (kind === 'card') {
          // The card is pre-authorised for the amount; its completion books what was pumped.
          const amount = pick([20, 30, 40]);
          const id = uuidv7(Date.now());
          const r = await call('sale-process', {
            transaction_id: id,
            check: {
              transaction_type: 'preauthorization',
              payment_type: 'bank-card',
              check_items: [fuelByAmount(amount)],
            },
          });
          if (r?.status !== 200) {
            problems.push(`card prepay of fill ${n}: ${r?.status} ${JSON.stringify(r?.json)}`);
            continue;
          }
          f.prepay = { id, paid: amount * 100 };
        } else if (kind === 'fleet') {
          // Driver 1 asks for more than the access's day limit leaves: the till authorises
          // what is left (prepay-capped) and presets the pump there.
          const left = FLEET_DAY_LIMIT - fleetUsedBooks();
          const id = uuidv7(Date.now());
          odometer += 50;
          const r = await call('sale-process', {
            transaction_id: id,
            check: {
              ...driver1Fleet,
              odometer,
              special_account_pin: DEMO.pins.driver1,
              transaction_type: 'preauthorization',
              check_items: [fuelByAmount(FLEET_ASK)],
            },
          });
          if (r?.status !== 200) {
            // The till saw nothing left on the limit (see below, short): the driver goes.
            const code = r?.json.error?.code as string | undefined;
            if (code === 'limit-exceeded' || code === 'insufficient-funds') fleetRefused++;
            else
              problems.push(
                `fleet prepay of fill ${n} (${raw2(left)} left on the day limit, link ` +
                  `${link.isUp ? 'up' : 'cut'}): ${r?.status} ${JSON.stringify(r?.json)}`,
              );
            continue;
          }
          const cap = cents(r.json.check.amount_to_pay);
          const warned = ((r.json.warnings as Json[] | undefined) ?? []).some(
            (w) => w.code === 'prepay-capped',
          );
          // Capped at what the limit leaves, never over. Short is allowed: a sale the central
          // holds while the till still holds it too (stand-in still queued, or confirmed after
          // the last pull asked) counts twice until the next pull (docs/sync.md, "Holds").
          if (cap > left || !warned)
            problems.push(
              `fleet prepay of fill ${n}: authorised ${raw2(cap)} (capped warning ${warned}), ` +
                `the books leave ${raw2(left)} of the day limit`,
            );
          else if (cap < left) fleetShort.push(`${raw2(cap)} of ${raw2(left)}`);
          else fleetCapped++;
          f.prepay = { id, paid: cap };
        }
        const meterBefore = sim.get(pump).totals[nozzle - 1]!.volume;
        sim.lift(pump, nozzle);
        // A pump may miss a few polls on a loaded machine (offline for a moment, or not drained
        // before the AUTHORIZE: pump-not-drained), still be reading its last fill's totalizer
        // (pump-fill-unread), have changed since the till looked (pump-wrong-state), or not
        // have confirmed the till's prices yet after a start or a switch-off
        // (pump-price-unconfirmed, a prepay preset by volume): asked again, as a cashier would.
        let release: Awaited<ReturnType<typeof call>> = null;
        for (let i = 0; i < 120; i++) {
          release = f.prepay
            ? await call('pump-authorise', { pump, transaction_id: f.prepay.id })
            : await call('pump-release', { pump });
          const code = release?.json.error?.code;
          if (code === 'pump-price-unconfirmed') priceRetries++;
          else if (code === 'pump-offline' || code === 'pump-fill-unread') offlineRetries++;
          else if (code === 'pump-not-drained' || code === 'pump-wrong-state') changedRetries++;
          else break;
          await sleep(250);
        }
        if (release?.status !== 200) {
          problems.push(`release of fill ${n} on pump ${pump}: ${JSON.stringify(release?.json)}`);
          sim.hangUp(pump);
          continue;
        }
        if (!(await simUntil(() => sim.get(pump).status === 2, 5_000))) {
          problems.push(`pump ${pump} not authorised on the line for fill ${n}`);
          sim.hangUp(pump);
          continue;
        }

        const preset = sim.get(pump).preset;
        if (
          FLEET_CAP &&
          kind === 'fleet' &&
          !presetWithin(preset, sim.get(pump).prices[nozzle - 1]!, f.prepay!.paid)
        )
          problems.push(
            `fleet fill ${n}: the pump is preset to ${JSON.stringify(preset)}, the cap is ${raw2(f.prepay!.paid)}`,
          );
        // The driver fuels in steps; a prepay stops at its preset on its own. The last fleet
        // fill runs until its preset: the pump stops where the account does.
        const steps = 3 + Math.floor(random() * 6);
        const killStep = killAt === 'fuelling' ? Math.floor(random() * steps) : -1;
        const faultStep = dartFault ? Math.floor(random() * steps) : -1;
        const stopStep = cashierStops ? Math.floor(random() * steps) : -1;
        const toCap = FLEET_TO_CAP && kind === 'fleet' && n + 7 > FILLS;
        let down = false;
        for (let s = 0; s < steps && sim.get(pump).status !== 5; s++) {
          sim.dispense(pump, toCap ? 100_000 : 50 + Math.floor(random() * 250));
          if (s === faultStep) await dartFaultNow(pump, dartFault!);
          if (s === stopStep && !down && sim.get(pump).volume > 0) {
            // The cashier stops the pump mid-fill; the driver's nozzle is still up.
            const stop = await call('pump-stop', { pump });
            if (stop?.status === 200 && sim.get(pump).status === 5) {
              f.stopped = true;
              stops++;
              if (chance(0.5)) {
                await forecourtUntil(
                  (st) =>
                    (st.pumps as Json[] | undefined)?.find((x) => x.pump === pump)?.state ===
                    'stopped',
                  3_000,
                );
                const again = await call('pump-release', { pump });
                if (again?.status === 200)
                  problems.push(
                    `fill ${n}: pump ${pump} released while stopped with its nozzle up (its fill ` +
                      `${raw2(sim.get(pump).volume)} l not kept)`,
                  );
                else if (again) stoppedReleaseRefused++;
              }
            }
          }
          if (s === killStep) {
            await kill('fuelling');
            down = true;
            // Sometimes the till comes back while the pump still runs, sometimes after.
            if (chance(0.5)) {
              await revive();
              down = false;
            }
          }
          await sleep(30 + random() * 120);
        }
        const p = sim.get(pump);
        if (p.volume === 0) sim.dispense(pump, 100);
        if (totalsFault) unansweredTotals.set(pump, totalsFault);
        sim.hangUp(pump);
        f.volume = sim.get(pump).volume;
        f.amount = sim.get(pump).amount;
        f.metered = sim.get(pump).totals[nozzle - 1]!.volume - meterBefore;
        fills.push(f);
        if (f.metered !== f.volume)
          problems.push(
            `fill ${n} (pump ${pump}, kill ${killAt ?? 'none'}): the pump shows ${raw2(f.volume)} l, ` +
              `its totalizer moved ${raw2(f.metered)} l (the pump restarted the fill mid-way)`,
          );
        if (killAt === 'after-hang-up') {
          await sleep(random() * 300);
          await kill('after-hang-up');
          down = true;
        }
        if (down) await revive();

        // The till lists the fill: the unpaid one on this pump with the pump's figures.
        const listed = await forecourtUntil(
          (s) =>
            (s.unpaid as Json[]).some(
              (u) => u.pump === pump && u.nozzle === nozzle && cents(u.volume) === f.volume,
            ),
          15_000,
        );
        const mine = ((listed.unpaid as Json[] | undefined) ?? []).filter(
          (u) => u.pump === pump && u.nozzle === nozzle && cents(u.volume) === f.volume,
        );
        if (mine.length !== 1) {
          problems.push(
            `fill ${n} (pump ${pump} nozzle ${nozzle}, ${raw2(f.volume)} l, kill ${killAt ?? 'none'}, ` +
              `DART ${dartFault ?? 'none'}, stopped ${f.stopped ?? false}, totalizer reads ` +
              `unanswered ${totalsFault}): ` +
              `the till lists ${mine.length}; its pump shows ${JSON.stringify(
                (listed.pumps as Json[] | undefined)?.find((x) => x.pump === pump),
              )}`,
          );
          if (mine.length === 0) continue;
        }
        const u = mine[0]!;
        f.fillId = u.id as string;
        if (cents(u.amount) !== f.amount)
          problems.push(`fill ${n}: the till lists ${u.amount}, the pump ${raw2(f.amount)}`);
        if ((u.authorisation_id ?? null) !== (f.prepay?.id ?? null))
          problems.push(`fill ${n}: authorisation ${u.authorisation_id}, want ${f.prepay?.id}`);

        // The cashier sells it (or records the drive-off).
        const saleKill = killAt === 'during-sale' || killAt === 'after-answer' ? killAt : null;
        const t0 = Date.now();
        if (kind === 'drive-off') {
          let r = await call('pump-drive-off', { fill_id: f.fillId, comment: 'chaos' });
          if (saleKill) {
            await kill(saleKill);
            await revive();
            if (!r) r = await call('pump-drive-off', { fill_id: f.fillId, comment: 'chaos' });
          }
          if (r?.status === 200) f.driveOff = r.json.fill as Json;
          else if (
            r?.json.error?.code === 'fill-not-unpaid' &&
            r.json.error.details?.state === 'drive-off'
          )
            f.driveOff = { id: f.fillId, state: 'drive-off' };
          else problems.push(`drive-off of fill ${n}: ${r?.status} ${JSON.stringify(r?.json)}`);
        } else if (f.prepay) {
          await sell(
            f,
            {
              transaction_type: 'completion',
              preliminary_transaction_id: f.prepay.id,
              fills: [f.fillId],
            },
            saleKill,
            opMs,
          );
        } else if (
          !deferred &&
          !saleKill &&
          // A fill switched off mid-fill too: the till once kept it twice when the next
          // driver's lift was read while the pump was being released (fixed; seed 12, fills 11
          // and 12, docs/forecourt.md "A fill on show is not read again ...").
          // At least one per run: the first postpay that may be after half the run.
          (chance(0.2) || (stacked === 0 && n > FILLS / 2))
        ) {
          // The driver pays later: the pump holds this unpaid fill while the next driver
          // fuels at it (stacking), then both are sold, the newer first.
          deferred = f;
          stacked++;
        } else await sellPostpay(f, saleKill);
        if (agent!.proc.exitCode !== null || agent!.proc.signalCode !== null) await revive();
        if (!saleKill) opMs = opMs * 0.8 + (Date.now() - t0) * 0.2;
        if (deferred && deferred !== f) {
          await sellPostpay(deferred, null);
          deferred = null;
        }
      }
      if (deferred) await sellPostpay(deferred, null);

      // ---- the end: the link back, faults off, everything drained to the central ----
      link.restore();
      await setFaults(false);
      let drained = false;
      let last: Json = {};
      for (let i = 0; i < 60 && !drained; i++) {
        const r = await command(api(), 'sync-now', {}, 30_000);
        last = r.json;
        drained = r.status === 200 && r.json.sync?.outbox_depth === 0;
        if (!drained) await sleep(250);
      }
      expect.soft(drained, `the outbox did not drain: ${JSON.stringify(last)}`).toBe(true);
      const rejected = (last.sync?.outbox_rejected as number | undefined) ?? 0;
      if (rejected !== 0) {
        const att = await command(api(), 'attention-list', {});
        problems.push(`rejected by the central: ${JSON.stringify(att.json).slice(0, 1_500)}`);
      }

      // ---- (a) the pumps against the till: every fill known once, litres per nozzle ----
      // A sold fill's pump is cleared after the sale's answer, on its own: given a moment.
      const end = await forecourtUntil(
        (s) =>
          ((s.unpaid as Json[] | undefined)?.length ?? 1) === 0 &&
          ((s.pumps as Json[] | undefined)?.every((p) => !showsFill(p)) ?? false),
        10_000,
      );
      const unpaidAtEnd = (end.unpaid as Json[]) ?? [];
      const lost = fills.filter((f) => !f.fillId).map((f) => `fill ${f.n} (kill ${f.kill})`);
      const ids = fills.flatMap((f) => (f.fillId ? [f.fillId] : []));
      const sameId = ids.filter((id, i) => ids.indexOf(id) !== i);
      // A fill the till lists that no fill of the pumps' is: a fill kept twice.
      const doubled = unpaidAtEnd
        .filter((u) => !ids.includes(u.id as string))
        .map((u) => `${u.id} pump ${u.pump} ${u.volume} l`);
      const nozzleRows: string[] = [];
      const nozzleMismatch: string[] = [];
      for (const [pi, pump] of PUMPS.entries())
        for (let nz = 1; nz <= PRICES.length; nz++) {
          const delta = sim.get(pump).totals[nz - 1]!.volume - totalsBefore[pi]![nz - 1]!;
          const at = fills.filter((f) => f.pump === pump && f.nozzle === nz);
          const books = at.reduce((s, f) => s + f.volume, 0);
          const till = at.filter((f) => f.fillId).reduce((s, f) => s + f.volume, 0);
          const tillCount = at.filter((f) => f.fillId).length;
          if (delta === 0 && at.length === 0) continue;
          nozzleRows.push(
            `pump ${pump} nozzle ${nz}: totalizer +${raw2(delta)} l, pumps' fills ${at.length} ` +
              `(${raw2(books)} l), till ${tillCount} (${raw2(till)} l)`,
          );
          if (delta !== books || delta !== till || tillCount !== at.length)
            nozzleMismatch.push(nozzleRows.at(-1)!);
        }

      // ---- (b) every fill sold once, or a drive-off; the sale's figures the pump's ----
      const unsold = fills
        .filter((f) => f.fillId && !f.sale && !f.driveOff)
        .map((f) => `fill ${f.n} (${f.kind}, kill ${f.kill})`);
      const figures: string[] = [];
      let changesChecked = 0;
      for (const f of fills.filter((x) => x.sale)) {
        const c = f.sale!.check;
        // The fill's line comes after the caller's lines.
        const line = (c.check_items as Json[]).at(-1)!;
        if (f.prepay) {
          if (cents(c.amount_to_pay) !== charged(f))
            figures.push(
              `completion of fill ${f.n}: books ${raw2(charged(f))}, till ${c.amount_to_pay}, pumped ${raw2(f.amount)}`,
            );
          if (cents(line.processed_amount ?? line.amount) !== f.amount)
            figures.push(`completion of fill ${f.n}: line ${JSON.stringify(line)}`);
          // The change, from the sale as answered or as recorded (sent again under its id
          // after a kill): the cash handed over less the fill. A fleet prepay gives none.
          if (f.kind === 'prepay') {
            const want = f.prepay.paid - f.amount;
            const cash = f.sale!.cash;
            if (!cash || cents(cash.given) !== f.prepay.paid || cents(cash.change) !== want)
              figures.push(
                `completion of fill ${f.n} (kill ${f.kill ?? 'none'}): cash ${JSON.stringify(cash)}, ` +
                  `want given ${raw2(f.prepay.paid)} change ${raw2(want)}`,
              );
            const warned = f.sale!.warnings?.find((w) => w.code === 'change-due');
            const told = warned
              ? cents(/give back ([\d.]+)/.exec(warned.message as string)?.[1])
              : 0;
            if (f.sale!.warnings && told !== want)
              figures.push(`completion of fill ${f.n}: told ${told / 100}, want ${raw2(want)}`);
            if (cash) changesChecked++;
          } else if (f.sale!.cash)
            figures.push(
              `${f.kind} completion of fill ${f.n}: cash ${JSON.stringify(f.sale!.cash)}`,
            );
        } else {
          if (cents(c.amount_to_pay) !== total(f) || cents(line.amount) !== f.amount)
            figures.push(
              `sale of fill ${f.n}: ${c.amount_to_pay} (fill line ${line.amount}), pumped ` +
                `${raw2(f.amount)}, goods ${raw2(f.goods ?? 0)}`,
            );
          if (Math.round(Number(line.quantity) * 100) !== f.volume)
            figures.push(`sale of fill ${f.n}: ${line.quantity} l, pumped ${raw2(f.volume)}`);
        }
      }
      // A sold fill sold again under a new id is refused, naming the sale that took it.
      const again: string[] = [];
      for (const f of fills.filter((x) => x.sale && !x.prepay).slice(0, 3)) {
        const r = await command(api(), 'sale-process', {
          transaction_id: uuidv7(Date.now()),
          check: { payment_type: 'cash', fills: [f.fillId] },
        });
        if (
          r.json.error?.code !== 'fill-not-unpaid' ||
          r.json.error.details?.transaction_id !== f.sale!.id
        )
          again.push(`fill ${f.n} sold again: ${r.status} ${JSON.stringify(r.json)}`);
      }
      const report = (await command(api(), 'shift-report', {})).json.report as Json;
      const drives = fills.filter((f) => f.driveOff);
      const driveBooks = {
        count: drives.length,
        litres: raw2(drives.reduce((s, f) => s + f.volume, 0)),
        amount: raw2(drives.reduce((s, f) => s + f.amount, 0)),
      };
      const driveTill = {
        count: (report.drive_offs?.count as number | undefined) ?? 0,
        litres: Number(report.drive_offs?.litres ?? 0).toFixed(2),
        amount: Number(report.drive_offs?.amount ?? 0).toFixed(2),
      };
      // Pumps still showing a fill (sold or not) at the end: none should.
      const stillShown = ((end.pumps as Json[]) ?? [])
        .filter(showsFill)
        .map((p) => `pump ${p.pump} ${p.state as string} ${JSON.stringify(p.filling)}`);

      // ---- (c) the central: exactly one sale per sold fill, at the pump's amount ----
      const server = (await sandbox(creds, 'GET', '/sandbox/transactions')).transactions as Json[];
      const fresh = server.filter(
        (t) => !baselineIds.has(t.transaction_id as string) && t.operation === 'process_check',
      );
      const sold = fills.filter((f) => f.sale);
      const saleIds = new Set(sold.map((f) => f.sale!.id));
      const centralWrong: string[] = [];
      for (const f of sold) {
        const rows = fresh.filter((t) => t.transaction_id === f.sale!.id);
        if (rows.length !== 1)
          centralWrong.push(`fill ${f.n}: ${rows.length} sales at the central`);
        else if (cents(rows[0]!.check?.amount_to_pay) !== total(f))
          centralWrong.push(
            `fill ${f.n}: central ${rows[0]!.check?.amount_to_pay}, pumped ${raw2(f.amount)}`,
          );
      }
      const prepayIds = new Set(fills.flatMap((f) => (f.prepay ? [f.prepay.id] : [])));
      /** A voided sale that landed at the central is cancelled there: no stranger. */
      const cancelledThere = (id: string) =>
        server.some((t) => t.operation === 'cancel_check' && JSON.stringify(t).includes(id));
      const strangers = fresh
        .filter((t) => !saleIds.has(t.transaction_id as string))
        .filter(
          (t) =>
            !(
              voided.includes(t.transaction_id as string) &&
              cancelledThere(t.transaction_id as string)
            ),
        )
        .map(
          (t) =>
            `${t.transaction_id}${prepayIds.has(t.transaction_id as string) ? ' (a prepay)' : ''}`,
        );

      // ---- (d) each kind of money three ways: the books, the till's report, the central ----
      const moneyRows: string[] = [];
      const moneyWrong: string[] = [];
      const sum = (xs: PumpFill[]) => xs.reduce((t, f) => t + total(f), 0);
      const centralSum = (xs: PumpFill[]) =>
        xs.reduce(
          (t, f) =>
            t +
            fresh
              .filter((r) => r.transaction_id === f.sale!.id)
              .reduce((u, r) => u + cents(r.check?.amount_to_pay), 0),
          0,
        );
      const paid = (type: string) =>
        cents((report.payments as Json[]).find((p) => p.type === type)?.amount);
      const threeWays = (what: string, xs: PumpFill[], till: number | null, extra = '') => {
        const books = sum(xs);
        const there = centralSum(xs);
        const offline = xs.filter((f) => f.sale?.subtype === 'offline').length;
        moneyRows.push(
          `${what}: ${xs.length} sold (${offline} offline), books ${raw2(books)}, ` +
            `central ${raw2(there)}${till === null ? '' : `, till ${raw2(till)}`}${extra}`,
        );
        if (books !== there || (till !== null && till !== books))
          moneyWrong.push(moneyRows.at(-1)!);
      };
      const postpays = sold.filter((f) => f.kind === 'postpay' && f.tender === 'cash');
      const cardPostpays = sold.filter((f) => f.kind === 'postpay' && f.tender === 'bank-card');
      const withGoods = sold.filter((f) => (f.goods ?? 0) > 0).length;
      const cashPrepays = sold.filter((f) => f.kind === 'prepay');
      const fleetFills = sold.filter((f) => f.kind === 'fleet');
      threeWays(
        'cash postpay',
        postpays,
        null,
        `; ${withGoods} sales of all kinds with shop goods`,
      );
      const cashPaid = cashPrepays.reduce((t, f) => t + f.prepay!.paid, 0);
      threeWays(
        'cash prepay',
        cashPrepays,
        null,
        `; prepaid ${raw2(cashPaid)}, change books ${raw2(cashPaid - sum(cashPrepays))} ` +
          `(checked on ${changesChecked} of ${cashPrepays.length} answers, kills included)`,
      );
      // The till's cash takings are the postpay sales and the prepays' completions together.
      const tillCash = paid('cash');
      moneyRows.push(
        `cash sales: books ${raw2(sum(postpays) + sum(cashPrepays))}, till ${raw2(tillCash)}`,
      );
      if (tillCash !== sum(postpays) + sum(cashPrepays)) moneyWrong.push(moneyRows.at(-1)!);
      threeWays('fleet prepay', fleetFills, paid('corporate-special-account'));
      // Card prepays: the unit's journal (pre-authorisations, their bookings) against the books,
      // the central's card rows and the till's card takings.
      const cardFills = sold.filter((f) => f.kind === 'card');
      const cardAsked = fills.filter((f) => f.kind === 'card' && f.prepay);
      const unit = ((await simBooks(dataDir)).zvt as Json[] | undefined) ?? [];
      const preAuths = unit.filter((o) => o.kind === 'pre-auth' && !o.reversed);
      const bookings = unit.filter((o) => o.kind === 'book-total' && !o.reversed);
      const booked = new Set(bookings.map((o) => o.refers_to));
      const openPreAuths = preAuths.filter((o) => !booked.has(o.receipt_no)).length;
      const unitSum = (xs: Json[]) => xs.reduce((t, o) => t + (o.amount_cents as number), 0);
      // A reversal pairs with the charge it took back (a charge a kill left without its sale,
      // reversed at start): that is the till keeping its books, not a stray operation.
      const reversedReceipts = new Set(unit.filter((o) => o.reversed).map((o) => o.receipt_no));
      const pairedReversal = (o: Json) =>
        (o.kind === 'reversal' || o.kind === 'pre-auth-reversal') &&
        reversedReceipts.has(o.refers_to);
      const otherOps = unit.filter(
        (o) =>
          !['pre-auth', 'book-total', 'purchase'].includes(o.kind as string) &&
          !o.reversed &&
          !pairedReversal(o),
      );
      const cardRows = server.filter(
        (t) =>
          !baselineIds.has(t.transaction_id as string) &&
          t.operation === 'bank_card_payments' &&
          t.status === 'success',
      );
      // Money back (a charge a kill left without its sale, reversed at start) counts against.
      const signOf = (op: unknown) =>
        op === 'purchase' || op === 'completion' ? 1 : op === 'cancel' || op === 'refund' ? -1 : 0;
      const centralCard = cardRows.reduce(
        (t, r) => t + signOf(r.operation_type) * cents(r.amount),
        0,
      );
      threeWays('card postpay', cardPostpays, null);
      const cardTill = paid('bank-card');
      moneyRows.push(
        `card sales: books ${raw2(sum(cardPostpays) + sum(cardFills))}, till ${raw2(cardTill)}`,
      );
      if (cardTill !== sum(cardPostpays) + sum(cardFills)) moneyWrong.push(moneyRows.at(-1)!);
      const purchases = unit.filter((o) => o.kind === 'purchase' && !o.reversed);
      threeWays(
        'card prepay',
        cardFills,
        null,
        `; unit: pre-authorised ${preAuths.length} (${raw2(unitSum(preAuths))}, books ` +
          `${raw2(cardAsked.reduce((t, f) => t + f.prepay!.paid, 0))}), booked ${bookings.length} ` +
          `(${raw2(unitSum(bookings))}), open ${openPreAuths}, purchases ${purchases.length} ` +
          `(${raw2(unitSum(purchases))}, card postpays ${raw2(sum(cardPostpays))}), ` +
          `reversed ${unit.filter((o) => o.reversed).length} (paired ${unit.filter(pairedReversal).length}), ` +
          `other operations ${otherOps.length}; ` +
          `central card rows ${cardRows.length} (${raw2(centralCard)})`,
      );
      if (
        preAuths.length !== cardAsked.length ||
        unitSum(preAuths) !== cardAsked.reduce((t, f) => t + f.prepay!.paid, 0) ||
        bookings.length !== cardFills.length ||
        unitSum(bookings) !== sum(cardFills) ||
        centralCard !== sum(cardFills) + sum(cardPostpays) ||
        purchases.length !== cardPostpays.length ||
        unitSum(purchases) !== sum(cardPostpays) ||
        openPreAuths !== 0 ||
        otherOps.length !== 0
      )
        moneyWrong.push(moneyRows.at(-1)!);

      // The drawer: the float, the postpay cash, the cash prepaid less the change given back.
      const prepaidOpen = fills
        .filter((f) => f.kind === 'prepay' && f.prepay && !f.sale)
        .reduce((t, f) => t + f.prepay!.paid, 0);
      const drawerBooks = OPENING * 100 + sum(postpays) + cashPaid - (cashPaid - sum(cashPrepays));
      const drawerTill = {
        expected: cents(report.expected_cash),
        prepaid: cents(report.pump_prepaid_cash),
      };
      moneyRows.push(
        `drawer: books ${raw2(drawerBooks + prepaidOpen)} (float ${OPENING}.00 + postpay ` +
          `${raw2(sum(postpays))} + prepaid ${raw2(cashPaid + prepaidOpen)} - change ` +
          `${raw2(cashPaid - sum(cashPrepays))}), till expected_cash ${raw2(drawerTill.expected)}; ` +
          `prepaid at the pumps books ${raw2(prepaidOpen)}, till ${raw2(drawerTill.prepaid)}`,
      );
      if (drawerTill.expected !== drawerBooks + prepaidOpen || drawerTill.prepaid !== prepaidOpen)
        moneyWrong.push(moneyRows.at(-1)!);

      // The fleet: the account's balance and the access's day limit, three ways.
      const fleetUsed = fleetUsedBooks();
      const balancesAfter = await sandbox(creds, 'GET', '/sandbox/balances');
      const fleetThere = cents(
        (balancesAfter.accounts as Json[]).find((a) => a.account_id === DEMO.accounts.fleet)
          ?.balance,
      );
      const access = centralRecords(dbFile, 'corporate_access').find(
        (a) => a.id === DEMO.accesses.driver1,
      );
      const usedThere = cents(access?.limits?.user_day_limit_used);
      const shown = (
        (await command(api(), 'customer-identify', { id: DEMO.cards.driver1, id_type: 'card' }))
          .json.customer?.special_accounts as Json[] | undefined
      )?.find((a) => a.id === DEMO.accesses.driver1)?.available;
      const shownTill = shown == null ? null : cents(shown);
      moneyRows.push(
        `fleet account: balance books ${raw2(fleetBefore - fleetUsed)}, central ${raw2(fleetThere)}; ` +
          `driver 1's day limit used books ${raw2(fleetUsed)}, central ${raw2(usedThere)}; left ` +
          `books ${raw2(FLEET_DAY_LIMIT - fleetUsed)}, till shows ${shownTill === null ? '?' : raw2(shownTill)}; ` +
          `prepays capped at what is left ${fleetCapped}, short ${fleetShort.length}` +
          `${fleetShort.length > 0 ? ` (${fleetShort.join(', ')})` : ''}, refused ${fleetRefused}; ` +
          `preset checked against the cap ${FLEET_CAP ? 'yes' : 'no (CHAOS_FLEET_CAP=0)'}, ` +
          `run to the cap ${FLEET_TO_CAP ? 'yes' : 'no (CHAOS_FLEET_TO_CAP=0)'}`,
      );
      if (
        fleetThere !== fleetBefore - fleetUsed ||
        usedThere !== fleetUsed ||
        shownTill !== FLEET_DAY_LIMIT - fleetUsed
      )
        moneyWrong.push(moneyRows.at(-1)!);
      moneyRows.push(
        `drive-offs: books ${driveBooks.count} (${driveBooks.litres} l, ${driveBooks.amount}), ` +
          `till ${driveTill.count} (${driveTill.litres} l, ${driveTill.amount}); central none`,
      );
      const lc = link.counts;
      moneyRows.push(
        `faults: central fault phases ${faultPhases}, link cuts ${cuts} (5xx ${lc.errors_5xx}, ` +
          `429 ${lc.rate_limited_429}, dropped answers ${lc.dropped_answers}, cut connections ` +
          `${lc.cut_connections}); DART ${[...dartFaults].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; ` +
          `totalizer reads left unanswered ${totalsDropped} (on ${fills.filter((f) => f.totalsUnanswered).length} fills); ` +
          `cashier's stops mid-fill ${stops} (a release asked with the nozzle up, refused ${stoppedReleaseRefused}); ` +
          `fills sold while the link was cut ${fills.filter((f) => f.offline && f.sale).length}, ` +
          `recorded answers read after a kill ${recordedAnswers}, sales over the offline ` +
          `limit that waited for the link ${standinWaits}; ids the till voided, sold again ` +
          `under a new id ${voided.length} (` +
          `cancelled at the central ${voided.filter(cancelledThere).length})`,
      );

      const summary =
        `chaos fills summary: seed ${SEED}; fills ${fills.length} (postpay ` +
        `${fills.filter((f) => f.kind === 'postpay').length} (card ${cardPostpays.length}), cash prepay ${fills.filter((f) => f.kind === 'prepay').length}, ` +
        `fleet prepay ${fills.filter((f) => f.kind === 'fleet').length}, ` +
        `drive-off ${drives.length}; stacked on an unpaid fill ${stacked}); kills ${kills} (${[...killsAt].map(([k, v]) => `${k} ${v}`).join(', ')}), ` +
        `restarts ${restarts}, sale-status ${statusQueries}, same-id resends ${resends}, ` +
        `releases asked again of a pump offline for a moment ${offlineRetries}, ` +
        `of a pump not drained or changed since the till looked ${changedRetries}, ` +
        `prepays asked again of a pump whose prices were not confirmed yet ${priceRetries}, ` +
        `pumps online after a start in at most ${Math.max(0, ...onlineMs)} ms; ` +
        `sold ${sold.length}, lost ${lost.length}, doubled ${doubled.length + sameId.length}, ` +
        `unsold ${unsold.length}; central sales ${fresh.length}; ${Math.round((Date.now() - started) / 1000)} s`;
      console.log(summary);
      console.log(`chaos fills nozzles:\n  ${nozzleRows.join('\n  ')}`);
      console.log(`chaos fills money:\n  ${moneyRows.join('\n  ')}`);
      // A fill kept twice: the fills of its pump, in order, to read what led to it.
      for (const u of unpaidAtEnd.filter((x) => !ids.includes(x.id as string)))
        console.log(
          `chaos fills pump ${u.pump} (a copy ${JSON.stringify(u)}):\n  ` +
            fills
              .filter((f) => f.pump === u.pump)
              .map(
                (f) =>
                  `fill ${f.n} ${f.kind} nozzle ${f.nozzle} ${raw2(f.volume)} l, kill ` +
                  `${f.kill ?? 'none'}, DART ${f.dartFault ?? 'none'}${f.stackedOn ? `, on fill ${f.stackedOn}` : ''}` +
                  `${f.fillId ? `, till ${f.fillId}` : ''}`,
              )
              .join('\n  '),
        );
      if (midFill.length > 0) problems.push(...midFill);
      if (slowStarts.length > 0) problems.push(...slowStarts);
      if (problems.length > 0) console.log(`chaos fills problems:\n  ${problems.join('\n  ')}`);

      expect.soft(lost, 'fills the pumps finished that the till never listed').toEqual([]);
      expect.soft(doubled, 'fills the till kept twice (a copy no pump finished)').toEqual([]);
      expect.soft(sameId, 'one till fill for two of the pumps’ fills').toEqual([]);
      expect.soft(nozzleMismatch, 'litres per nozzle: totalizer vs fills vs till').toEqual([]);
      expect.soft(unsold, 'fills neither sold nor recorded as a drive-off').toEqual([]);
      expect
        .soft(
          unpaidAtEnd.filter((u) => ids.includes(u.id as string)),
          'fills still unpaid at the end',
        )
        .toEqual([]);
      expect.soft(figures, 'sales whose figures are not the pump’s').toEqual([]);
      expect.soft(again, 'a sold fill sold again').toEqual([]);
      expect.soft(driveTill, 'drive-offs: the till’s shift report').toEqual(driveBooks);
      expect.soft(centralWrong, 'sold fills at the central').toEqual([]);
      expect.soft(strangers, 'sales at the central no fill was sold by').toEqual([]);
      expect.soft(moneyWrong, 'money three ways: books, till, central').toEqual([]);
      expect.soft(stillShown, 'pumps still showing a fill at the end').toEqual([]);
      expect.soft(problems, 'refusals, unanswered commands, failed restarts').toEqual([]);
      expect(kills).toBeGreaterThanOrEqual(Math.min(KILLS, FILLS));
      expect(fills.length).toBeGreaterThan(0);
    },
    TEST_MS,
  );
});
