// Backups with SQLite's online backup API: a consistent copy even while the till sells. Each
// copy is written under a `.partial` name and renamed when complete, so a kill mid-copy never
// leaves a file that looks like a good backup.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { narrowFile, privateDatabaseFile, privateDir } from './private-files.js';

const PARTIAL = '.partial';
const DAILY = /^daily-(\d{4}-\d{2}-\d{2})\.sqlite$/;
const PRE_MIGRATE = /^pre-migrate-.*\.sqlite$/;

/** How many daily copies and pre-migration copies DIR/backups/ keeps. */
export interface BackupRetention {
  readonly daily: number;
  readonly preMigrate: number;
}
export const DEFAULT_RETENTION: BackupRetention = { daily: 7, preMigrate: 5 };

/** `2026-11-22T10-15-00-000Z`: an instant usable in a file name on every OS. */
export function stampOf(ms: number): string {
  return new Date(ms).toISOString().replace(/:/g, '-').replace('.', '-');
}

/** Copies the open database to `dest` (atomically: temp name, then rename). */
export async function backupTo(db: Database.Database, dest: string): Promise<string> {
  const temp = dest + PARTIAL;
  rmSync(temp, { force: true });
  privateDatabaseFile(temp);
  await db.backup(temp);
  // A copy holds what the database does: 0600 like it (SQLite makes new files 0644).
  narrowFile(temp);
  renameSync(temp, dest);
  return dest;
}

function removeStalePartials(dir: string): void {
  for (const f of readdirSync(dir)) if (f.endsWith(PARTIAL)) rmSync(join(dir, f), { force: true });
}

/** Keeps the newest `keep` files matching `pattern` (names sort by time). */
function prune(dir: string, pattern: RegExp, keep: number): void {
  const files = readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();
  for (const f of files.slice(0, Math.max(0, files.length - keep)))
    rmSync(join(dir, f), { force: true });
}

/** The copy taken before migrating an existing file: `pre-migrate-vFROM-to-vTO-STAMP.sqlite`. */
export async function backupBeforeMigrate(
  db: Database.Database,
  dir: string,
  from: number,
  to: number,
  nowMs: number,
  retention: BackupRetention = DEFAULT_RETENTION,
): Promise<string> {
  privateDir(dir);
  removeStalePartials(dir);
  const name = `pre-migrate-v${String(from).padStart(4, '0')}-to-v${String(to).padStart(4, '0')}-${stampOf(nowMs)}.sqlite`;
  const path = await backupTo(db, join(dir, name));
  prune(dir, PRE_MIGRATE, retention.preMigrate);
  return path;
}

/**
 * The daily rotating copy `daily-YYYY-MM-DD.sqlite` (UTC date): taken when today's is missing,
 * older ones beyond the retention removed. Returns the new file, or null when today's exists.
 */
export async function dailyBackup(
  db: Database.Database,
  dir: string,
  nowMs: number,
  retention: BackupRetention = DEFAULT_RETENTION,
): Promise<string | null> {
  privateDir(dir);
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const dest = join(dir, `daily-${day}.sqlite`);
  if (existsSync(dest)) return null;
  removeStalePartials(dir);
  await backupTo(db, dest);
  prune(dir, DAILY, retention.daily);
  return dest;
}
