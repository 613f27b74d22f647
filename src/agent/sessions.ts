// A person's way in without the token in the page (interfaces.md): the URL the agent prints
// carries a one-time code; `GET /session?code=...` trades it for an HttpOnly, SameSite=Strict
// session cookie. Codes work once and expire. A session ends at a staff sign-out, after
// `terminal.agent.session_idle_ms` without a person's command, and with every session and
// code when the agent's token is rotated: a cookie is never a way in that outlives these.
// The same exchange gives the browser a display pass: it opens only the customer display's
// events (what a screen facing the customer shows anyway), so it survives a sign-out and
// idling (the display never sends a command), and ends with the token.
import { newSecret, sameSecret } from './token.js';

export const SESSION_COOKIE = 'lt_session';
export const DISPLAY_COOKIE = 'lt_display';

/** Display passes kept at once (one per URL opened; a till has one or two displays). */
const MAX_DISPLAY_PASSES = 16;

export interface Sessions {
  /** A new one-time code, valid for the configured time. */
  mintCode(): string;
  /**
   * Spends a code: a session id and a display pass, or null when the code is unknown, spent
   * or expired.
   */
  exchange(code: string): { session: string; display: string } | null;
  /** True for a live session (one idle too long is ended here). */
  isSession(id: string): boolean;
  /** A person's activity in the session: its idle time starts again. */
  touch(id: string): void;
  /** True for a display pass this agent gave and has not ended. */
  isDisplayPass(id: string): boolean;
  /** Ends every session and code (a staff sign-out); display passes stay. */
  endSessions(): void;
  /** Ends every session, code and display pass (a rotated token). */
  endAll(): void;
}

export function createSessions(opts: {
  codeTtlMs: number;
  /** A session ends this long after its last activity. */
  idleMs: number;
  now: () => number;
}): Sessions {
  const codes = new Map<string, number>(); // code -> expiry (epoch ms)
  const sessions = new Map<string, number>(); // session -> last activity (epoch ms)
  const displays = new Set<string>();
  const find = (id: string): string | null => {
    for (const s of sessions.keys()) if (sameSecret(s, id)) return s;
    return null;
  };
  const live = (id: string): string | null => {
    const now = opts.now();
    for (const [s, last] of sessions) if (now - last >= opts.idleMs) sessions.delete(s);
    return find(id);
  };
  return {
    mintCode() {
      const code = newSecret(24);
      codes.set(code, opts.now() + opts.codeTtlMs);
      return code;
    },
    exchange(code) {
      const now = opts.now();
      for (const [c, expires] of codes) if (expires <= now) codes.delete(c);
      for (const c of codes.keys()) {
        if (sameSecret(c, code)) {
          codes.delete(c);
          const id = newSecret(32);
          sessions.set(id, now);
          const display = newSecret(32);
          displays.add(display);
          // a pass per URL opened: the oldest go first, so they never pile up
          for (const d of displays) if (displays.size > MAX_DISPLAY_PASSES) displays.delete(d);
          return { session: id, display };
        }
      }
      return null;
    },
    isSession(id) {
      return live(id) !== null;
    },
    touch(id) {
      const s = live(id);
      if (s !== null) sessions.set(s, opts.now());
    },
    isDisplayPass(id) {
      for (const d of displays) if (sameSecret(d, id)) return true;
      return false;
    },
    endSessions() {
      sessions.clear();
      codes.clear();
    },
    endAll() {
      sessions.clear();
      codes.clear();
      displays.clear();
    },
  };
}

/** The value of one cookie in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(id: string, name = SESSION_COOKIE): string {
  // No `Secure`: the agent speaks plain HTTP on 127.0.0.1. SameSite=Strict keeps it off
  // every cross-site request; HttpOnly keeps it out of scripts.
  return `${name}=${id}; HttpOnly; SameSite=Strict; Path=/`;
}
