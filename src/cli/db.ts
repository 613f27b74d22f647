// `loyalty-terminal db migrate|status|backup|check`: the operator's commands on the terminal's
// database. `status`, `check` and `backup` never migrate or otherwise change the file (a
// damaged file is reported, not recovered); `migrate` recovers one as a start does.
import { dirname, join } from 'node:path';
import { DATA_FLAGS, HELP_FLAG, parseFlags } from '../config/flags.js';
import { secretStoreIn } from '../config/secret-store.js';
import { resolveSettings, type SettingsFlags } from '../config/settings.js';
import { classifyStoreError } from '../store/errors.js';
import type { Migration, SchemaStatus } from '../store/migrate.js';
import { backupFile, checkFile, inspectFile, resolveMigrations } from '../store/open.js';
import { systemSyncClock } from '../sync/clock.js';
import { uuidv7 } from '../sync/ids.js';
import { acquireDataDirLock } from '../terminal/lock.js';
import { nullLogger } from '../terminal/log.js';
import { openTerminalStore } from '../terminal/terminal.js';
import { stampOf } from '../store/backup.js';
import { refuseUsage, type CliIO } from './io.js';

export const DB_HELP = `Usage: loyalty-terminal db COMMAND [--db FILE | --data DIR] [--config FILE]

Commands:
  status    the applied and pending migrations (exit 1 when the app must refuse the file)
  migrate   apply the pending migrations (after a backup to DIR/backups/); a damaged
            file is set aside and recovered from DIR/backups/, as at the terminal's start
            (stop the terminal first: migrate takes the data directory's lock)
  backup    copy the database with SQLite's backup API (--out FILE; default
            DIR/backups/manual-STAMP.sqlite)
  check     PRAGMA integrity_check, foreign keys and the ledger's invariants (exit 1 on a fault)

The database is --db FILE, else terminal.sqlite in the data directory the agent uses:
the configuration's terminal.data_dir (config from --config FILE, else DIR/config.json),
else DIR (--data, default ~/.loyalty-terminal).
`;

interface Parsed {
  command: string | undefined;
  /** `--db FILE`: the database itself, whatever the configuration says. */
  db: string | undefined;
  /** `--data`, `--config`: where the configuration, and through it the database, is. */
  settings: SettingsFlags;
  out: string | undefined;
  migrationsDir: string | undefined;
  help: boolean;
}

const DB_FLAGS = {
  ...HELP_FLAG,
  ...DATA_FLAGS,
  db: { type: 'string' },
  out: { type: 'string' },
  migrations: { type: 'string' },
} as const;

function parse(args: string[]): Parsed | { error: string } {
  const parsed = parseFlags(args[0] === 'db' ? args.slice(1) : args, DB_FLAGS);
  if (!parsed.ok) return { error: parsed.message };
  const { values, positionals } = parsed;
  const [command, extra] = positionals;
  if (extra !== undefined) return { error: `unexpected argument ${extra}` };
  return {
    command,
    db: values.db,
    settings: { data: values.data, config: values.config },
    out: values.out,
    migrationsDir: values.migrations,
    help: values.help ?? false,
  };
}

/** A command on one database file. */
type OnFile = Parsed & { file: string };

/**
 * The database the command works on: `--db FILE`, else DIR/terminal.sqlite of the data
 * directory every other command resolves (`terminal.data_dir` honoured, src/config).
 */
async function databaseFile(
  p: Parsed,
  io: CliIO,
): Promise<{ ok: true; file: string } | { ok: false; message: string }> {
  if (p.db !== undefined) return { ok: true, file: p.db };
  const resolved = await resolveSettings(p.settings, { readText: (f) => io.readInput(f) });
  if (!resolved.ok) return resolved;
  return { ok: true, file: join(resolved.settings.dataDir, 'terminal.sqlite') };
}

const pad = (v: number): string => String(v).padStart(4, '0');

function describeSchema(s: SchemaStatus, all: readonly Migration[]): string {
  const lines: string[] = [];
  const changed = new Set(s.changed);
  const known = new Set(all.map((m) => m.version));
  lines.push(`applied (${s.applied.length}):`);
  for (const a of s.applied) {
    const mark = changed.has(a.version)
      ? 'CHANGED'
      : known.has(a.version)
        ? 'ok'
        : 'UNKNOWN to this app';
    lines.push(
      `  ${pad(a.version)}_${a.name}  ${a.appliedAt}  sha256:${a.checksum.slice(0, 12)}  ${mark}`,
    );
  }
  lines.push(`pending (${s.pending.length}):`);
  for (const m of s.pending)
    lines.push(`  ${pad(m.version)}_${m.name}  sha256:${m.checksum.slice(0, 12)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `db migrate` opens the store as every start does: a damaged file is recovered from
 * DIR/backups/ (and listed for the cashier). It holds the data directory's lock meanwhile, so
 * it never moves or migrates a file under a running terminal.
 */
async function migrate(p: OnFile, migrations: readonly Migration[], io: CliIO): Promise<number> {
  const lock = acquireDataDirLock(dirname(p.file));
  if (!lock.ok) {
    io.stderr(`db migrate: ${lock.error.message}\n`);
    return 1;
  }
  try {
    const before = statusUnlessDamaged(p.file, migrations);
    if (before?.problem) throw before.problem;
    const { store, recovery } = await openTerminalStore({
      file: p.file,
      clock: systemSyncClock,
      log: nullLogger,
      // The secret of the data directory the file lives in, as the agent there keys it.
      secrets: secretStoreIn(dirname(p.file)),
      newId: () => uuidv7(Date.now()),
      dailyBackup: false,
      ...(p.migrationsDir === undefined ? {} : { migrationsDir: p.migrationsDir }),
    });
    store.close();
    if (recovery) io.stderr(`db migrate: ${recovery.message}\n`);
    const pending = recovery ? [] : (before?.pending ?? migrations);
    if (pending.length === 0)
      io.stdout(`database: ${p.file} is up to date (schema ${pad(migrations.length)})\n`);
    else {
      io.stdout(`database: ${p.file} migrated to schema ${pad(migrations.length)}\n`);
      for (const m of pending) io.stdout(`  applied ${pad(m.version)}_${m.name}\n`);
    }
    return 0;
  } finally {
    lock.lock.release();
  }
}

/** The file's schema, or null when the file is too damaged to say (recovery decides). */
function statusUnlessDamaged(file: string, migrations: readonly Migration[]): SchemaStatus | null {
  try {
    return inspectFile(file, migrations);
  } catch (error) {
    if (classifyStoreError(error).code === 'corrupt') return null;
    throw error;
  }
}

export async function runDb(args: string[], io: CliIO): Promise<number> {
  const p = parse(args);
  if ('error' in p) return refuseUsage(io, 'db', p.error, DB_HELP);
  if (p.command === undefined || p.command === 'help' || p.help) {
    io.stdout(DB_HELP);
    return p.command === undefined && !p.help ? 2 : 0;
  }
  const target = await databaseFile(p, io);
  if (!target.ok) {
    io.stderr(`${target.message}\n`);
    return 2;
  }
  return onFile({ ...p, file: target.file }, io);
}

async function onFile(p: OnFile, io: CliIO): Promise<number> {
  try {
    const migrations = resolveMigrations({ migrationsDir: p.migrationsDir });
    switch (p.command) {
      case 'status': {
        const s = inspectFile(p.file, migrations);
        io.stdout(`database: ${p.file}${s.empty ? ' (no schema yet)' : ''}\n`);
        io.stdout(describeSchema(s, migrations));
        if (s.problem) {
          io.stderr(`db status: ${s.problem.message}\n`);
          return 1;
        }
        return 0;
      }
      case 'migrate':
        return await migrate(p, migrations, io);
      case 'backup': {
        const dest =
          p.out ?? join(dirname(p.file), 'backups', `manual-${stampOf(Date.now())}.sqlite`);
        const written = await backupFile(p.file, dest);
        io.stdout(`backup written: ${written}\n`);
        return 0;
      }
      case 'check': {
        const { schema, report } = checkFile(p.file, migrations);
        io.stdout(`integrity_check: ${report.integrity.join('; ')}\n`);
        io.stdout(
          `foreign_key_check: ${report.foreignKeyViolations === 0 ? 'ok' : `${report.foreignKeyViolations} violations`}\n`,
        );
        if (schema.problem || schema.pending.length > 0) {
          io.stdout(
            `ledger: not checked (schema ${schema.problem ? 'refused' : 'has pending migrations'})\n`,
          );
        } else if (report.ledger.length === 0) io.stdout('ledger: ok\n');
        else
          for (const l of report.ledger) io.stdout(`ledger: ${l.problem}: ${l.ids.join(', ')}\n`);
        return report.ok ? 0 : 1;
      }
      default:
        io.stderr(`db: unknown command "${p.command}"\n${DB_HELP}`);
        return 2;
    }
  } catch (error) {
    const f = classifyStoreError(error);
    io.stderr(`db ${p.command}: ${f.code}: ${f.message}\n`);
    return 1;
  }
}
