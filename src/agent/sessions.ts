// A person's way in without the token in the page (interfaces.md): the URL the agent prints
// carries a one-time code; `GET /session?code=...` trades it for an HttpOnly, SameSite=Strict
// session cookie. Codes work once and expire; sessions last while the agent runs.
import { newSecret, sameSecret } from './token.js';

export const SESSION_COOKIE = 'lt_session';

export interface Sessions {
  /** A new one-time code, valid for the configured time. */
  mintCode(): string;
  /** Spends a code: a session id, or null when the code is unknown, spent or expired. */
  exchange(code: string): string | null;
  isSession(id: string): boolean;
}

export function createSessions(opts: { codeTtlMs: number; now: () => number }): Sessions {
  const codes = new Map<string, number>(); // code -> expiry (epoch ms)
  const sessions = new Set<string>();
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
          sessions.add(id);
          return id;
        }
      }
      return null;
    },
    isSession(id) {
      for (const s of sessions) if (sameSecret(s, id)) return true;
      return false;
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

export function sessionCookie(id: string): string {
  // No `Secure`: the agent speaks plain HTTP on 127.0.0.1. SameSite=Strict keeps it off
  // every cross-site request; HttpOnly keeps it out of scripts.
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/`;
}
