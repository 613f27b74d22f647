// A kill during the snapshot swap loses nothing (docs/sync.md, "Apply speed", third round):
// the swap renames tables and builds indexes, all in the last page's transaction, so after a
// SIGKILL at any moment of it the store opens whole, with either the old cache and the staged
// snapshot (to be swapped by the next pull) or the new cache, never a mix.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/contract/feed.js';
import { stagedTable } from '../../src/store/cache.js';
import { tables } from '../../src/store/entities.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';
import { runToEnd, runUntilKilled } from './kill-child.js';

const ROWS = 40_000;
const CHILD = 'test/store/fixtures/snapshot-swap-child.ts';

/** The cache's tables and indexes as the schema lists them (names and SQL). */
function schemaOf(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    const names = new Set<string>(ENTITIES.flatMap((e) => [tables[e].table, stagedTable(e)]));
    return db
      .prepare<[], { type: string; name: string; tbl_name: string; sql: string | null }>(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name",
      )
      .all()
      .filter((r) => names.has(r.tbl_name))
      .map((r) => ({
        type: r.type,
        name: r.name,
        table: r.tbl_name,
        sql: r.sql?.replace(/"/g, '') ?? null,
      }));
  } finally {
    db.close();
  }
}

describe('a kill during the snapshot swap', () => {
  let t: TempDir;
  beforeAll(() => {
    t = tempDir('swap-kill-');
  });
  afterAll(() => t.cleanup());

  it(
    'leaves the old cache with the snapshot staged, or the new cache, whole',
    { timeout: 180_000 },
    async () => {
      // The schema of a store that never swapped: what every outcome must have.
      const fresh = tempDir('swap-kill-fresh-');
      (await openTest(fresh.file, testClock())).close();
      const schema = schemaOf(fresh.file);
      fresh.cleanup();

      let unswapped = 0;
      for (const delayMs of [0, 2, 5, 10, 20, 40, 80]) {
        const file = `${t.dir}/kill-${delayMs}.sqlite`;
        let swapped = false;
        const end = await runUntilKilled(CHILD, [file, String(ROWS)], {
          delayMs,
          armAtSpawn: false,
          onLine(line, arm) {
            if (line === 'swapping') arm();
            if (line === 'swapped') swapped = true;
          },
        });
        if (!end.killed && !swapped)
          throw new Error(`child failed (code ${end.code}): ${end.stderr}`);
        const store = await openTest(file, testClock());
        try {
          expect(store.check().integrity).toEqual(['ok']);
          expect(schemaOf(file)).toEqual(schema);
          if (store.sync.cursor() === 'd.new') {
            expect(store.cache.count('customer')).toBe(ROWS);
            expect(store.cache.customerById('old')).toBeNull();
            expect(store.cache.customerByCard(`8${String(7).padStart(12, '0')}`)?.id).toBe(
              'c000000007',
            );
            expect(store.sync.snapshot()).toBeNull();
          } else {
            // Killed inside the swap's transaction: nothing of it happened.
            expect(swapped).toBe(false);
            unswapped += 1;
            expect(store.sync.cursor()).toBe('d.old');
            expect(store.cache.customerById('old')?.id).toBe('old');
            expect(store.cache.customerByPhone('4930 1')?.id).toBe('old');
            expect(store.cache.customerByCard('OLD')?.id).toBe('old');
            expect(store.sync.snapshot()?.staged).toBe(2 * ROWS);
          }
        } finally {
          store.close();
        }
        // The next run swaps whatever is staged (the next pull's last page).
        if (!swapped) {
          const again = await runToEnd(CHILD, [file, String(ROWS)]);
          expect(again.killed).toBe(false);
          const store2 = await openTest(file, testClock());
          expect(store2.sync.cursor()).toBe('d.new');
          expect(store2.cache.count('card')).toBe(ROWS);
          expect(store2.cache.customerByPhone('4940 123')?.id).toBe('c000000123');
          store2.close();
        }
      }
      // At least one kill landed inside the swap (it takes longer than the shortest delays).
      expect(unswapped).toBeGreaterThan(0);
    },
  );
});
