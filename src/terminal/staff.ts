// Staff sign-in (interfaces.md, Secrets): online first against the central service; when it
// cannot be reached, offline against the cached salted scrypt hashes of the auth codes (keyed
// with the terminal's secret, docs/store.md). A
// wrong code counts towards the lockout (the store keeps the count across restarts); while
// locked, no code is even checked. The auth code is never logged, stored or echoed.
import type { CommandOutput, ErrorResponse, SignedInStaff } from '../contract/commands.js';
import { refuse } from './command-map.js';
import { withinDeadline } from './deadline.js';
import type { TerminalPorts } from './ports.js';
import { effectiveRoles } from './roles.js';
import { staffRefOf } from './business-staff.js';
import type { Workflow } from './workflow.js';

interface StaffRecord {
  id?: string;
  name?: string;
  suspended?: number;
  terminals?: Array<{ id?: string }>;
  role_based_model_roles?: string[];
}

export class StaffService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;

  constructor(p: TerminalPorts, wf: Workflow) {
    this.p = p;
    this.wf = wf;
  }

  private policy() {
    const s = this.p.config.terminal.sign_in;
    return {
      maxFailures: s.max_failures,
      windowMs: s.window_s * 1000,
      lockoutMs: s.lockout_s * 1000,
    };
  }

  /** Whether the business uses its role model (absent settings: yes, the safe side). */
  private roleModelActive(): boolean {
    const settings = this.p.store.cache.all('business_settings')[0] as
      { role_based_model?: { active?: boolean } } | undefined;
    return settings?.role_based_model?.active !== false;
  }

  private locked(untilMs: number): ErrorResponse {
    const retry = Math.max(1, Math.ceil((untilMs - this.p.clock.now()) / 1000));
    return refuse(
      'sign-in-locked',
      `too many wrong auth codes: try again in ${retry} s`,
      'auth_code',
      {
        locked_until: new Date(untilMs).toISOString(),
        retry_after_s: retry,
      },
    );
  }

  private failed(source: 'online' | 'offline'): ErrorResponse {
    const st = this.p.store.signin.fail(this.policy(), this.p.clock.now());
    this.p.log.warn('staff sign-in refused', { source, failures: st.failures });
    if (st.lockedUntil !== null) return this.locked(st.lockedUntil);
    return refuse('auth-code-invalid', 'no staff member has this auth code', 'auth_code', {
      failures: st.failures,
      max_failures: this.policy().maxFailures,
    });
  }

  /** The cached staff member whose hash matches, scanning every active one (offline). */
  private offlineMatch(code: string): StaffRecord | null {
    for (const s of this.p.store.cache.all('staff') as Array<
      StaffRecord & { auth_code_hash?: string }
    >) {
      if (s.suspended === 1 || typeof s.auth_code_hash !== 'string') continue;
      if (this.p.store.secretHashes.verify(code, s.auth_code_hash)) return s;
    }
    return null;
  }

  /** The attempt before this one: each waits for it, so no two overlap. */
  private previous: Promise<unknown> = Promise.resolve();

  /**
   * Attempts run one at a time: the lockout check, the online call and the recording of a
   * failure are one step, so parallel codes cannot all pass the check before any failure is
   * counted (whatever the network does in between).
   */
  signIn(code: string): Promise<CommandOutput<'staff-sign-in'> | ErrorResponse> {
    const attempt = this.previous.then(() => this.attempt(code));
    this.previous = attempt.catch(() => undefined);
    return attempt;
  }

  private async attempt(code: string): Promise<CommandOutput<'staff-sign-in'> | ErrorResponse> {
    const { store, clock, config, sync } = this.p;
    const st = store.signin.state(this.policy(), clock.now());
    if (st.lockedUntil !== null) return this.locked(st.lockedUntil);

    let record: StaffRecord | null;
    let source: 'online' | 'offline' = 'online';
    // Known offline: the hashes answer at once (the sync loops find the way back). Else one
    // deadline bounds the whole online try, its retries included.
    const online =
      sync.link.current === 'offline'
        ? null
        : await withinDeadline(config.central.timeouts.online_deadline_ms, (signal) =>
            sync.client.staffSignIn(code, { signal }),
          );
    if (online?.ok) {
      record = (online.value.staff ?? null) as StaffRecord | null;
      if (!record?.id) return this.failed('online');
      // The feed's copy knows the terminals and roles even when the answer leaves them out.
      const cached = store.cache.get('staff', record.id) as StaffRecord | null;
      record = { ...cached, ...record };
    } else {
      const f = online?.failure;
      const refused =
        f?.kind === 'http' &&
        f.status >= 400 &&
        f.status < 500 &&
        f.status !== 408 &&
        f.status !== 429;
      if (refused) return this.failed('online');
      source = 'offline';
      record = this.offlineMatch(code);
      if (!record) return this.failed('offline');
    }

    const terminals = record.terminals ?? [];
    if (terminals.length > 0 && !terminals.some((t) => t.id === this.p.terminalId)) {
      return refuse(
        'staff-not-at-terminal',
        'this staff member is not assigned to this terminal',
        'auth_code',
      );
    }
    if (record.suspended === 1)
      return refuse('staff-suspended', 'this staff member is suspended', 'auth_code');
    const roles = effectiveRoles(record.role_based_model_roles, this.roleModelActive());
    if (roles.length === 0) {
      return refuse('role-required', 'this staff member has no role at the till', 'auth_code');
    }
    store.signin.succeed();
    const staff: SignedInStaff = {
      id: record.id!,
      ...(record.name ? { name: record.name } : {}),
      roles,
      signed_in_at: new Date(clock.now()).toISOString(),
    };
    this.wf.signIn(staff);
    this.p.log.info('staff signed in', { staff_id: staff.id, roles, source });
    return { staff, shift: this.wf.shift() };
  }

  signOut(): CommandOutput<'staff-sign-out'> {
    const was = this.wf.signOut();
    if (was) this.p.log.info('staff signed out', { staff_id: was.id });
    return { signed_out: was ? staffRefOf(was) : null };
  }
}
