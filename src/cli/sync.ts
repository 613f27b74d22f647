// `loyalty-terminal sync status|pull|push` for operators: the link's state, the outbox depth
// and the attention list; a pull of the change feed now; a drain of the outbox now. push and
// pull take the data directory's lock, so they never race a running terminal.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type Config } from '../contract/config.js';
import { startCentral, type RunningCentral } from '../central/index.js';
import { openStore } from '../store/open.js';
import { systemSyncClock } from '../sync/clock.js';
import { entitySchemas } from '../sync/entities.js';
import { outboxPayloadSchema } from '../sync/outbox-payload.js';
import { SyncService } from '../sync/sync-service.js';
import { acquireDataDirLock } from '../terminal/lock.js';
import type { CliIO } from './io.js';
import { packageVersion } from './package-info.js';

const USAGE =
  'usage: loyalty-terminal sync status|pull|push [--data DIR] [--db FILE] [--config FILE] [--json]\n';

interface Flags {
  sub: string;
  data: string;
  db: string | null;
  config: string | null;
  json: boolean;
}

function parseFlags(args: string[]): Flags | null {
  const [sub, ...rest] = args;
  if (sub !== 'status' && sub !== 'pull' && sub !== 'push') return null;
  const f: Flags = {
    sub,
    data: join(homedir(), '.loyalty-terminal'),
    db: null,
    config: null,
    json: false,
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const v = rest[i + 1];
    if (a === '--json') f.json = true;
    else if ((a === '--data' || a === '--db' || a === '--config') && v !== undefined) {
      f[a.slice(2) as 'data' | 'db' | 'config'] = v;
      i++;
    } else return null;
  }
  return f;
}

function loadConfig(f: Flags, io: CliIO): Config | null {
  const file = f.config ?? join(f.data, 'config.json');
  let json: unknown = {};
  if (existsSync(file)) {
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      io.stderr(`${file}: ${(err as Error).message}\n`);
      return null;
    }
  } else if (f.config) {
    io.stderr(`${file}: no such file\n`);
    return null;
  }
  const r = parseConfig(json);
  if (r.ok) return r.config;
  for (const e of r.errors) io.stderr(`${file}: ${e.path || '(root)'}: ${e.message}\n`);
  return null;
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${Math.round(ms / 1000)} s`);

export async function runSync(args: string[], io: CliIO): Promise<number> {
  const f = parseFlags(args);
  if (!f) {
    io.stderr(USAGE);
    return 2;
  }
  const config = loadConfig(f, io);
  if (!config) return 2;
  const lock = f.sub === 'status' ? null : acquireDataDirLock(f.data);
  if (lock && !lock.ok) {
    io.stderr(`sync ${f.sub}: ${lock.error.message}\n`);
    return 1;
  }
  const clock = systemSyncClock;
  let embedded: RunningCentral | null = null;
  let store;
  try {
    store = await openStore({
      file: f.db ?? join(f.data, 'terminal.sqlite'),
      clock,
      dailyBackup: false,
      entitySchemas,
      payloadSchemas: outboxPayloadSchema,
    });
  } catch (err) {
    if (lock?.ok) lock.lock.release();
    io.stderr(`sync ${f.sub}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    let baseUrl = config.central.url;
    if (baseUrl === null && f.sub !== 'status') {
      // No central URL: the embedded sandbox, kept beside the terminal's data.
      embedded = await startCentral({ db: join(f.data, 'sandbox-central.sqlite'), seed: 'demo' });
      baseUrl = embedded.url;
    }
    const sync = new SyncService({
      store,
      config,
      clock,
      baseUrl: baseUrl ?? 'http://127.0.0.1:9',
      appVersion: packageVersion(),
      schemaVersion: store.schema().applied.length,
      terminalId: config.terminal.id ?? config.central.terminal_id,
    });
    try {
      if (f.sub === 'pull') {
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
      if (f.sub === 'push') {
        const r = await sync.push({ now: true });
        const depth = store.outbox.depth();
        io.stdout(
          f.json
            ? `${JSON.stringify({ ...r, lastFailure: r.lastFailure?.message ?? null, outbox: depth })}\n`
            : `sent ${r.sent}: ${r.done} done, ${r.rejected} rejected, ${r.retried} to retry; ${depth.queued} still queued, ${depth.rejected} need attention\n`,
        );
        return r.lastFailure && depth.queued > 0 ? 1 : 0;
      }
      const s = sync.status();
      const attention = store.outbox.attention().map((row) => ({
        transaction_id: row.transactionId,
        operation: row.operation,
        reason: row.response,
        at: new Date(row.updatedAt).toISOString(),
      }));
      if (f.json) io.stdout(`${JSON.stringify({ ...s, attention })}\n`);
      else {
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
            ...(s.clockSuspect ? [`warning: ${s.clockReason}`] : []),
            ...attention.map(
              (a) => `attention: ${a.operation} ${a.transaction_id}: ${JSON.stringify(a.reason)}`,
            ),
          ].join('\n') + '\n',
        );
      }
      return 0;
    } finally {
      await sync.stop();
    }
  } finally {
    store.close();
    await embedded?.close();
    if (lock?.ok) lock.lock.release();
  }
}
