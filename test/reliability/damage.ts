// Damaging a database file on purpose, the way a failing disk or a torn write would: bytes of
// one page overwritten, or the header. Used by the recovery tests only.
import { openSync, closeSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Folds the WAL into the main file, so the file alone holds every page. */
export function checkpoint(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The root page number of a table and the file's page size. */
export function rootPageOf(file: string, table: string): { page: number; pageSize: number } {
  const db = new Database(file, { readonly: true });
  try {
    const row = db
      .prepare<[string], { rootpage: number }>(
        "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?",
      )
      .get(table);
    if (!row) throw new Error(`no table ${table}`);
    return { page: row.rootpage, pageSize: db.pragma('page_size', { simple: true }) as number };
  } finally {
    db.close();
  }
}

/** Overwrites a whole page (1-based) with a pattern that is no valid b-tree page. */
export function smashPage(file: string, page: number, pageSize: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

/** Overwrites the 100-byte header: the file is no longer recognised as a database. */
export function smashHeader(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
  } finally {
    closeSync(fd);
  }
}
