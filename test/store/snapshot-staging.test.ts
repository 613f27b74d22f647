// A snapshot stages into a twin of each cache table and is swapped in by renaming the twins
// (docs/sync.md, "Apply speed", third round): the twin must have its live table's columns and
// primary key, the live table must come out of a swap with the indexes it had (same names,
// same definitions), and a swap that fails at any table must leave the old cache readable.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/contract/feed.js';
import type { Change } from '../../src/store/cache.js';
import { stagedTable } from '../../src/store/cache.js';
import { tables } from '../../src/store/entities.js';
import { storePerTest } from './store-per-test.js';
import { card, customer } from './fixtures/changes.js';

const db = storePerTest('staging-');
let raw: Database.Database;

beforeEach(() => {
  // Another connection to the migrated file, with the store's foreign-key setting.
  raw = new Database(db.file);
  raw.pragma('foreign_keys = ON');
});
afterEach(() => raw.close());

/** A table's columns (primary key included) as PRAGMA table_xinfo gives them. */
const columnsOf = (table: string) => raw.prepare(`PRAGMA table_xinfo(${table})`).all();

/** The indexes the schema has SQL for (an automatic one, of the primary key, has none). */
const indexesOf = (table: string) =>
  raw
    .prepare<[string], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
    )
    .all(table);

/** Every cache table's and twin's columns and indexes. */
const cacheSchema = () =>
  ENTITIES.map((e) => ({
    entity: e,
    live: { columns: columnsOf(tables[e].table), indexes: indexesOf(tables[e].table) },
    twin: { columns: columnsOf(stagedTable(e)), indexes: indexesOf(stagedTable(e)) },
  }));

const rule = (id: string, pos: string[]): Change => ({
  entity: 'rule',
  op: 'upsert',
  id,
  data: {
    id,
    loyalty_id: 'l1',
    action_type: 'discount',
    value: { type: 'percentage', thresholds: [{ from: 0, value: 10 }] },
    pos: pos.map((p) => ({ id: p, title: p })),
  },
});

/** One snapshot page through the store (the last one swaps). */
function snapshotPage(changes: Change[], cursor: string, hasMore: boolean) {
  return db.store.applyPage({
    changes,
    cursor,
    requestedAt: db.clock.now(),
    snapshot: true,
    hasMore,
  });
}

describe('snapshot staging twins', () => {
  it.each(ENTITIES.map((e) => [e]))(
    'stages %s in a table with the live one’s columns and primary key, and no other index',
    (entity) => {
      expect(columnsOf(stagedTable(entity))).toEqual(columnsOf(tables[entity].table));
      expect(indexesOf(stagedTable(entity))).toEqual([]);
    },
  );

  it('keeps every cache table’s indexes (names and definitions) and the empty twins across swaps', () => {
    const before = cacheSchema();
    expect(before.find((t) => t.entity === 'customer')?.live.indexes.map((i) => i.name)).toContain(
      'customer_by_phone',
    );
    snapshotPage([customer('c1', '+49 30 1'), card('k1', 'c1', 'K1')], 's1', true);
    snapshotPage([rule('r1', ['p1'])], 's2', false);
    expect(cacheSchema()).toEqual(before);
    snapshotPage([customer('c2', '+49 30 2')], 's3', false);
    expect(cacheSchema()).toEqual(before);
    for (const e of ENTITIES)
      expect(raw.prepare(`SELECT count(*) AS n FROM ${stagedTable(e)}`).get()).toEqual({ n: 0 });
  });

  it('serves the lookups from the live indexes after a swap (each row written once, by staging)', () => {
    snapshotPage([customer('c1', '+49 30 1'), card('k1', 'c1', 'K1')], 's1', false);
    expect(db.store.cache.customerByPhone('4930 1')?.id).toBe('c1');
    expect(db.store.cache.customerByCard('K1')?.id).toBe('c1');
    const plans = db.store.cache.queryPlans();
    expect(Object.values(plans).join('\n')).toContain('customer_by_phone');
  });

  it('leaves the old cache readable and the snapshot staged when the swap fails half-way', () => {
    snapshotPage(
      [customer('old', '+49 30 9'), card('k-old', 'old', 'OLD'), rule('r-old', ['p1'])],
      's0',
      false,
    );
    const schema = cacheSchema();
    snapshotPage([customer('new', '+49 30 8'), card('k-new', 'new', 'NEW')], 's1', true);
    // A view on `card` makes its rename fail (SQLite checks the schema's views when a table is
    // renamed), after loyalty, rule, pos and customer were already swapped in the transaction.
    raw.exec('CREATE VIEW card_codes AS SELECT code FROM card');
    expect(() => snapshotPage([rule('r-new', ['p2'])], 's2', false)).toThrow(/card/);
    // The old cache, whole: records, indexes, rules by POS.
    expect(db.store.cache.customerById('old')).not.toBeNull();
    expect(db.store.cache.customerById('new')).toBeNull();
    expect(db.store.cache.customerByPhone('4930 9')?.id).toBe('old');
    expect(db.store.cache.customerByCard('OLD')?.id).toBe('old');
    expect(db.store.rules.candidates('l1', 'p1').map((r) => (r as { id: string }).id)).toEqual([
      'r-old',
    ]);
    expect(db.store.sync.cursor()).toBe('s0');
    // The snapshot staged so far is still there, to be swapped in by the next try.
    expect(db.store.sync.snapshot()).toMatchObject({ cursor: 's1', staged: 2 });
    raw.exec('DROP VIEW card_codes');
    expect(cacheSchema()).toEqual(schema);
    expect(snapshotPage([rule('r-new', ['p2'])], 's2', false).swapped).toBe(true);
    expect(db.store.cache.customerById('old')).toBeNull();
    expect(db.store.cache.customerByCard('NEW')?.id).toBe('new');
    expect(db.store.rules.candidates('l1', 'p2').map((r) => (r as { id: string }).id)).toEqual([
      'r-new',
    ]);
  });
});
