// The sign-in guard (0003): failed sign-ins as times only (never the code typed, not even
// hashed), cleared by a success. Enough failures inside the window lock sign-in until the
// last failure plus the lockout; the record survives a restart, so pulling the plug does not
// reset the count.
import type Database from 'better-sqlite3';

export interface GuardPolicy {
  maxFailures: number;
  windowMs: number;
  lockoutMs: number;
}

export interface GuardState {
  /** Failures inside the window. */
  readonly failures: number;
  /** Epoch ms until which sign-in is refused, or null. */
  readonly lockedUntil: number | null;
}

/**
 * The lock rule of every failure guard (sign-in, PINs), given how many failures came after a
 * time and when the last one was. The lock runs from the failure that reached the limit (the
 * failures inside the window before it), so it lasts the whole lockout even when that is
 * longer than the window.
 */
export function guardState(
  failuresAfter: (ms: number) => number,
  lastAt: number | null,
  policy: GuardPolicy,
  nowMs: number,
): GuardState {
  const failures = failuresAfter(nowMs - policy.windowMs);
  if (lastAt === null || lastAt + policy.lockoutMs <= nowMs) return { failures, lockedUntil: null };
  const burst = failuresAfter(lastAt - policy.windowMs);
  return {
    failures,
    lockedUntil: burst >= policy.maxFailures ? lastAt + policy.lockoutMs : null,
  };
}

export function createSigninGuard(db: Database.Database) {
  const insert = db.prepare('INSERT INTO signin_failure (at) VALUES (?)');
  const last = db.prepare<[], { last: number | null }>(
    'SELECT max(at) AS last FROM signin_failure',
  );
  const since = db.prepare<[number], { n: number }>(
    'SELECT count(*) AS n FROM signin_failure WHERE at > ?',
  );
  const clear = db.prepare('DELETE FROM signin_failure');
  const prune = db.prepare('DELETE FROM signin_failure WHERE at <= ?');

  const state = (policy: GuardPolicy, nowMs: number): GuardState =>
    guardState((afterMs) => since.get(afterMs)?.n ?? 0, last.get()?.last ?? null, policy, nowMs);

  return {
    state,
    /** Records a failure and answers the state after it. */
    fail(policy: GuardPolicy, nowMs: number): GuardState {
      return db
        .transaction(() => {
          prune.run(nowMs - policy.windowMs);
          insert.run(nowMs);
          return state(policy, nowMs);
        })
        .immediate();
    },
    /** A successful sign-in clears the count. */
    succeed(): void {
      clear.run();
    },
  };
}

export type SigninGuard = ReturnType<typeof createSigninGuard>;
