// The link with the central service as one object the terminal (and the operator CLI) holds:
// the client, the online/offline state, the outbox pusher, the puller and the sale service,
// and the loops that drive them. Draining starts on reconnect, on a timer and on new writes;
// pulling runs every pull interval while online and on demand (sync.md). Every loop is a
// single timer that reschedules itself, so stop() ends it.
import type { Config } from '../contract/config.js';
import type { Store } from '../store/open.js';
import { CentralClient } from './client.js';
import { systemTimers, type SyncClock, type SyncTimers } from './clock.js';
import { Connectivity, type LinkState, type LinkStatus } from './connectivity.js';
import { OutboxPusher, PUSH_IN_FLIGHT, type DrainOptions, type DrainResult } from './pusher.js';
import { Puller, type PullOptions, type PullResult } from './puller.js';
import { reconcile } from './reconcile.js';
import { uuidv7 } from './ids.js';

export interface SyncServiceOptions {
  store: Store;
  config: Config;
  clock: SyncClock;
  /** Base URL of the central service (config `central.url`, or the embedded sandbox's). */
  baseUrl: string;
  appVersion: string;
  schemaVersion: number;
  terminalId: string;
  onLinkChange?: (state: LinkState) => void;
  /** The loops' timers (default: Node's, unref'd); tests fire them by hand. */
  timers?: SyncTimers;
}

export interface SyncStatus extends LinkStatus {
  outbox: { queued: number; sending: number; rejected: number };
  /** The oldest write not yet delivered: what it is, since when, and how long ago (ms). */
  oldestUnsent: {
    transactionId: string;
    operation: string;
    attempts: number;
    createdAt: number;
    ageMs: number;
    nextAttemptAt: number;
  } | null;
  /** Age of the cache: time since the last completed pull (ms), null when never. */
  cacheAgeMs: number | null;
  cursor: string | null;
  snapshotInProgress: boolean;
  quarantined: number;
}

export class SyncService {
  private readonly o: SyncServiceOptions;
  readonly client: CentralClient;
  readonly link: Connectivity;
  readonly pusher: OutboxPusher;
  readonly puller: Puller;
  private timers: { drain: unknown; pull: unknown } = { drain: null, pull: null };
  private readonly clockTimers: SyncTimers;
  private running = false;
  private closed: Promise<void> | null = null;

  constructor(o: SyncServiceOptions) {
    this.o = o;
    const { store, config, clock } = o;
    this.clockTimers = o.timers ?? systemTimers;
    this.link = new Connectivity({
      clock,
      persist: store.sync,
      skewWarnMs: config.standin.clock_skew_warn_s * 1000,
      onChange: (state) => {
        o.onLinkChange?.(state);
        if (state === 'online') this.kick();
      },
    });
    this.client = new CentralClient({
      baseUrl: o.baseUrl,
      terminalId: config.central.terminal_id,
      apiKey: config.central.api_key,
      timeouts: config.central.timeouts,
      readRetry: {
        base_ms: Math.min(config.central.retry.base_ms, 1_000),
        max_ms: config.central.retry.max_ms,
      },
      appVersion: o.appVersion,
      schemaVersion: o.schemaVersion,
      transport: { tls: config.central.tls, proxy: config.central.proxy, now: () => clock.now() },
      onResponse: this.link.onResponse,
      onNoResponse: this.link.onNoResponse,
      // One socket per write in flight, so the outbox's lanes are not queued behind the pool.
      connections: PUSH_IN_FLIGHT,
    });
    this.pusher = new OutboxPusher({
      store,
      client: this.client,
      clock,
      retry: config.central.retry,
      // A refusal means the cached figures were wrong: fetch the server's at once.
      onRejected: () => void this.pull().catch(() => undefined),
      // The server's answer against the till's: owed bonuses settled, differences listed.
      onDone: (row, response) =>
        reconcile(
          { store, now: () => clock.now(), newId: () => uuidv7(clock.now()) },
          row,
          response,
        ),
    });
    this.puller = new Puller({ store, client: this.client, clock });
  }

  /** Starts the loops: a first pull and drain now, then on their timers. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.scheduleDrain(0);
    this.schedulePull(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timers.drain !== null) this.clockTimers.clear(this.timers.drain);
    if (this.timers.pull !== null) this.clockTimers.clear(this.timers.pull);
    this.timers = { drain: null, pull: null };
    // A second stop (a shutdown path and a test's cleanup) waits for the first close.
    this.closed ??= this.client.close();
    await this.closed;
  }

  /** Drain soon (a new write, a reconnect). */
  kick(): void {
    if (this.running) this.scheduleDrain(0);
  }

  /** Drains the outbox; `{ now: true }` for a manual sync, which ignores every backoff. */
  push(options: DrainOptions & { maxRows?: number } = {}): Promise<DrainResult> {
    return this.pusher.drain(options.maxRows, options);
  }

  pull(options: PullOptions = {}): Promise<PullResult> {
    return this.puller.pull(options);
  }

  status(): SyncStatus {
    const { store } = this.o;
    const lastPull = store.sync.lastPullAt();
    const now = this.o.clock.now();
    const oldest = store.outbox.oldestUnsent();
    return {
      ...this.link.status(),
      outbox: store.outbox.depth(),
      oldestUnsent: oldest && {
        transactionId: oldest.transactionId,
        operation: oldest.operation,
        attempts: oldest.attempts,
        createdAt: oldest.createdAt,
        ageMs: Math.max(0, now - oldest.createdAt),
        nextAttemptAt: oldest.nextAttemptAt,
      },
      cacheAgeMs: lastPull === null ? null : Math.max(0, now - lastPull),
      cursor: store.sync.cursor(),
      snapshotInProgress: store.sync.snapshot() !== null,
      quarantined: store.sync.quarantineCount(),
    };
  }

  private scheduleDrain(delayMs: number): void {
    if (!this.running) return;
    if (this.timers.drain !== null) this.clockTimers.clear(this.timers.drain);
    this.timers.drain = this.clockTimers.set(() => {
      this.timers.drain = null;
      void this.pusher
        .drain()
        .then((r) => {
          const interval = this.o.config.central.retry.drain_interval_ms;
          const next =
            r.nextDueAt === null
              ? interval
              : Math.min(interval, Math.max(0, r.nextDueAt - this.o.clock.now()));
          this.scheduleDrain(next);
        })
        .catch(() => this.scheduleDrain(this.o.config.central.retry.drain_interval_ms));
    }, delayMs);
  }

  private schedulePull(delayMs: number): void {
    if (!this.running) return;
    this.timers.pull = this.clockTimers.set(() => {
      this.timers.pull = null;
      // Pull while online (or not yet known); offline, the drain's requests find the way back.
      const run = this.link.current === 'offline' ? Promise.resolve(null) : this.puller.pull();
      void run
        .catch(() => null)
        .finally(() => this.schedulePull(this.o.config.central.pull_interval_ms));
    }, delayMs);
  }
}
