// The crash test of the issue: a child process records sales in a loop and reports each
// committed id; the parent SIGKILLs it at random moments, 100 times. After each kill the
// database passes PRAGMA integrity_check and the ledger's invariants, and every reported sale
// (and cancellation) is there exactly once with its outbox row and ledger effects.
//
// The child runs the real TypeScript of src/store under Node 24's type stripping, through a
// resolve hook (fixtures/ts-resolve.mjs): no build step, no stale dist/, and no SQL outside
// src/store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { seededRandom, tempDir, testClock, type TempDir } from './helpers.js';
import { runUntilKilled } from './kill-child.js';

const KILLS = 100;

interface Run {
  sales: string[];
  cancellations: Array<[string, string]>;
  ready: boolean;
}

/** Starts the child and kills it `delayMs` after it is ready (or, when `early`, after spawn). */
async function runAndKill(file: string, delayMs: number, early: boolean): Promise<Run> {
  const run: Run = { sales: [], cancellations: [], ready: false };
  const end = await runUntilKilled('test/store/fixtures/crash-child.ts', [file], {
    delayMs,
    armAtSpawn: early,
    onLine(line, arm) {
      const [tag, a, b] = line.split(' ');
      if (tag === 'ready') {
        run.ready = true;
        arm();
      } else if (tag === 'S' && a) run.sales.push(a);
      else if (tag === 'C' && a && b) run.cancellations.push([a, b]);
    },
  });
  // Only the kill may end the child; an exception in it is a failure of the test.
  if (!end.killed) throw new Error(`child ended by itself (code ${end.code}): ${end.stderr}`);
  return run;
}

describe('crash safety', () => {
  let t: TempDir;
  beforeAll(() => {
    t = tempDir('crash-');
  });
  afterAll(() => t.cleanup());

  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

  it(
    `keeps every reported sale exactly once, whole, across ${KILLS} SIGKILLs (seed ${seed})`,
    { timeout: 120_000 },
    async () => {
      const random = seededRandom(seed);
      const sales = new Set<string>();
      const cancellations = new Map<string, string>();
      let earlyKills = 0;
      for (let i = 0; i < KILLS; i++) {
        // One kill in ten lands during start-up (opening, migrating, the daily backup).
        const early = i % 10 === 0;
        if (early) earlyKills += 1;
        const run = await runAndKill(
          t.file,
          early ? Math.floor(random() * 150) : Math.floor(random() * 40),
          early,
        );
        for (const id of run.sales) {
          expect(sales.has(id), `sale ${id} reported twice`).toBe(false);
          sales.add(id);
        }
        for (const [id, target] of run.cancellations) cancellations.set(id, target);

        const store = await openStore({ file: t.file, clock: testClock(), dailyBackup: false });
        try {
          const report = store.check();
          expect(report.integrity, `kill ${i + 1}`).toEqual(['ok']);
          expect(report.foreignKeyViolations).toBe(0);
          expect(report.ledger, `kill ${i + 1}: half-written operations`).toEqual([]);
          for (const id of run.sales) {
            const status = store.ledger.status(id);
            expect(status, `sale ${id}`).not.toBeNull();
            expect(status?.kind).toBe('check');
            expect(store.outbox.byTransaction(id)?.seq).toBe(status?.seq);
            const fx = store.ledger.effectsOf(id);
            expect(fx.bonuses.map((b) => [b.kind, b.amount])).toEqual([
              ['redeem', '3'],
              ['add', '0.48'],
            ]);
            expect(fx.payments).toHaveLength(1);
            expect(fx.accounts.map((a) => [a.direction, a.amount])).toEqual([['debit', '2.00']]);
            expect(fx.coupons).toEqual([{ code: `CPN-${id}`, action: 'redeem' }]);
            expect(fx.pending.map((p) => p.kind).sort()).toEqual([
              'account',
              'bonuses',
              'coupon',
              'stats',
            ]);
          }
          for (const [id, target] of run.cancellations) {
            expect(store.ledger.status(id)?.kind).toBe('cancellation');
            expect(store.outbox.byTransaction(id)).not.toBeNull();
            expect(store.ledger.storedCheck(target)?.cancelledBy).toBe(id);
          }
        } finally {
          store.close();
        }
      }
      // Every sale ever reported is still there at the end, once (ids are primary keys; the
      // count of operations holds them all, plus sales committed in the instant before a kill).
      const store = await openStore({ file: t.file, clock: testClock(), dailyBackup: false });
      try {
        for (const id of sales) expect(store.ledger.status(id)).not.toBeNull();
        expect(store.ledger.count()).toBeGreaterThanOrEqual(sales.size + cancellations.size);
        expect(store.check().ok).toBe(true);
      } finally {
        store.close();
      }
      expect(sales.size).toBeGreaterThan(KILLS);
      expect(earlyKills).toBeGreaterThan(0);
    },
  );
});
