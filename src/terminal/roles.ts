// Roles (interfaces.md, `role_based_model_roles`): cashier < senior-cashier < manager, each
// including the one before. A business whose role_based_model.active is false treats every
// staff member as manager; a business not cached yet keeps the roles as given (the safe side).
//
// Who may run what is one table (COMMAND_NEEDS), one row per command of the map: the handlers
// admit by it and test/terminal/roles-boundary.test.ts walks it.
import { StaffRole, type CommandName, type HandlerInput } from '../contract/commands.js';
import type { Needs } from './workflow.js';

const RANK: Record<StaffRole, number> = { cashier: 1, 'senior-cashier': 2, manager: 3 };
const ORDER = StaffRole.options;

/** The roles a staff member acts with: every role up to the highest one held. */
export function effectiveRoles(
  given: readonly string[] | undefined,
  modelActive: boolean,
): StaffRole[] {
  if (!modelActive) return [...ORDER];
  let top = 0;
  for (const r of given ?? []) {
    const parsed = StaffRole.safeParse(r);
    if (parsed.success) top = Math.max(top, RANK[parsed.data]);
  }
  return ORDER.filter((r) => RANK[r] <= top);
}

export function hasRole(roles: readonly StaffRole[], needed: StaffRole): boolean {
  return roles.some((r) => RANK[r] >= RANK[needed]);
}

/** What a command needs; `null`: anyone at the till, signed in or not. */
export interface CommandNeeds extends Needs {
  role: StaffRole;
  /** An input that reaches a higher role's effect raises the role it needs. */
  raisedBy?: (input: never) => StaffRole | null;
}

/** Picking rules by hand is a senior cashier's (interfaces.md, Roles). */
const manualRules = (i: { check: { manual_rules?: boolean | undefined } }): StaffRole | null =>
  i.check.manual_rules === true ? 'senior-cashier' : null;

/** Cash out of the drawer is a senior cashier's; paying cash in, any cashier's. */
const paidOut = (i: { kind: string }): StaffRole | null =>
  i.kind === 'paid-out' ? 'senior-cashier' : null;

/**
 * Every command's needs (interfaces.md, Roles: a cashier sells, identifies and takes payments;
 * a senior cashier also cancels, refunds and picks manual rules; a manager also closes shifts
 * and resolves the attention list).
 */
export const COMMAND_NEEDS: { readonly [N in CommandName]: CommandNeeds | null } = {
  status: null,
  'staff-sign-in': null,
  'staff-sign-out': null,
  'shift-open': { role: 'cashier' },
  'shift-close': { role: 'manager' },
  'shift-report': { role: 'cashier' },
  'shifts-recent': { role: 'cashier' },
  'cash-movement': { role: 'cashier', shift: true, raisedBy: paidOut },
  'drawer-open': { role: 'cashier', shift: true },
  // Loyalty at the till (docs/terminal.md): moving a customer's bonuses by hand is a manager's.
  'bonus-operation': { role: 'manager' },
  // Selling a coupon is a sale: any cashier's, in the open shift.
  'coupon-sell': { role: 'cashier', shift: true },
  'coupon-batches': { role: 'cashier' },
  // The forecourt: any cashier's; a pump released or authorised sells, so in the open shift.
  'forecourt-state': { role: 'cashier' },
  'pump-release': { role: 'cashier', shift: true },
  'pump-authorise': { role: 'cashier', shift: true },
  'pump-stop': { role: 'cashier' },
  'pump-resume': { role: 'cashier' },
  // A drive-off is the shift's loss: recorded by the cashier on duty, in the open shift.
  'pump-drive-off': { role: 'cashier', shift: true },
  // A person at a simulated pump (a tester, a demo): any cashier's, shift or not.
  'simulator-pump': { role: 'cashier' },
  'customer-identify': { role: 'cashier' },
  'catalog-search': { role: 'cashier' },
  'check-calc': { role: 'cashier', raisedBy: manualRules },
  'sale-process': { role: 'cashier', shift: true, raisedBy: manualRules },
  'sale-status': { role: 'cashier' },
  'sale-cancel': { role: 'senior-cashier', shift: true },
  'sale-refund': { role: 'senior-cashier', shift: true },
  'receipt-reprint': { role: 'cashier' },
  'sales-recent': { role: 'cashier' },
  'payment-recover': { role: 'cashier' },
  'attention-list': { role: 'cashier' },
  'attention-resolve': { role: 'manager' },
  'sync-now': { role: 'cashier' },
  'devices-state': null,
  // Tanks (docs/forecourt.md): reading and dipping a tank and taking a delivery are any
  // cashier's; the wet-stock report shows the owner's losses: a senior cashier's.
  'tank-readings': { role: 'cashier' },
  'tank-delivery': { role: 'cashier' },
  'wetstock-report': { role: 'senior-cashier' },
};

/** What running `name` with `input` needs: its row, its role raised by what the input asks. */
export function needsOf<N extends CommandName>(name: N, input: HandlerInput<N>): Needs | null {
  const row = COMMAND_NEEDS[name];
  if (!row) return null;
  const raised = row.raisedBy?.(input as never) ?? null;
  const role = raised && RANK[raised] > RANK[row.role] ? raised : row.role;
  return { role, ...(row.shift ? { shift: true } : {}) };
}
