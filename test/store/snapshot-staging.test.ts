// A snapshot stages into a twin of each cache table and is swapped in by SQL alone
// (docs/sync.md, "Snapshot memory and speed"): the twin must match its live table in
// everything SQLite's transfer path compares, or the copy silently falls back to decoding
// every row and building every index again.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/contract/feed.js';
import { stagedTable } from '../../src/store/cache.js';
import { tables } from '../../src/store/entities.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('staging-');
let raw: Database.Database;

beforeEach(() => {
  // Another connection to the migrated file, with the store's foreign-key setting.
  raw = new Database(db.file);
  raw.pragma('foreign_keys = ON');
});
afterEach(() => raw.close());

/** A table's columns and indexes as the transfer path compares them, names aside. */
function shapeOf(table: string) {
  const columns = raw.prepare(`PRAGMA table_xinfo(${table})`).all();
  const indexes = raw
    .prepare<[string], { name: string; sql: string | null }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name",
    )
    .all(table)
    .map((ix) => ({
      columns: raw.prepare(`PRAGMA index_xinfo(${ix.name})`).all(),
      // The definition with its own names taken out (partial indexes' WHERE included).
      sql: ix.sql?.replaceAll(ix.name, 'IX').replaceAll(` ON ${table} `, ' ON T ') ?? null,
    }))
    .sort((a, b) => String(a.sql).localeCompare(String(b.sql)));
  return { columns, indexes };
}

describe('snapshot staging twins', () => {
  it.each(ENTITIES.map((e) => [e]))(
    'stages %s in a table with the live one’s columns and indexes',
    (entity) => {
      expect(shapeOf(stagedTable(entity))).toEqual(shapeOf(tables[entity].table));
    },
  );

  it.each(ENTITIES.map((e) => [e]))(
    'swaps %s in by the transfer path (rows copied without decoding them)',
    (entity) => {
      const plan = raw
        .prepare<[], { opcode: string }>(
          `EXPLAIN INSERT INTO ${tables[entity].table} SELECT * FROM ${stagedTable(entity)}`,
        )
        .all()
        .map((op) => op.opcode);
      // RowCell is the transfer path's opcode (a whole cell copied); SQLite emits it only
      // when the tables match, keeping the row-by-row program as the fallback for a
      // non-empty target (the swap empties it first).
      expect(plan).toContain('RowCell');
    },
  );
});
