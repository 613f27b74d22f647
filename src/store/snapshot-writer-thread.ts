// The snapshot writer's thread (snapshot-writer.ts): its own connection to the store's file,
// on which it stages the pages the store's thread has checked, one transaction per page with
// the snapshot's progress. It loads SQLite and feed-writes.ts alone (imported by its .ts name
// so Node runs this file from the sources too; tsc rewrites it to .js in dist).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SNAPSHOT_PAGE_PRAGMAS, feedWrites, type FeedWrites } from './feed-writes.ts';
import type { FromThread, ThreadData, ToThread } from './snapshot-writer.ts';

const data = workerData as ThreadData;
const port = parentPort;
if (!port) throw new Error('snapshot-writer-thread runs as a worker thread');

const db = new Database(data.file, { timeout: data.busyTimeoutMs, fileMustExist: true });
for (const p of data.pragmas) db.pragma(p);
// Every write here is a snapshot page, committed as the store's connection commits one.
for (const [name, value] of Object.entries(SNAPSHOT_PAGE_PRAGMAS)) db.pragma(`${name} = ${value}`);
const feed: FeedWrites = feedWrites(db, data.shapes);
port.postMessage({ t: 'ready' } satisfies FromThread);

let page: {
  readonly begin: Extract<ToThread, { t: 'begin' }>;
  /** The snapshot as staged before this page (read in its transaction). */
  readonly start: { readonly startedAt: number; readonly staged: number };
  readonly stager: ReturnType<FeedWrites['pageStager']>;
} | null = null;
/** The first failure: every later page is refused with it, nothing more is written. */
let failed: string | null = null;

const reply = (m: FromThread): void => port.postMessage(m);

function rollback(): void {
  if (db.inTransaction) db.exec('ROLLBACK');
  page = null;
}

function handle(m: ToThread): void {
  if (m.t === 'rollback') return rollback();
  if (m.t === 'begin') {
    db.exec('BEGIN IMMEDIATE');
    const start = feed.snapshotStart(m.requestedAt);
    page = { begin: m, start, stager: feed.pageStager(m.cursor, m.nowMs) };
    return;
  }
  if (!page) throw new Error(`snapshot writer: "${m.t}" outside a page`);
  if (m.t === 'ops') {
    for (const op of m.ops) page.stager.write(op);
    return;
  }
  const { cursor, nowMs } = page.begin;
  const { startedAt } = page.start;
  const staged = page.start.staged + page.stager.staged();
  feed.snapshotProgress({ cursor, startedAt, staged }, nowMs);
  feed.setValue('last_pull_at', nowMs, nowMs);
  db.exec('COMMIT');
  page = null;
  reply({ t: 'committed' });
}

port.on('message', (m: ToThread | { t: 'close' }) => {
  if (m.t === 'close') {
    rollback();
    db.close();
    port.close();
    return;
  }
  if (failed === null) {
    try {
      handle(m);
      return;
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
      try {
        rollback();
      } catch {
        // The connection is past use; the store's thread is told below and stops the pull.
      }
    }
  }
  if (m.t === 'commit') reply({ t: 'failed', message: failed });
});
