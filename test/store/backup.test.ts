import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';

let t: TempDir;
beforeEach(() => {
  t = tempDir('backup-');
});
afterEach(() => t.cleanup());

const DAY = 86_400_000;

describe('backups', () => {
  it('takes a daily copy at start once a day', async () => {
    const clock = testClock();
    (await openStore({ file: t.file, clock })).close();
    (await openStore({ file: t.file, clock })).close();
    expect(readdirSync(join(t.dir, 'backups'))).toEqual(['daily-2026-11-22.sqlite']);
  });

  it('keeps only the newest daily copies', async () => {
    const clock = testClock();
    for (let d = 0; d < 5; d++) {
      (await openStore({ file: t.file, clock, retention: { daily: 3, preMigrate: 5 } })).close();
      clock.advance(DAY);
    }
    expect(readdirSync(join(t.dir, 'backups'))).toEqual([
      'daily-2026-11-24.sqlite',
      'daily-2026-11-25.sqlite',
      'daily-2026-11-26.sqlite',
    ]);
  });

  it('removes a copy left half-written by a crash', async () => {
    const clock = testClock();
    const dir = join(t.dir, 'backups');
    (await openStore({ file: t.file, clock })).close();
    writeFileSync(join(dir, 'daily-2026-11-23.sqlite.partial'), 'half');
    clock.advance(DAY);
    (await openStore({ file: t.file, clock })).close();
    expect(readdirSync(dir).sort()).toEqual(['daily-2026-11-22.sqlite', 'daily-2026-11-23.sqlite']);
  });

  it('makes a copy that opens as a store with the same data', async () => {
    const clock = testClock();
    const store = await openTest(t.file, clock);
    store.cache.put('customer', { id: 'c1', access_type: 'add-bonuses-only' }, clock.now());
    const copy = await store.backup(join(t.dir, 'copy.sqlite'));
    store.close();
    const restored = await openTest(copy, clock, { backupsDir: join(t.dir, 'other') });
    expect(restored.cache.customerById('c1')?.access_type).toBe('add-bonuses-only');
    expect(restored.check().ok).toBe(true);
    restored.close();
    expect(existsSync(`${copy}.partial`)).toBe(false);
  });
});
