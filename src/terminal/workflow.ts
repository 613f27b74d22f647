// The cashier's state machine, one for the UI and the API alike: signed out -> signed in
// (staff with roles) -> a shift open -> selling. Every command states what it needs (a role,
// an open shift) and `admit` answers the refusal when the state does not give it. The shift
// lives in the store (it outlasts a restart); the signed-in staff member lives here (a
// restart signs everyone out, so an unattended till never stays open).
import type { Shift, SignedInStaff, StaffRole } from '../contract/commands.js';
import type { ErrorResponse } from '../contract/commands.js';
import type { ShiftRecord } from '../store/shifts.js';
import { refuse } from './command-map.js';
import { hasRole } from './roles.js';
import type { TerminalPorts } from './ports.js';

export interface Needs {
  /** The least role the command needs; null = any signed-in staff member. */
  role?: StaffRole | null;
  /** The command changes the drawer or the ledger: a shift must be open. */
  shift?: boolean;
}

/** Epoch milliseconds as the contract's ISO time; null stays null. */
export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

/** A stored shift as the contract shows it. */
export function shiftOut(s: ShiftRecord): Shift {
  return {
    id: s.id,
    number: s.number,
    opened_at: iso(s.openedAt)!,
    opened_by: { id: s.openedBy, ...(s.openedByName ? { name: s.openedByName } : {}) },
    closed_at: iso(s.closedAt),
    closed_by: s.closedBy
      ? { id: s.closedBy, ...(s.closedByName ? { name: s.closedByName } : {}) }
      : null,
    ...(s.openingCash !== null ? { opening_cash: Number(s.openingCash) } : {}),
    ...(s.countedCash !== null ? { counted_cash: Number(s.countedCash) } : {}),
  };
}

export class Workflow {
  private readonly p: TerminalPorts;
  private staffNow: SignedInStaff | null = null;

  constructor(p: TerminalPorts) {
    this.p = p;
  }

  get staff(): SignedInStaff | null {
    return this.staffNow;
  }

  shift(): Shift | null {
    const s = this.p.store.shifts.current();
    return s ? shiftOut(s) : null;
  }

  signIn(staff: SignedInStaff): void {
    this.staffNow = staff;
  }

  signOut(): SignedInStaff | null {
    const was = this.staffNow;
    this.staffNow = null;
    return was;
  }

  /** Null when the state admits the command, else the refusal to answer. */
  admit(needs: Needs): ErrorResponse | null {
    const staff = this.staffNow;
    if (!staff) return refuse('staff-required', 'sign in with your auth code first', 'auth_code');
    const role = needs.role ?? null;
    if (role && !hasRole(staff.roles, role)) {
      return refuse('role-required', `this needs the ${role} role`, '(root)', {
        required: role,
        roles: staff.roles,
      });
    }
    if (needs.shift && !this.p.store.shifts.current()) {
      return refuse('shift-required', 'open a shift first', '(root)');
    }
    return null;
  }
}
