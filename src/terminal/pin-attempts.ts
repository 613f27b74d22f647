// The PIN-attempt limit (docs/terminal.md, "PIN attempts"): every PIN typed for a special
// account or a corporate access is checked against its target's lockout first, and a wrong one
// is counted, whether `check-calc` or `sale-process` sees it, online or offline. The check,
// the verification and the recording are one synchronous step (no await between them), so
// parallel requests cannot all pass the check before a failure is counted.
import type { Config } from '../contract/config.js';
import type { EngineCheck, EngineError } from '../contract/engine.js';
import type { GuardPolicy } from '../store/signin-guard.js';
import type { Store } from '../store/open.js';

/** A refusal the terminal adds to the engine's: the PIN is locked for this account. */
export interface PinLocked {
  code: 'pin-locked';
  message: string;
  path: string;
  details: { locked_until: string; retry_after_s: number };
}

const PIN_PATH = 'check.special_account_pin';

function pinPolicy(config: Config): GuardPolicy {
  const p = config.terminal.pin_attempts;
  return {
    maxFailures: p.max_failures,
    windowMs: p.window_s * 1000,
    lockoutMs: p.lockout_s * 1000,
  };
}

/** Whose PIN a check types: `special-account:ID` or `corporate-access:ID`; null for none. */
export function pinTarget(check: EngineCheck, pin: string | undefined): string | null {
  if (pin === undefined || pin === '' || !check.payment_id) return null;
  if (check.payment_type === 'special-account') return `special-account:${check.payment_id}`;
  if (check.payment_type === 'corporate-special-account')
    return `corporate-access:${check.payment_id}`;
  return null;
}

function pinLocked(untilMs: number, nowMs: number): PinLocked {
  const retry = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  const wait = retry >= 120 ? `${Math.ceil(retry / 60)} min` : `${retry} s`;
  return {
    code: 'pin-locked',
    message: `too many wrong PINs for this account: its PIN is locked, try again in ${wait}`,
    path: PIN_PATH,
    details: { locked_until: new Date(untilMs).toISOString(), retry_after_s: retry },
  };
}

/** One PIN attempt against one target: the lock before, the outcome after. */
export interface PinAttempt {
  /** The refusal when the target is locked now (nothing may be verified then). */
  readonly locked: PinLocked | null;
  /** Records the outcome: a wrong PIN counts (and may lock); a right one clears the count. */
  settle(outcome: 'wrong' | 'right'): PinLocked | null;
}

export function pinAttempt(
  store: Store,
  config: Config,
  check: EngineCheck,
  pin: string | undefined,
): PinAttempt | null {
  const target = pinTarget(check, pin);
  if (target === null) return null;
  const policy = pinPolicy(config);
  const now = store.clock.now();
  const st = store.pins.state(target, policy, now);
  return {
    locked: st.lockedUntil === null ? null : pinLocked(st.lockedUntil, now),
    settle(outcome) {
      if (outcome === 'right') {
        store.pins.succeed(target);
        return null;
      }
      const after = store.pins.fail(target, policy, store.clock.now());
      return after.lockedUntil === null ? null : pinLocked(after.lockedUntil, store.clock.now());
    },
  };
}

/**
 * The engine's refusal after the attempt is recorded: `pin-invalid` counts (and becomes
 * `pin-locked` when it reached the limit); any other refusal leaves the count alone.
 */
export function settleRefusal(
  attempt: PinAttempt | null,
  error: EngineError,
): EngineError | PinLocked {
  if (!attempt || error.code !== 'pin-invalid') return error;
  return attempt.settle('wrong') ?? error;
}
