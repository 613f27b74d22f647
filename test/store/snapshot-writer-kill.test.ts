// A kill while the snapshot writer's thread stages pages loses nothing (docs/sync.md, "Apply
// speed", fourth round): each page commits with the snapshot's progress, so after a SIGKILL at
// any moment the store opens whole, the progress counts exactly the rows staged, and the next
// run continues after the last page committed and swaps the whole snapshot in.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stagedTable } from '../../src/store/cache.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';
import { runToEnd, runUntilKilled } from './kill-child.js';

const ROWS = 40_000;
const PAGE = 2_000;
const CHILD = 'test/store/fixtures/snapshot-writer-child.ts';

/** Rows in the staging twins, read apart from the store. */
function stagedRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const count = (t: string) =>
      db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${t}`).get()?.n ?? 0;
    return count(stagedTable('customer')) + count(stagedTable('card'));
  } finally {
    db.close();
  }
}

describe('a kill while the snapshot writer stages', () => {
  let t: TempDir;
  beforeAll(() => {
    t = tempDir('writer-kill-');
  });
  afterAll(() => t.cleanup());

  it(
    'leaves whole pages counted by the progress, and the next run completes the snapshot',
    { timeout: 180_000 },
    async () => {
      let cut = 0;
      for (const delayMs of [0, 30, 80, 150, 300, 600]) {
        const file = `${t.dir}/kill-${delayMs}.sqlite`;
        let swapped = false;
        const end = await runUntilKilled(CHILD, [file, String(ROWS)], {
          delayMs,
          armAtSpawn: false,
          onLine(line, arm) {
            if (line === 'staging') arm();
            if (line === 'swapped') swapped = true;
          },
        });
        if (!end.killed && !swapped)
          throw new Error(`child failed (code ${end.code}): ${end.stderr}`);
        const store = await openTest(file, testClock());
        try {
          expect(store.check().integrity).toEqual(['ok']);
          const progress = store.sync.snapshot();
          if (progress?.cursor) {
            cut += 1;
            // Whole pages: the cursor names the last page committed, the count its rows.
            const pages = Number(progress.cursor.slice('s.'.length)) / PAGE + 1;
            expect(progress.staged).toBe(pages * 2 * PAGE);
            expect(stagedRows(file)).toBe(progress.staged);
          } else if (progress === null && store.sync.cursor() === 'd.new') {
            expect(store.cache.count('customer')).toBe(ROWS);
          } else {
            // Killed before the first page committed: nothing staged.
            expect(stagedRows(file)).toBe(0);
          }
        } finally {
          store.close();
        }
        if (!swapped) {
          const again = await runToEnd(CHILD, [file, String(ROWS)]);
          expect(again.killed, again.stderr).toBe(false);
        }
        const done = await openTest(file, testClock());
        try {
          expect(done.sync.cursor()).toBe('d.new');
          expect(done.cache.count('customer')).toBe(ROWS);
          expect(done.cache.count('card')).toBe(ROWS);
          expect(done.cache.customerByCard(`8${String(39_999).padStart(12, '0')}`)?.id).toBe(
            'c000039999',
          );
        } finally {
          done.close();
        }
      }
      // At least one kill landed between pages (staging takes longer than the shortest delays).
      expect(cut).toBeGreaterThan(0);
    },
  );
});
