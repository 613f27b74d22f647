// Online or offline, and for how long (sync.md): "online" means a real request just
// succeeded, not an OS event. The offline window (how old the cache may be for offline
// spending) runs from the last successful server contact on a monotonic clock, so moving the
// system clock cannot extend it. The last contact is also persisted (wall time), so the window
// survives a restart; a wall clock found behind the persisted contact moved backwards, and
// that closes the window instead of reopening it. The server's Date header is compared with
// the local clock; a skew over the configured limit is a warning, and sales made meanwhile
// are flagged clock_suspect.
import { z } from 'zod';
import type { StoredRead } from '../store/stored-json.js';
import type { SyncClock } from './clock.js';
import { isTlsFailure } from './tls.js';

export type LinkState = 'unknown' | 'online' | 'offline';

export interface ContactStore {
  getValue<T>(key: string, schema: z.ZodType<T>): StoredRead<T> | null;
  setValue(key: string, value: unknown, nowMs: number): void;
}

export interface ConnectivityOptions {
  clock: SyncClock;
  /** Where the last contact is kept across restarts (the store's sync_state). */
  persist: ContactStore;
  /** Skew over this is a warning (config `standin.clock_skew_warn_s`). */
  skewWarnMs: number;
  /** Persist the last contact at most this often while online (a write per request is waste). */
  persistEveryMs?: number;
  /** A wall jump against the monotonic clock larger than this makes the clock suspect. */
  jumpToleranceMs?: number;
  onChange?: (state: LinkState) => void;
}

export interface LinkStatus {
  state: LinkState;
  /** Milliseconds since the last successful contact; null when none is known (never, or closed). */
  sinceContactMs: number | null;
  /** Server time minus local time at the last answer (ms), when known. */
  skewMs: number | null;
  skewWarning: boolean;
  clockSuspect: boolean;
  /** Why the clock is suspect, for the status line. */
  clockReason: string | null;
  /**
   * The link is "tls-failed": the last call failed the TLS handshake (src/sync/tls.ts), with
   * its stable code and since when; cleared by the next answer. Persisted, so `sync status`
   * in another process shows it.
   */
  tlsFailed: LinkError | null;
}

const LinkError = z.object({ code: z.string(), message: z.string(), at: z.number() });
export type LinkError = z.output<typeof LinkError>;
const ERROR_KEY = 'link_tls_failure';

const KEY = 'last_contact';

const PersistedContact = z.object({ wall: z.number() });
type PersistedContact = z.output<typeof PersistedContact>;

export class Connectivity {
  private readonly o: ConnectivityOptions;
  private state: LinkState = 'unknown';
  /** Monotonic time of the last contact in this process. */
  private contactMono: number | null = null;
  private contactWall: number | null = null;
  private persistedAt: number | null = null;
  /** Set at start when the persisted contact cannot be trusted any more. */
  private windowClosed = false;
  private skewMs: number | null = null;
  private jumpReason: string | null = null;
  private readonly startWall: number;
  private readonly startMono: number;
  private tlsFailed: LinkError | null;

  constructor(o: ConnectivityOptions) {
    this.o = o;
    this.startWall = o.clock.now();
    this.startMono = o.clock.monotonic();
    // A contact that no longer reads is as none: the window stays closed until a real one.
    const error = o.persist.getValue(ERROR_KEY, LinkError.nullable());
    this.tlsFailed = error?.ok ? error.value : null;
    const read = o.persist.getValue(KEY, PersistedContact);
    const persisted = read?.ok ? read.value : null;
    if (persisted) {
      if (this.startWall < persisted.wall) {
        // The wall clock is behind the last contact: it went backwards. Never reopen the window.
        this.windowClosed = true;
        this.jumpReason = 'the system clock is behind the last server contact';
      } else {
        this.contactWall = persisted.wall;
      }
    }
  }

  /** A request got an answer from the server (any status below 500, 429 excluded). */
  recordContact(dateHeader: string | null): void {
    const { clock } = this.o;
    this.contactMono = clock.monotonic();
    this.contactWall = clock.now();
    this.windowClosed = false;
    this.setTlsFailed(null);
    if (dateHeader) {
      const server = Date.parse(dateHeader);
      // The Date header has one-second resolution; compare against the same.
      if (!Number.isNaN(server)) this.skewMs = server - Math.floor(this.contactWall / 1000) * 1000;
    }
    if (
      this.persistedAt === null ||
      this.contactMono - this.persistedAt >= (this.o.persistEveryMs ?? 10_000) ||
      this.state !== 'online'
    ) {
      this.o.persist.setValue(
        KEY,
        { wall: this.contactWall } satisfies PersistedContact,
        this.contactWall,
      );
      this.persistedAt = this.contactMono;
    }
    this.set('online');
  }

  /** A request got no usable answer (network error, timeout, 5xx, 429). */
  recordFailure(): void {
    this.set('offline');
  }

  /** The client's hook: every response. */
  onResponse = (info: { status: number; date: string | null }): void => {
    if (info.status < 500 && info.status !== 429) this.recordContact(info.date);
    else this.recordFailure();
  };

  onNoResponse = (failure?: { code: string; message: string }): void => {
    if (failure && isTlsFailure(failure) && failure.code !== this.tlsFailed?.code)
      this.setTlsFailed({ code: failure.code, message: failure.message, at: this.o.clock.now() });
    this.recordFailure();
  };

  private setTlsFailed(next: LinkError | null): void {
    if (next === null && this.tlsFailed === null) return;
    this.tlsFailed = next;
    this.o.persist.setValue(ERROR_KEY, next, this.o.clock.now());
  }

  get current(): LinkState {
    return this.state;
  }

  /** Milliseconds since the last successful contact, monotonic within this process. */
  sinceContactMs(): number | null {
    const { clock } = this.o;
    if (this.contactMono !== null) return clock.monotonic() - this.contactMono;
    if (this.windowClosed || this.contactWall === null) return null;
    // Only the persisted wall time is known: measure from it, and never let a backwards step
    // of the wall clock (checked against the monotonic clock) shorten the age.
    const wallAge = clock.now() - this.contactWall;
    const sinceStart = clock.monotonic() - this.startMono;
    const atStart = this.startWall - this.contactWall;
    return Math.max(wallAge, atStart + sinceStart);
  }

  /** True when the wall clock cannot be trusted: a server skew over the limit or a jump. */
  private suspectReason(): string | null {
    if (this.jumpReason) return this.jumpReason;
    const { clock } = this.o;
    const wallDelta = clock.now() - this.startWall;
    const monoDelta = clock.monotonic() - this.startMono;
    if (Math.abs(wallDelta - monoDelta) > (this.o.jumpToleranceMs ?? 120_000)) {
      return wallDelta < monoDelta
        ? 'the system clock moved backwards'
        : 'the system clock jumped forwards';
    }
    if (this.skewMs !== null && Math.abs(this.skewMs) > this.o.skewWarnMs)
      return 'the local clock differs from the server';
    return null;
  }

  status(): LinkStatus {
    const reason = this.suspectReason();
    return {
      state: this.state,
      sinceContactMs: this.sinceContactMs(),
      skewMs: this.skewMs,
      skewWarning: this.skewMs !== null && Math.abs(this.skewMs) > this.o.skewWarnMs,
      clockSuspect: reason !== null,
      clockReason: reason,
      tlsFailed: this.tlsFailed,
    };
  }

  private set(next: LinkState): void {
    if (next === this.state) return;
    this.state = next;
    this.o.onChange?.(next);
  }
}
