// A byte link to one device, whatever carries it (serial line, TCP, in-memory for simulators),
// that reopens itself: when the line goes away it polls and reopens with backoff, and reports
// its state for the UI. No library reconnects for us (devices.md, "Ports and faults").
import { EventEmitter } from 'node:events';

export type LinkState = 'stopped' | 'connecting' | 'open' | 'reconnecting';

export interface ByteLink {
  readonly state: LinkState;
  write(bytes: Uint8Array): Promise<void>;
  onData(fn: (chunk: Uint8Array) => void): () => void;
  onState(fn: (state: LinkState, detail: string | null) => void): () => void;
  /** Resolves once open; rejects after `timeoutMs`. */
  waitOpen(timeoutMs: number): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** One opened connection; `ManagedLink` wraps it and replaces it after a loss. */
export interface RawConnection {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  onData(fn: (chunk: Uint8Array) => void): void;
  /** Called once when the connection is lost or closed. */
  onClose(fn: (reason: string) => void): void;
  /** Polled while open: false when the device went away without the OS telling us. */
  alive(): Promise<boolean>;
}

export type Opener = () => Promise<RawConnection>;

export interface BackoffOptions {
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** How often an open link checks it is still there. */
  livenessMs: number;
}

export class LinkError extends Error {
  readonly code: 'not-open' | 'timeout' | 'write-failed';
  constructor(code: 'not-open' | 'timeout' | 'write-failed', message: string) {
    super(message);
    this.code = code;
  }
}

function backoffDelay(
  attempt: number,
  o: Pick<BackoffOptions, 'reconnectMinMs' | 'reconnectMaxMs'>,
): number {
  return Math.min(o.reconnectMaxMs, o.reconnectMinMs * 2 ** Math.min(attempt, 30));
}

export class ManagedLink implements ByteLink {
  private readonly events = new EventEmitter();
  private readonly opener: Opener;
  private readonly options: BackoffOptions;
  private conn: RawConnection | null = null;
  private current: LinkState = 'stopped';
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private liveTimer: NodeJS.Timeout | null = null;
  /** Bumped on every (re)open and stop, so late callbacks of an old connection are ignored. */
  private epoch = 0;

  constructor(opener: Opener, options: BackoffOptions) {
    this.opener = opener;
    this.options = options;
    this.events.setMaxListeners(0);
  }

  get state(): LinkState {
    return this.current;
  }

  onData(fn: (chunk: Uint8Array) => void): () => void {
    this.events.on('data', fn);
    return () => this.events.off('data', fn);
  }

  onState(fn: (state: LinkState, detail: string | null) => void): () => void {
    this.events.on('state', fn);
    return () => this.events.off('state', fn);
  }

  start(): void {
    if (this.current !== 'stopped') return;
    this.setState('connecting', null);
    void this.tryOpen(this.epoch);
  }

  async stop(): Promise<void> {
    this.epoch++;
    this.clearTimers();
    const conn = this.conn;
    this.conn = null;
    this.setState('stopped', null);
    if (conn) await conn.close().catch(() => undefined);
  }

  async write(bytes: Uint8Array): Promise<void> {
    const conn = this.conn;
    if (!conn || this.current !== 'open')
      throw new LinkError('not-open', `link is ${this.current}`);
    try {
      await conn.write(bytes);
    } catch (e) {
      this.lost(this.epoch, `write failed: ${(e as Error).message}`);
      throw new LinkError('write-failed', (e as Error).message);
    }
  }

  waitOpen(timeoutMs: number): Promise<void> {
    if (this.current === 'open') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new LinkError('timeout', `not open after ${timeoutMs} ms (${this.current})`));
      }, timeoutMs);
      const off = this.onState((s) => {
        if (s === 'open') {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
  }

  private setState(state: LinkState, detail: string | null): void {
    if (state === this.current && detail === null) return;
    this.current = state;
    this.events.emit('state', state, detail);
  }

  private async tryOpen(epoch: number): Promise<void> {
    let conn: RawConnection;
    try {
      conn = await this.opener();
    } catch (e) {
      if (epoch !== this.epoch) return;
      this.scheduleRetry(epoch, (e as Error).message);
      return;
    }
    if (epoch !== this.epoch) {
      await conn.close().catch(() => undefined);
      return;
    }
    const mine = ++this.epoch;
    this.conn = conn;
    this.attempt = 0;
    conn.onData((chunk) => {
      if (mine === this.epoch) this.events.emit('data', chunk);
    });
    conn.onClose((reason) => this.lost(mine, reason));
    this.setState('open', null);
    this.liveTimer = setInterval(() => {
      void conn.alive().then(
        (ok) => {
          if (!ok) this.lost(mine, 'device went away');
        },
        () => this.lost(mine, 'device went away'),
      );
    }, this.options.livenessMs);
    this.liveTimer.unref?.();
  }

  private lost(epoch: number, reason: string): void {
    if (epoch !== this.epoch || this.current === 'stopped') return;
    const conn = this.conn;
    this.conn = null;
    const next = ++this.epoch;
    this.clearTimers();
    if (conn) void conn.close().catch(() => undefined);
    this.scheduleRetry(next, reason);
  }

  private scheduleRetry(epoch: number, reason: string): void {
    const delay = backoffDelay(this.attempt++, this.options);
    this.setState('reconnecting', reason);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (epoch === this.epoch) void this.tryOpen(epoch);
    }, delay);
    this.retryTimer.unref?.();
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.liveTimer) clearInterval(this.liveTimer);
    this.retryTimer = null;
    this.liveTimer = null;
  }
}

/**
 * Two links joined back to back in memory: what one writes, the other receives. Simulated
 * devices of the embedded default talk over these; `unplug()` and `plug()` stand for a cable.
 */
export class MemoryLink implements ByteLink {
  private readonly events = new EventEmitter();
  private current: LinkState = 'open';
  peer: MemoryLink | null = null;

  get state(): LinkState {
    return this.current;
  }

  static pair(): [MemoryLink, MemoryLink] {
    const a = new MemoryLink();
    const b = new MemoryLink();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  onData(fn: (chunk: Uint8Array) => void): () => void {
    this.events.on('data', fn);
    return () => this.events.off('data', fn);
  }

  onState(fn: (state: LinkState, detail: string | null) => void): () => void {
    this.events.on('state', fn);
    return () => this.events.off('state', fn);
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.current !== 'open') throw new LinkError('not-open', `link is ${this.current}`);
    const peer = this.peer;
    const copy = Uint8Array.from(bytes);
    // Asynchronous like a real line, so a reply never re-enters the writer's call stack.
    setImmediate(() => {
      if (peer && peer.current === 'open' && this.current === 'open')
        peer.events.emit('data', copy);
    });
  }

  waitOpen(timeoutMs: number): Promise<void> {
    if (this.current === 'open') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new LinkError('timeout', 'not open')), timeoutMs);
      const off = this.onState((s) => {
        if (s === 'open') {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
  }

  start(): void {
    this.set('open');
  }

  async stop(): Promise<void> {
    this.set('stopped');
  }

  unplug(): void {
    this.set('reconnecting');
    if (this.peer) this.peer.set('reconnecting');
  }

  plug(): void {
    this.set('open');
    if (this.peer) this.peer.set('open');
  }

  private set(state: LinkState): void {
    if (state === this.current) return;
    this.current = state;
    this.events.emit('state', state, null);
  }
}
