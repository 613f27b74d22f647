// Recovery from a corrupt database at start (docs/reliability.md): the damaged file is moved
// aside, never deleted or written; the newest backup that passes its checks is restored with
// SQLite's backup API; then every unsent operation still readable in the damaged file is put
// back (operation, effects, holds and outbox row in one transaction each), or, when it cannot
// be, exported to DIR/export/unsent-STAMP.jsonl for support to replay (the salvage is in
// recovery-salvage.ts). The report says what happened in words the cashier can be shown, and
// is also kept beside the quarantined file.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { stampOf } from './backup.js';
import { classifyStoreError } from './errors.js';
import { inspectSchema, type Migration } from './migrate.js';
import { openStore, resolveMigrations, type OpenStoreOptions, type Store } from './open.js';
import { salvage } from './recovery-salvage.js';

export interface RecoveryReport {
  /** Why the file was set aside (the open's failure). */
  readonly reason: string;
  /** DIR/quarantine/STAMP/: the damaged file with its -wal and -shm, untouched. */
  readonly quarantineDir: string;
  /** The backup restored, or null when none was usable (the store starts empty). */
  readonly restoredFrom: string | null;
  /** Backups looked at and passed over, with why. */
  readonly rejectedBackups: ReadonlyArray<{ file: string; reason: string }>;
  /** Unsent operations read from the damaged file and put back (transaction ids). */
  readonly reinserted: readonly string[];
  /** Unsent operations the restored backup already held. */
  readonly alreadyPresent: number;
  /** Unsent operations read but not put back: written to `exportFile`. */
  readonly exported: number;
  readonly exportFile: string | null;
  /** Outbox rows of the damaged file that could not be read at all. */
  readonly unreadableRows: number;
  /** True when the damaged file could not be read at all (its unsent rows are unknown). */
  readonly unreadableFile: boolean;
  /**
   * True when the damaged file's outbox could not be walked whole: rows on its damaged pages
   * are not even known by id, so unsent operations newer than the backup may be missing.
   */
  readonly outboxDamaged: boolean;
  /** Bank-card journal rows put back (an `inprocess` operation must still be reconciled). */
  readonly paymentsReinserted: number;
  /** The ledger's own check after recovery (empty when whole). */
  readonly ledgerProblems: ReadonlyArray<{ problem: string; ids: string[] }>;
  /** What to tell the cashier. */
  readonly message: string;
}

export interface RecoveryOptions extends OpenStoreOptions {
  /** Where damaged files go (default DIR/quarantine/). */
  readonly quarantineDir?: string;
  /** Where unsent operations that cannot be put back are written (default DIR/export/). */
  readonly exportDir?: string;
  /**
   * Also run `PRAGMA quick_check` before opening, so damage the open itself would not notice
   * (a broken page of a table) is caught at start. Costs a read of the whole file.
   */
  readonly verifyAtStart?: boolean;
  /**
   * Ids for the attention item a recovery puts on the list (noteRecovery). Noted before the
   * report is written, so a kill in between resumes the recovery and notes it again.
   */
  readonly attentionId?: () => string;
}

export interface OpenedWithRecovery {
  readonly store: Store;
  /** Null when the file opened normally. */
  readonly recovery: RecoveryReport | null;
}

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

class CorruptAtStart extends Error {}

function quickCheck(file: string): string | null {
  if (!existsSync(file) || statSync(file).size === 0) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check(1)') as Array<{ quick_check: string }>;
    return rows[0]?.quick_check === 'ok' ? null : (rows[0]?.quick_check ?? 'quick_check failed');
  } catch (error) {
    return classifyStoreError(error).code === 'corrupt' ? classifyStoreError(error).message : null;
  } finally {
    db?.close();
  }
}

/**
 * Opens the store; when the file is corrupt, quarantines it, restores the newest usable backup,
 * puts back the unsent operations it can read, and says so in `recovery`. Any other failure
 * (busy, full, a newer schema, ...) is thrown as openStore throws it: those are not damage.
 */
export async function openStoreWithRecovery(options: RecoveryOptions): Promise<OpenedWithRecovery> {
  const cut = unfinishedRecovery(options);
  if (cut !== null) return recover(options, null, cut);
  try {
    if (options.verifyAtStart) {
      const problem = quickCheck(options.file);
      if (problem !== null) throw new CorruptAtStart(problem);
    }
    return { store: await openStore(options), recovery: null };
  } catch (error) {
    const reason =
      error instanceof CorruptAtStart
        ? `quick_check: ${error.message}`
        : classifyStoreError(error).code === 'corrupt'
          ? classifyStoreError(error).message
          : null;
    if (reason === null) throw error;
    return recover(options, reason);
  }
}

/** The attention item's kind for a recovery at start (src/contract/commands.ts, AttentionKind). */
const RECOVERY_ATTENTION_KIND = 'store-recovered';

/**
 * Puts a recovery on the attention list, once (its quarantine directory is its reference): the
 * cashier's screen shows the list's count and the report's message until a manager resolves it.
 */
function noteRecovery(store: Store, r: RecoveryReport, id: string, nowMs: number): void {
  store.attention.note(
    {
      id,
      kind: RECOVERY_ATTENTION_KIND,
      ref: `recovery:${r.quarantineDir}`,
      message: r.message,
      details: {
        reason: r.reason,
        quarantine_dir: r.quarantineDir,
        restored_from: r.restoredFrom,
        rejected_backups: r.rejectedBackups.length,
        reinserted: r.reinserted.length,
        already_present: r.alreadyPresent,
        exported: r.exported,
        export_file: r.exportFile,
        unreadable_rows: r.unreadableRows,
        unreadable_file: r.unreadableFile,
        outbox_damaged: r.outboxDamaged,
        payments_reinserted: r.paymentsReinserted,
        ledger_problems: r.ledgerProblems.length,
      },
    },
    nowMs,
  );
}

/** What a recovery writes first into its quarantine directory, so a resumed one knows why. */
const PROGRESS = 'progress.json';
/** What a recovery writes to PROGRESS before it moves anything: why it started. */
const Progress = z.object({ reason: z.string() });
const REPORT = 'recovery.json';

/**
 * A recovery a kill cut short: a quarantine directory holding a damaged file but no report.
 * The next start resumes it, before anything opens the store: otherwise the till would start
 * on an empty file (the damaged one already moved) or a half-filled one, and say nothing.
 */
function unfinishedRecovery(options: RecoveryOptions): string | null {
  const root = options.quarantineDir ?? join(dirname(options.file), 'quarantine');
  if (!existsSync(root)) return null;
  for (const stamp of readdirSync(root).sort().reverse()) {
    const dir = join(root, stamp);
    if (existsSync(join(dir, basename(options.file))) && !existsSync(join(dir, REPORT))) return dir;
  }
  return null;
}

/**
 * Resuming: side files of the damaged file the kill left behind join it; a restored copy the
 * kill left half-filled (derived from a backup and the damaged file, never served) is removed,
 * to be restored and filled again from the start.
 */
function prepareResume(file: string, damaged: string): void {
  if (existsSync(file)) {
    for (const suffix of ['', ...SIDE_FILES]) rmSync(file + suffix, { force: true });
    return;
  }
  for (const suffix of SIDE_FILES)
    if (existsSync(file + suffix) && !existsSync(damaged + suffix))
      renameSync(file + suffix, damaged + suffix);
}

function savedReason(dir: string): string {
  try {
    const saved = Progress.safeParse(JSON.parse(readFileSync(join(dir, PROGRESS), 'utf8')));
    if (saved.success) return `${saved.data.reason} (resumed after a stop)`;
  } catch {
    // The kill came before the reason was written.
  }
  return 'a recovery was cut short by a stop, and resumed';
}

/** Moves the file and its side files to a new quarantine directory; returns the new path. */
function quarantine(file: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const moved = join(dir, basename(file));
  renameSync(file, moved);
  for (const suffix of SIDE_FILES)
    if (existsSync(file + suffix)) renameSync(file + suffix, moved + suffix);
  return moved;
}

interface Candidate {
  readonly file: string;
  readonly mtimeMs: number;
}

function backupCandidates(dir: string): Candidate[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => ({ file: join(dir, f), mtimeMs: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file));
}

/** Why a backup cannot be restored, or null when it can (whole, and a schema this app opens). */
function backupProblem(file: string, migrations: readonly Migration[]): string | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    if (integrity.length !== 1 || integrity[0] !== 'ok')
      return `integrity_check: ${integrity.slice(0, 3).join('; ')}`;
    const schema = inspectSchema(db, migrations);
    if (schema.problem) return schema.problem.message;
    if (schema.empty) return 'an empty database';
    return null;
  } catch (error) {
    return classifyStoreError(error).message;
  } finally {
    db?.close();
  }
}

/** Copies `from` to `to` with the backup API (a temp name, then renamed). */
async function restoreCopy(from: string, to: string): Promise<void> {
  const temp = `${to}.restoring`;
  rmSync(temp, { force: true });
  const src = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await src.backup(temp);
  } finally {
    src.close();
  }
  renameSync(temp, to);
}

function messageOf(r: Omit<RecoveryReport, 'message'>): string {
  const parts = [
    r.restoredFrom
      ? `The terminal's database was damaged; it was set aside and the backup ${basename(r.restoredFrom)} was restored.`
      : "The terminal's database was damaged and no usable backup was found; it was set aside and the terminal starts with an empty database (the data is downloaded again).",
  ];
  if (r.unreadableFile)
    parts.push('The damaged file could not be read: sales not yet sent from it may be missing.');
  if (r.reinserted.length > 0)
    parts.push(`${r.reinserted.length} unsent operation(s) were recovered and will be sent.`);
  if (r.exported > 0)
    parts.push(
      `${r.exported} unsent operation(s) could not be put back and were exported to ${r.exportFile}.`,
    );
  if (r.unreadableRows > 0) parts.push(`${r.unreadableRows} queued row(s) could not be read.`);
  if (r.outboxDamaged && !r.unreadableFile)
    parts.push(
      'Part of the list of unsent operations could not be read: sales made after the backup may be missing.',
    );
  parts.push(`Call support: the damaged file is kept in ${r.quarantineDir}.`);
  return parts.join(' ');
}

/** Where a recovery keeps the damaged file, and why it runs. */
interface SetAside {
  readonly quarantineDir: string;
  readonly damaged: string;
  readonly reason: string;
}

/** Moves the damaged file aside (or finds it where a cut recovery left it) and notes why. */
function setAside(
  options: RecoveryOptions,
  why: string | null,
  stamp: string,
  resumeDir: string | undefined,
): SetAside {
  const { file } = options;
  if (resumeDir) {
    const damaged = join(resumeDir, basename(file));
    prepareResume(file, damaged);
    return { quarantineDir: resumeDir, damaged, reason: why ?? savedReason(resumeDir) };
  }
  const quarantineDir = join(options.quarantineDir ?? join(dirname(file), 'quarantine'), stamp);
  const damaged = quarantine(file, quarantineDir);
  const reason = why ?? 'damaged';
  writeFileSync(join(quarantineDir, PROGRESS), JSON.stringify({ reason }) + '\n', {
    mode: 0o600,
  });
  return { quarantineDir, damaged, reason };
}

/** Restores the newest backup that passes its checks; says which, and why others did not. */
async function restoreNewest(
  options: RecoveryOptions,
  migrations: readonly Migration[],
): Promise<Pick<RecoveryReport, 'restoredFrom' | 'rejectedBackups'>> {
  const backupsDir = options.backupsDir ?? join(dirname(options.file), 'backups');
  const rejectedBackups: Array<{ file: string; reason: string }> = [];
  for (const c of backupCandidates(backupsDir)) {
    const problem = backupProblem(c.file, migrations);
    if (problem === null) {
      await restoreCopy(c.file, options.file);
      return { restoredFrom: c.file, rejectedBackups };
    }
    rejectedBackups.push({ file: c.file, reason: problem });
  }
  return { restoredFrom: null, rejectedBackups };
}

/** Writes the operations that could not be put back to DIR/export/unsent-STAMP.jsonl. */
function writeExport(options: RecoveryOptions, stamp: string, rows: unknown[]): string | null {
  if (rows.length === 0) return null;
  const dir = options.exportDir ?? join(dirname(options.file), 'export');
  mkdirSync(dir, { recursive: true });
  const exportFile = join(dir, `unsent-${stamp}.jsonl`);
  writeFileSync(exportFile, rows.map((r) => JSON.stringify(r)).join('\n') + '\n', {
    mode: 0o600,
  });
  return exportFile;
}

/** Recovers; with `resumeDir`, finishes a recovery a kill cut short (its reason is saved). */
async function recover(
  options: RecoveryOptions,
  why: string | null,
  resumeDir?: string,
): Promise<OpenedWithRecovery> {
  const { file, clock } = options;
  const stamp = stampOf(clock.now());
  const migrations = resolveMigrations(options);
  const { quarantineDir, damaged, reason } = setAside(options, why, stamp, resumeDir);
  const restored = await restoreNewest(options, migrations);
  // Bring the restored copy (or a new file) to this app's schema before anything goes in.
  (await openStore({ ...options, dailyBackup: false })).close();
  const { exportRows, ...salvaged } = salvage(damaged, file, clock.now());
  const exportFile = writeExport(options, stamp, exportRows);

  const store = await openStore(options);
  const partial = {
    reason,
    quarantineDir,
    ...restored,
    reinserted: salvaged.reinserted,
    alreadyPresent: salvaged.alreadyPresent,
    exported: exportRows.length,
    exportFile,
    unreadableRows: salvaged.unreadableRows,
    unreadableFile: salvaged.unreadableFile,
    outboxDamaged: salvaged.outboxDamaged,
    paymentsReinserted: salvaged.paymentsReinserted,
    ledgerProblems: store.check().ledger,
  };
  const report: RecoveryReport = { ...partial, message: messageOf(partial) };
  if (options.attentionId) noteRecovery(store, report, options.attentionId(), clock.now());
  writeFileSync(join(quarantineDir, REPORT), JSON.stringify(report, null, 2) + '\n', {
    mode: 0o600,
  });
  return { store, recovery: report };
}
