// Roles (interfaces.md, `role_based_model_roles`): cashier < senior-cashier < manager, each
// including the one before. A business whose role_based_model.active is false treats every
// staff member as manager; a business not cached yet keeps the roles as given (the safe side).
import { StaffRole } from '../contract/commands.js';

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
