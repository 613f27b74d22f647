// `loyalty-terminal sync status|pull|push` for operators: the link's state, the outbox depth
// and the attention list; a pull of the change feed now; a drain of the outbox now (every
// queued row, whatever its backoff). They start as the agent does (src/config/settings.ts,
// src/terminal/terminal.ts): the configuration, the data directory it names
// (`terminal.data_dir`, else --data), the agent's secret store there for the central API
// key, and the store opened with recovery from DIR/backups/ when damaged. push and pull take
// the data directory's lock, so they never race a running terminal.
import { join } from 'node:path';
import { DATA_FLAGS, HELP_FLAG, parseFlags } from '../config/flags.js';
import { packageVersion } from '../config/package-info.js';
import type { SecretStore } from '../config/secret-store.js';
import { resolveSettings, type SettingsFlags } from '../config/settings.js';
import type { Config } from '../contract/config.js';
import { effectiveTerminalId } from '../contract/config.js';
import { startEmbeddedCentral } from '../central/embedded.js';
import { openStore, type Store } from '../store/open.js';
import { systemSyncClock } from '../sync/clock.js';
import { entitySchemas } from '../sync/entities.js';
import { uuidv7 } from '../sync/ids.js';
import { outboxPayloadSchema } from '../sync/outbox-payload.js';
import { SyncService } from '../sync/sync-service.js';
import { acquireDataDirLock } from '../terminal/lock.js';
import { loggerOver, type Logger } from '../terminal/log.js';
import type { EmbeddedCentral } from '../terminal/ports.js';
import { connectCentral, openTerminalStore } from '../terminal/terminal.js';
import { refuseUsage, type CliIO } from './io.js';

const USAGE =
  'usage: loyalty-terminal sync status|pull|push [--data DIR] [--db FILE] [--config FILE] [--json]\n';

const SYNC_FLAGS = {
  ...DATA_FLAGS,
  ...HELP_FLAG,
  db: { type: 'string' },
  json: { type: 'boolean' },
} as const;

interface Flags {
  sub: 'status' | 'pull' | 'push';
  common: SettingsFlags;
  db: string | null;
  json: boolean;
}

/** The flags, or why not (null: no reason but the usage itself). */
function readFlags(args: string[]): Flags | 'help' | { refused: string | null } {
  const parsed = parseFlags(args, SYNC_FLAGS);
  if (!parsed.ok) return { refused: parsed.message };
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const [sub, ...extra] = positionals;
  if ((sub !== 'status' && sub !== 'pull' && sub !== 'push') || extra.length > 0)
    return { refused: null };
  return { sub, common: values, db: values.db ?? null, json: values.json ?? false };
}

/** Warnings of the start (a secret in clear in config.json, ...) go to stderr. */
function stderrLogger(io: CliIO, sub: string): Logger {
  return loggerOver(
    (r) => io.stderr(`sync ${sub}: ${r.level}: ${r.msg}${r.key ? ` (${String(r.key)})` : ''}\n`),
    { level: 'warn' },
  );
}

/**
 * The store. pull and push hold the lock: a damaged file is recovered as at the agent's start
 * (and listed for the cashier). status takes no lock, so it never moves a file a running
 * terminal may have open: it reports the damage.
 */
async function openFor(
  f: Flags,
  file: string,
  secrets: SecretStore,
  io: CliIO,
  log: Logger,
): Promise<Store> {
  const clock = systemSyncClock;
  if (f.sub === 'status')
    return openStore({
      file,
      clock,
      dailyBackup: false,
      entitySchemas,
      payloadSchemas: outboxPayloadSchema,
    });
  const { store, recovery } = await openTerminalStore({
    file,
    clock,
    log,
    secrets,
    newId: () => uuidv7(clock.now()),
    dailyBackup: false,
  });
  if (recovery) io.stderr(`sync ${f.sub}: ${recovery.message}\n`);
  return store;
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${Math.round(ms / 1000)} s`);

export async function runSync(args: string[], io: CliIO): Promise<number> {
  const f = readFlags(args);
  if (f === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if ('refused' in f) {
    if (f.refused !== null) return refuseUsage(io, 'sync', f.refused, USAGE);
    io.stderr(USAGE);
    return 2;
  }
  const resolved = await resolveSettings(f.common, { readText: (file) => io.readInput(file) });
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return 2;
  }
  const { dataDir, secrets } = resolved.settings;
  const config: Config = resolved.settings.config;
  const lock = f.sub === 'status' ? null : acquireDataDirLock(dataDir);
  if (lock && !lock.ok) {
    io.stderr(`sync ${f.sub}: ${lock.error.message}\n`);
    return 1;
  }
  const clock = systemSyncClock;
  const log = stderrLogger(io, f.sub);
  let embedded: EmbeddedCentral | null = null;
  let store: Store;
  try {
    store = await openFor(f, f.db ?? join(dataDir, 'terminal.sqlite'), secrets, io, log);
  } catch (err) {
    if (lock?.ok) lock.lock.release();
    io.stderr(`sync ${f.sub}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    // status reads only the store; pull and push reach the central service as the agent does.
    const link =
      f.sub === 'status'
        ? { config, baseUrl: config.central.url ?? 'http://127.0.0.1:9', central: null }
        : await connectCentral({
            dataDir,
            config,
            secrets,
            clock,
            log,
            embedded: startEmbeddedCentral,
          });
    embedded = link.central;
    const sync = new SyncService({
      store,
      config: link.config,
      clock,
      baseUrl: link.baseUrl,
      appVersion: packageVersion(),
      schemaVersion: store.schema().applied.length,
      terminalId: effectiveTerminalId(config),
    });
    try {
      if (f.sub === 'pull') return await pull(sync, f, io);
      if (f.sub === 'push') return await push(sync, store, f, io);
      return status(sync, store, config, f, io);
    } finally {
      await sync.stop();
    }
  } finally {
    store.close();
    await embedded?.close();
    if (lock?.ok) lock.lock.release();
  }
}

async function pull(sync: SyncService, f: Flags, io: CliIO): Promise<number> {
  let lastShown = -1;
  const r = await sync.pull({
    onProgress: (p) => {
      if (f.json || p.total === null || p.total === 0) return;
      const pct = Math.floor((p.done / p.total) * 100);
      if (pct !== lastShown && pct % 10 === 0)
        io.stderr(`snapshot: ${p.done} of ${p.total} records (${pct}%)\n`);
      lastShown = pct;
    },
  });
  if (!r.ok) {
    io.stderr(`sync pull: ${r.failure.code}: ${r.failure.message}\n`);
    return 1;
  }
  io.stdout(
    f.json
      ? `${JSON.stringify(r)}\n`
      : `pulled ${r.pages} pages: ${r.applied} records applied, ${r.quarantined} quarantined${r.snapshot ? ' (full snapshot)' : ''}\n`,
  );
  return 0;
}

async function push(sync: SyncService, store: Store, f: Flags, io: CliIO): Promise<number> {
  const r = await sync.push({ now: true });
  const depth = store.outbox.depth();
  io.stdout(
    f.json
      ? `${JSON.stringify({ ...r, lastFailure: r.lastFailure?.message ?? null, outbox: depth })}\n`
      : `sent ${r.sent}: ${r.done} done, ${r.rejected} rejected, ${r.retried} to retry; ${depth.queued} still queued, ${depth.rejected} need attention\n`,
  );
  return r.lastFailure && depth.queued > 0 ? 1 : 0;
}

function status(sync: SyncService, store: Store, config: Config, f: Flags, io: CliIO): number {
  const s = sync.status();
  const attention = store.outbox.attention().map((row) => ({
    transaction_id: row.transactionId,
    operation: row.operation,
    reason: row.response,
    at: new Date(row.updatedAt).toISOString(),
  }));
  if (f.json) {
    io.stdout(`${JSON.stringify({ ...s, attention })}\n`);
    return 0;
  }
  io.stdout(
    [
      `central: ${config.central.url ?? 'embedded sandbox'}`,
      `link: ${s.state}, last contact ${seconds(s.sinceContactMs)} ago`,
      `outbox: ${s.outbox.queued} queued, ${s.outbox.sending} sending, ${s.outbox.rejected} need attention`,
      ...(s.oldestUnsent
        ? [
            `oldest unsent: ${s.oldestUnsent.operation} ${s.oldestUnsent.transactionId}, recorded ${new Date(s.oldestUnsent.createdAt).toISOString()} (${seconds(s.oldestUnsent.ageMs)} ago), ${s.oldestUnsent.attempts} attempts`,
          ]
        : []),
      `cache: last pull ${seconds(s.cacheAgeMs)} ago${s.snapshotInProgress ? ', a snapshot is in progress' : ''}, ${s.quarantined} quarantined`,
      ...(s.tlsFailed
        ? [
            `link: tls-failed: ${s.tlsFailed.code}: ${s.tlsFailed.message}, since ${new Date(s.tlsFailed.at).toISOString()}`,
          ]
        : []),
      ...(s.clockSuspect ? [`warning: ${s.clockReason}`] : []),
      ...attention.map(
        (a) => `attention: ${a.operation} ${a.transaction_id}: ${JSON.stringify(a.reason)}`,
      ),
    ].join('\n') + '\n',
  );
  return 0;
}
