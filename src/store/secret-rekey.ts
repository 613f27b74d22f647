// Keys the hashes an older cache holds as the feed sent them (docs/store.md, "Secrets in the
// cache"): at every start with a terminal secret, the rows of staff, special accounts and
// corporate accesses (and staged or quarantined copies) still holding a plain scrypt hash get
// its keyed form, in one transaction. Deleted content is overwritten (secure_delete) and the
// WAL truncated after it, so the old hashes do not linger in free pages or the log. Rows keyed
// with another secret (the secret store was lost) cannot be re-keyed: they are counted, and
// the caller has the next pull fetch a full snapshot.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { keyHashes, SECRET_ENTITIES } from './cache.js';

export interface HashKeying {
  readonly keyed: boolean;
  readonly prefix: string;
  wrap(hash: string): string;
  kind(stored: string): 'current' | 'plain' | 'foreign' | 'other';
}

export interface RekeyReport {
  /** Rows whose plain hashes were keyed now. */
  readonly rekeyed: number;
  /** Rows keyed with another secret: they verify nothing until the next full snapshot. */
  readonly foreign: number;
}

/** Whether a stored value holds a hash of another keying. */
function hasForeign(value: unknown, h: HashKeying): boolean {
  let found = false;
  keyHashes(value, (hash) => {
    if (h.kind(hash) === 'foreign') found = true;
    return hash;
  });
  return found;
}

interface Source {
  select: string;
  update: string;
}

// Only rows worth a look, found by SQL: a plain hash, or a keyed one not of this key (so a
// start with nothing to do parses no JSON). The parameter is `"` + this keying's prefix.
const suspect = `(instr(data, '"scrypt$') > 0 OR (instr(data, '"hscrypt$') > 0 AND instr(data, ?) = 0))`;

/** The rows to look at of `table`, and how to write one back. */
const source = (table: string, where = suspect): Source & { table: string } => ({
  table,
  select: `SELECT rowid AS k, data FROM ${table} WHERE ${where}`,
  update: `UPDATE ${table} SET data = ? WHERE rowid = ?`,
});

// Staged copies live in one table per entity since migration 0013, in `snapshot_staging`
// before it (a backup taken earlier still has that one): whichever the file has is looked at.
const sources = [
  ...SECRET_ENTITIES.map((t) => source(t)),
  ...SECRET_ENTITIES.map((t) => source(`staged_${t}`)),
  source('snapshot_staging'),
  source('quarantine', `data IS NOT NULL AND ${suspect}`),
];

function sourcesIn(db: Database.Database): Source[] {
  const has = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
  );
  return sources.filter((s) => (has.get(s.table)?.n ?? 0) > 0);
}

export function rekeySecretHashes(db: Database.Database, h: HashKeying): RekeyReport {
  if (!h.keyed) return { rekeyed: 0, foreign: 0 };
  const changes: Array<{ update: string; k: number; data: string }> = [];
  let foreign = 0;
  for (const s of sourcesIn(db)) {
    const rows = db.prepare<[string], { k: number; data: string }>(s.select).all(`"${h.prefix}`);
    for (const row of rows) {
      const value = JSON.parse(row.data) as unknown;
      const keyed = keyHashes(value, (hash) => h.wrap(hash));
      if (keyed !== value)
        changes.push({ update: s.update, k: row.k, data: JSON.stringify(keyed) });
      if (hasForeign(value, h)) foreign += 1;
    }
  }
  if (changes.length === 0) return { rekeyed: 0, foreign };
  db.pragma('secure_delete = ON');
  try {
    db.transaction(() => {
      for (const c of changes) db.prepare(c.update).run(c.data, c.k);
    }).immediate();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.pragma('secure_delete = OFF');
  }
  return { rekeyed: changes.length, foreign };
}

/**
 * Keys the copies in `dir` (the backups) too, once the live file needed it: a copy taken
 * before is a database file with the same plain hashes. A copy that cannot be opened or
 * written is left as it is (and counted), never a reason not to start.
 */
export function rekeyBackups(dir: string, h: HashKeying): { rekeyed: number; failed: number } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
  } catch {
    return { rekeyed: 0, failed: 0 };
  }
  let rekeyed = 0;
  let failed = 0;
  for (const name of names) {
    try {
      const db = new Database(join(dir, name), { fileMustExist: true, timeout: 1_000 });
      try {
        if (rekeySecretHashes(db, h).rekeyed > 0) rekeyed += 1;
      } finally {
        db.close();
      }
    } catch {
      failed += 1;
    }
  }
  return { rekeyed, failed };
}
