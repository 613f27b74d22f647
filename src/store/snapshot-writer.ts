// The snapshot writer: a worker thread with its own connection to the store's file that
// stages a snapshot's pages while the store's thread reads and checks the next ones. Checking
// (JSON, schemas, the stored form) and SQLite's writes need nothing of each other within a
// page, so on two cores they overlap: +8% records/s and 33 MB less peak in the bench, where
// the sandbox takes part of the second core (docs/sync.md, "Apply speed", fourth round).
// Each page is still one transaction with the snapshot's progress, so a kill or a power cut
// leaves whole pages and the pull resumes after the last one committed. The last page, with
// the swap, is applied on the store's own connection once every page before it committed.
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import type { PageOp, PlannedPage, TableShapes } from './feed-writes.js';

/** What the thread is started with. */
export interface ThreadData {
  readonly file: string;
  readonly busyTimeoutMs: number;
  /** The store connection's own pragmas (foreign keys, journal size limit). */
  readonly pragmas: readonly string[];
  readonly shapes: TableShapes;
}

/** A page's messages, in order: begin, ops (in chunks), then commit, or rollback. */
export type ToThread =
  | {
      readonly t: 'begin';
      readonly cursor: string | null;
      readonly requestedAt: number;
      readonly nowMs: number;
    }
  | { readonly t: 'ops'; readonly ops: readonly PageOp[] }
  | { readonly t: 'commit' }
  | { readonly t: 'rollback' };

/** `ready` once the thread has its connection; then one answer per commit, in order. */
export type FromThread =
  | { readonly t: 'ready' }
  | { readonly t: 'committed' }
  | { readonly t: 'failed'; readonly message: string };

/** Ops per message: about a thousand rows, so a page is posted while it is still being read. */
const CHUNK_OPS = 10;

/** The thread's module beside this one: .ts when run from the sources (tests), .js when built. */
const threadUrl = new URL(`./snapshot-writer-thread${extname(import.meta.url)}`, import.meta.url);

export class SnapshotWriter {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  /** True once the thread has opened its connection; false when it stopped before that. */
  readonly ready: Promise<boolean>;
  /** Pages posted whose commit has not been answered. */
  private inFlight = 0;
  private failure: Error | null = null;
  private waiters: Array<() => void> = [];

  constructor(data: ThreadData) {
    this.worker = new Worker(threadUrl, {
      workerData: data,
      // Its heap holds a few chunks of ops at a time (about 16 MB in the bench).
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    let started: (ok: boolean) => void = () => {};
    this.ready = new Promise((resolve) => (started = resolve));
    this.worker.on('message', (m: FromThread) => {
      if (m.t === 'ready') return started(true);
      if (m.t === 'failed') this.fail(new Error(`snapshot writer: ${m.message}`));
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.wake();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.once('exit', () => {
      started(false);
      if (this.inFlight > 0) this.fail(new Error('snapshot writer: the thread stopped'));
    });
  }

  /**
   * Plans one page on this thread, posting its writes as they are planned; its commit follows
   * on the writer's thread (`drain` waits for it). A plan that throws rolls the page back.
   */
  stage(
    page: { cursor: string | null; requestedAt: number; nowMs: number },
    plan: (emit: (op: PageOp) => void) => PlannedPage,
  ): PlannedPage {
    if (this.failure) throw this.failure;
    this.post({ t: 'begin', ...page });
    let chunk: PageOp[] = [];
    const emit = (op: PageOp): void => {
      chunk.push(op);
      if (chunk.length < CHUNK_OPS) return;
      this.post({ t: 'ops', ops: chunk });
      chunk = [];
    };
    let planned: PlannedPage;
    try {
      planned = plan(emit);
    } catch (error) {
      this.post({ t: 'rollback' });
      throw error;
    }
    if (chunk.length > 0) this.post({ t: 'ops', ops: chunk });
    this.post({ t: 'commit' });
    this.inFlight += 1;
    return planned;
  }

  /** Waits until at most `pages` pages await their commit; throws the thread's failure. */
  async drain(pages = 0): Promise<void> {
    while (this.inFlight > pages && !this.failure)
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.failure) throw this.failure;
  }

  /**
   * Stops the thread once it has handled what was posted (whole pages commit, a page cut
   * short by a failed plan is rolled back) and waits for it.
   */
  async close(): Promise<void> {
    this.worker.postMessage({ t: 'close' });
    await this.exited;
  }

  private post(m: ToThread): void {
    this.worker.postMessage(m);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.inFlight = 0;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}
