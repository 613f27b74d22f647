// Issue 16, point 7: the chaos test of the forecourt. Written apart from the code it tests, as
// an integrator sees the till: the built agent and the sandbox central run as child processes,
// the DART pump simulator runs here, in the test, on one end of a socat pty pair, and the agent
// drives the pumps over the other end as a real serial line (`devices.pumps`), so the pumps
// live on across the agent's kills like real pumps. The test is the drivers at the pumps (lift,
// dispense, hang up) and the cashier over HTTP: postpay fills released and sold as lines
// (`check.fills`), cash prepays by amount completed from their fill, some fills recorded as
// drive-offs. The agent is SIGKILLed at random moments: while a pump is fuelling, right after
// a hang-up (before the till kept the fill), between a sale-process and its answer, and right
// after the answer (before the pump is cleared). Every sale goes under a client-made id and is
// sent again under it after a kill until it answers (sale-status says what happened first).
// At the end it compares three ways: what the pumps dispensed (the simulator's fills and its
// totalizers), what the till knows (its fills, sales and drive-offs) and what the central holds.
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
import {
  command,
  sandbox,
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
/** The simulator's unit prices per nozzle (raw, 3 decimals), as the registry's simulated pumps. */
const PRICES = [1799, 1659, 1899];
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
  kind: 'postpay' | 'prepay' | 'drive-off';
  /** The prepay's transaction and what was paid for it (raw 0.01), when prepaid. */
  prepay?: { id: string; paid: number };
  kill?: Moment;
  /** The nozzle's volume totalizer moved this much from the release to the hang-up. */
  metered: number;
  /** The till's fill id, once the till lists it. */
  fillId?: string;
  /** The sale (or completion) that sold it, once answered; or the drive-off. */
  sale?: { id: string; check: Json; warnings?: Json[] };
  driveOff?: Json;
}

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let agent: Child | null = null;
let central: Child | null = null;

afterAll(async () => {
  await stopChild(agent);
  await stopChild(central);
  for (const c of cleanups.reverse()) await c();
  if (!process.env.KEEP_CHAOS) for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);
const raw2 = (r: number) => (r / 100).toFixed(2);

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
      const simSide = attachToPty(sim, pty.b, 50);
      cleanups.push(() => simSide.stop());
      await simSide.link.waitOpen(5_000);

      central = await startChild(['central', '--port', '0', '--db', dbFile, '--seed', 'demo']);
      const creds = { url: central.info.url!, api_key: central.info.api_key! };
      const baseline = await sandbox(creds, 'GET', '/sandbox/transactions');
      const baselineIds = new Set<string>(
        (baseline.transactions as Json[]).map((t) => t.transaction_id as string),
      );
      writeFileSync(
        join(dataDir, 'config.json'),
        JSON.stringify({
          central: {
            url: central.info.url,
            terminal_id: central.info.terminal_id,
            api_key: central.info.api_key,
            timeouts: { connect_ms: 300, headers_ms: 1_000, body_ms: 1_500 },
            retry: { base_ms: 50, max_ms: 1_000, drain_interval_ms: 1_000 },
          },
          // The pumps only: a real DART line on the pty (no card unit: the run sells cash).
          devices: { pumps: { path: pty.a, pumps: PUMPS } },
        }),
      );

      const problems: string[] = [];
      const fills: PumpFill[] = [];
      let kills = 0;
      let restarts = 0;
      let statusQueries = 0;
      let resends = 0;
      let offlineRetries = 0;
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
          else await command(api(), 'shift-open', { opening_cash: 0 });
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
        const id = uuidv7(Date.now());
        const input = { transaction_id: id, check: body };
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
        for (let round = 0; round < 10; round++) {
          if (r?.status === 200) {
            f.sale = { id, check: r.json.check as Json, warnings: r.json.warnings as Json[] };
            return;
          }
          if (r && r.status !== 200) {
            problems.push(`sale of fill ${f.n} (${f.kind}): ${r.status} ${JSON.stringify(r.json)}`);
            return;
          }
          if (agent!.proc.exitCode !== null || agent!.proc.signalCode !== null) await revive();
          statusQueries++;
          const st = await call('sale-status', { transaction_id: id });
          if (st?.status === 200 && st.json.state === 'committed') {
            f.sale = { id, check: st.json.check as Json };
            return;
          }
          resends++;
          r = await call('sale-process', input);
        }
        problems.push(`sale of fill ${f.n} never answered`);
      };

      // ---- the run: one fill at a time, on a pump picked at random ----
      let opMs = 300;
      for (let n = 1; n <= FILLS; n++) {
        const pump = pick(PUMPS);
        const kind = chance(0.3) ? 'prepay' : chance(0.15) ? 'drive-off' : 'postpay';
        // A prepay's driver takes the prepaid grade's nozzle (1, FUEL-95): the till sends the
        // pump no allowed nozzles, and a cheaper grade would give more litres than the prepay's
        // line holds, which its completion refuses (a finding of this run, reported).
        const drawn = 1 + Math.floor(random() * PRICES.length);
        const nozzle = kind === 'prepay' ? 1 : drawn;
        const killAt =
          kills < KILLS && chance((KILLS - kills) / Math.max(1, FILLS - n + 1))
            ? pick(MOMENTS)
            : null;
        const f: PumpFill = { n, pump, nozzle, volume: 0, amount: 0, kind, metered: 0 };
        if (killAt) f.kill = killAt;

        // The cashier sells the prepay first, then the driver lifts the nozzle.
        if (kind === 'prepay') {
          const amount = pick([10, 15, 20, 30]);
          const id = uuidv7(Date.now());
          const body = {
            transaction_id: id,
            check: {
              transaction_type: 'preauthorization',
              payment_type: 'cash',
              check_items: [
                {
                  code: 'FUEL-95',
                  quantity: Number((amount / 1.789).toFixed(2)),
                  amount,
                  quantity_recalculate_type: 'recalculate-by-amount',
                },
              ],
            },
            cash_given: amount,
          };
          const r = await call('sale-process', body);
          if (r?.status !== 200) {
            problems.push(`prepay of fill ${n}: ${r?.status} ${JSON.stringify(r?.json)}`);
            continue;
          }
          f.prepay = { id, paid: amount * 100 };
        }
        const meterBefore = sim.get(pump).totals[nozzle - 1]!.volume;
        sim.lift(pump, nozzle);
        // A pump may miss a few polls on a loaded machine (offline for a moment), or still be
        // reading its last fill's totalizer (pump-fill-unread): asked again, as a cashier would.
        let release: Awaited<ReturnType<typeof call>> = null;
        for (let i = 0; i < 120; i++) {
          release = f.prepay
            ? await call('pump-authorise', { pump, transaction_id: f.prepay.id })
            : await call('pump-release', { pump });
          const code = release?.json.error?.code;
          if (code !== 'pump-offline' && code !== 'pump-fill-unread') break;
          offlineRetries++;
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

        // The driver fuels in steps; a prepay stops at its preset on its own.
        const steps = 3 + Math.floor(random() * 6);
        const killStep = killAt === 'fuelling' ? Math.floor(random() * steps) : -1;
        let down = false;
        for (let s = 0; s < steps && sim.get(pump).status !== 5; s++) {
          sim.dispense(pump, 50 + Math.floor(random() * 250));
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
            `fill ${n} (pump ${pump} nozzle ${nozzle}, ${raw2(f.volume)} l, kill ${killAt ?? 'none'}): ` +
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
        } else await sell(f, { payment_type: 'cash', fills: [f.fillId] }, saleKill, opMs);
        if (agent!.proc.exitCode !== null || agent!.proc.signalCode !== null) await revive();
        if (!saleKill) opMs = opMs * 0.8 + (Date.now() - t0) * 0.2;
      }

      // ---- the end: everything drained to the central ----
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
          ((s.pumps as Json[] | undefined)?.every((p) => p.state !== 'finished') ?? false),
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
      for (const f of fills.filter((x) => x.sale)) {
        const c = f.sale!.check;
        const line = (c.check_items as Json[])[0]!;
        if (f.prepay) {
          if (cents(c.amount_to_pay) !== f.amount)
            figures.push(
              `completion of fill ${f.n}: books ${c.amount_to_pay}, pumped ${raw2(f.amount)}`,
            );
          if (cents(line.processed_amount ?? line.amount) !== f.amount)
            figures.push(`completion of fill ${f.n}: line ${JSON.stringify(line)}`);
          const change = f.sale!.warnings?.find((w) => w.code === 'change-due');
          const want = f.prepay.paid - f.amount;
          if (f.sale!.warnings) {
            const given = change
              ? cents(/give back ([\d.]+)/.exec(change.message as string)?.[1])
              : 0;
            if (given !== want)
              figures.push(`completion of fill ${f.n}: change ${given / 100}, want ${raw2(want)}`);
          }
        } else {
          if (cents(c.amount_to_pay) !== f.amount || cents(line.amount) !== f.amount)
            figures.push(`sale of fill ${f.n}: ${c.amount_to_pay}, pumped ${raw2(f.amount)}`);
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
      };
      const driveTill = {
        count: (report.drive_offs?.count as number | undefined) ?? 0,
        litres: Number(report.drive_offs?.litres ?? 0).toFixed(2),
      };
      // Pumps still showing a fill (sold or not) at the end: none should.
      const stillShown = ((end.pumps as Json[]) ?? [])
        .filter((p) => p.state === 'finished')
        .map((p) => `pump ${p.pump} ${JSON.stringify(p.filling)}`);

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
        else if (cents(rows[0]!.check?.amount_to_pay) !== f.amount)
          centralWrong.push(
            `fill ${f.n}: central ${rows[0]!.check?.amount_to_pay}, pumped ${raw2(f.amount)}`,
          );
      }
      const prepayIds = new Set(fills.flatMap((f) => (f.prepay ? [f.prepay.id] : [])));
      const strangers = fresh
        .filter((t) => !saleIds.has(t.transaction_id as string))
        .map(
          (t) =>
            `${t.transaction_id}${prepayIds.has(t.transaction_id as string) ? ' (a prepay)' : ''}`,
        );

      const summary =
        `chaos fills summary: seed ${SEED}; fills ${fills.length} (postpay ` +
        `${fills.filter((f) => f.kind === 'postpay').length}, prepay ${fills.filter((f) => f.prepay).length}, ` +
        `drive-off ${drives.length}); kills ${kills} (${[...killsAt].map(([k, v]) => `${k} ${v}`).join(', ')}), ` +
        `restarts ${restarts}, sale-status ${statusQueries}, same-id resends ${resends}, ` +
        `releases asked again of a pump offline for a moment ${offlineRetries}, ` +
        `pumps online after a start in at most ${Math.max(0, ...onlineMs)} ms; ` +
        `sold ${sold.length}, lost ${lost.length}, doubled ${doubled.length + sameId.length}, ` +
        `unsold ${unsold.length}; central sales ${fresh.length}; ${Math.round((Date.now() - started) / 1000)} s`;
      console.log(summary);
      console.log(`chaos fills nozzles:\n  ${nozzleRows.join('\n  ')}`);
      console.log(
        `chaos fills drive-offs: books ${JSON.stringify(driveBooks)}, till ${JSON.stringify(driveTill)}`,
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
      expect.soft(stillShown, 'pumps still showing a fill at the end').toEqual([]);
      expect.soft(problems, 'refusals, unanswered commands, failed restarts').toEqual([]);
      expect(kills).toBeGreaterThanOrEqual(Math.min(KILLS, FILLS));
      expect(fills.length).toBeGreaterThan(0);
    },
    TEST_MS,
  );
});
