// A kill during a migration (issue 8): "a kill during a migration leaves the previous schema
// (all pending migrations are one transaction), which the previous build, checked out in the
// test, still opens", with its outbox intact.
//
// The previous build is the newest commit of this repository's history whose migrations/ holds
// fewer migrations than the working tree: its src/, package.json and migrations/ are extracted
// with `git archive` (read-only; no worktree) into a temp directory that borrows node_modules.
// That build seeds a database with sales; then a child running this build's store opens it and
// is SIGKILLed at a random moment while the pending migrations are applied (a pause after each
// migration's SQL, inside the transaction, widens the window). After each kill the previous
// build opens the file with every sale and outbox row as before; or, when the kill came after
// the commit, this build does, and the previous build refuses it as newer.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { seededRandom, tempDir, testClock, type TempDir } from '../store/helpers.js';
import { repoNode, repoRoot, runUntilKilled, tsHook } from '../store/kill-child.js';

const ROUNDS = 10;
const PAUSE_MS = 120;
const SALES = 30;

const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const migrationCount = (names: string[]): number =>
  names.filter((n) => /^(migrations\/)?\d{4}_[a-z0-9_]+\.sql$/.test(n)).length;

/** The newest commit whose migrations are a strict prefix of the working tree's. */
function previousBuild(): { commit: string; migrations: number } | null {
  const current = migrationCount(readdirSync(join(repoRoot, 'migrations')));
  for (const commit of git('rev-list', 'HEAD').trim().split('\n')) {
    const names = git('ls-tree', '--name-only', commit, 'migrations/').trim().split('\n');
    const count = migrationCount(names);
    if (count > 0 && count < current) return { commit, migrations: count };
  }
  return null;
}

// A source tarball has no history to take the previous build from; a clone always has (a
// shallow one fails below, saying so: CI checks out with its full history).
const hasHistory = existsSync(join(repoRoot, '.git'));

interface Seen {
  refused?: string;
  applied?: number[];
  ok?: boolean;
  outbox?: unknown[];
}

function runOld(oldRoot: string, mode: 'seed' | 'read', file: string, n = 0): Seen {
  const r = spawnSync(
    repoNode,
    [
      '--import',
      tsHook,
      'test/reliability/fixtures/old-store-child.ts',
      oldRoot,
      mode,
      file,
      `${n}`,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`previous build failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Seen;
}

interface Round {
  /** The child printed "begin" before it died: the kill fell in or after the migration. */
  began: boolean;
  /** Migrations whose SQL had run in the open transaction when it died. */
  applied: number;
  /** The child finished by itself (the kill came too late). */
  finished: boolean;
}

async function migrateAndKill(file: string, delayMs: number, afterBegin: boolean): Promise<Round> {
  const round: Round = { began: false, applied: 0, finished: false };
  const end = await runUntilKilled(
    'test/reliability/fixtures/migrate-child.ts',
    [file, `${PAUSE_MS}`],
    {
      delayMs,
      armAtSpawn: !afterBegin,
      onLine(line, arm) {
        if (line === 'begin') {
          round.began = true;
          arm();
        } else if (line.startsWith('applied ')) round.applied += 1;
      },
    },
  );
  if (end.killed) return round;
  if (end.code === 0) return { ...round, finished: true };
  throw new Error(`migrating child failed (${end.code}): ${end.stderr}`);
}

function userVersion(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe.skipIf(!hasHistory)('a kill during a migration', () => {
  let t: TempDir;
  let oldRoot = '';
  let previous: { commit: string; migrations: number };
  let baseline: Seen;
  const seedFile = () => join(t.dir, 'seed', 'terminal.sqlite');

  beforeAll(() => {
    t = tempDir('migration-kill-');
    const found = previousBuild();
    if (!found)
      throw new Error(
        'no commit in history with fewer migrations than the working tree (a shallow clone? check out with fetch-depth: 0)',
      );
    previous = found;
    oldRoot = join(t.dir, 'previous-build');
    mkdirSync(oldRoot, { recursive: true });
    const tar = join(t.dir, 'previous.tar');
    git('archive', '--format=tar', '-o', tar, previous.commit, 'src', 'migrations', 'package.json');
    execFileSync('tar', ['-xf', tar, '-C', oldRoot]);
    symlinkSync(join(repoRoot, 'node_modules'), join(oldRoot, 'node_modules'), 'dir');
    mkdirSync(join(t.dir, 'seed'));
    baseline = runOld(oldRoot, 'seed', seedFile(), SALES);
  }, 90_000);
  afterAll(() => t?.cleanup());

  it('the previous build made a file at its own schema, with its sales queued and confirmed', () => {
    expect(baseline.applied).toEqual(Array.from({ length: previous.migrations }, (_, i) => i + 1));
    expect(baseline.ok).toBe(true);
    expect(baseline.outbox).toHaveLength(SALES);
    expect(baseline.outbox?.filter((r) => (r as unknown[])[2] === 'done')).toHaveLength(SALES / 3);
  });

  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  it(
    `leaves the previous schema, which the previous build opens with its outbox intact, across ${ROUNDS} kills (seed ${seed})`,
    { timeout: 100_000 },
    async () => {
      const random = seededRandom(seed);
      let midMigration = 0;
      let previousSchema = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const dir = join(t.dir, `round-${i}`);
        mkdirSync(dir);
        const file = join(dir, 'terminal.sqlite');
        copyFileSync(seedFile(), file);
        // Most kills are timed from the start of the migration transaction; some from spawn.
        const fromBegin = i % 4 !== 3;
        const pending =
          migrationCount(readdirSync(join(repoRoot, 'migrations'))) - previous.migrations;
        const delay = fromBegin
          ? Math.floor(random() * (PAUSE_MS * pending + 20))
          : Math.floor(random() * 1_500);
        const round = await migrateAndKill(file, delay, fromBegin);
        const version = userVersion(file);
        const old = runOld(oldRoot, 'read', file);
        if (version === previous.migrations) {
          previousSchema += 1;
          if (round.began && round.applied > 0) midMigration += 1;
          expect(old.refused, `round ${i}: the previous build refused the file`).toBeUndefined();
          expect(old.applied).toEqual(baseline.applied);
          expect(old.ok).toBe(true);
          expect(old.outbox, `round ${i}`).toEqual(baseline.outbox);
        } else {
          // The kill came after the commit: the file is at this build's schema, whole.
          expect(round.began).toBe(true);
          expect(old.refused).toBe('schema-newer');
        }
        // This build opens every outcome, migrating what is left, with the same queue.
        const store = await openStore({ file, clock: testClock(), dailyBackup: false });
        try {
          expect(store.check().ok).toBe(true);
          expect(store.schema().pending).toEqual([]);
          const now = store.ledger.operations(0, 100_000).map((op) => {
            const row = store.outbox.byTransaction(op.id);
            return [op.id, op.seq, row?.status ?? null, row?.payload ?? null];
          });
          expect(now).toEqual(baseline.outbox);
        } finally {
          store.close();
        }
      }
      // The kills did land inside the migration transaction, not only around it.
      expect(midMigration).toBeGreaterThan(0);
      expect(previousSchema).toBeGreaterThan(0);
    },
  );
});
