// The PIN guard (0006): wrong PINs of a special account or a corporate access as times only
// (never the PIN, not even hashed), per target, cleared by a right PIN. Enough failures inside
// the window lock that target's PIN until the last failure plus the lockout, the same rule as
// the sign-in guard; the record survives a restart.
import type Database from 'better-sqlite3';
import { guardState, type GuardPolicy, type GuardState } from './signin-guard.js';

export function createPinGuard(db: Database.Database) {
  const insert = db.prepare('INSERT INTO pin_failure (target, at) VALUES (?, ?)');
  const last = db.prepare<[string], { last: number | null }>(
    'SELECT max(at) AS last FROM pin_failure WHERE target = ?',
  );
  const since = db.prepare<[string, number], { n: number }>(
    'SELECT count(*) AS n FROM pin_failure WHERE target = ? AND at > ?',
  );
  const clear = db.prepare('DELETE FROM pin_failure WHERE target = ?');
  const prune = db.prepare('DELETE FROM pin_failure WHERE target = ? AND at <= ?');

  // The sign-in guard's lock rule, per target.
  const state = (target: string, policy: GuardPolicy, nowMs: number): GuardState =>
    guardState(
      (afterMs) => since.get(target, afterMs)?.n ?? 0,
      last.get(target)?.last ?? null,
      policy,
      nowMs,
    );

  return {
    state,
    /** Records a wrong PIN for `target` and answers the state after it. */
    fail(target: string, policy: GuardPolicy, nowMs: number): GuardState {
      return db
        .transaction(() => {
          // Only what the window can still count is kept: this failure is the last one.
          prune.run(target, nowMs - policy.windowMs);
          insert.run(target, nowMs);
          return state(target, policy, nowMs);
        })
        .immediate();
    },
    /** A right PIN clears the target's count. */
    succeed(target: string): void {
      clear.run(target);
    },
  };
}

export type PinGuard = ReturnType<typeof createPinGuard>;
