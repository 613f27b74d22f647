// Who does an operation, as the check names them: the signed-in staff member, never the
// caller's word (docs/terminal.md, "Who acts"). A sale's seller, a cancel's or refund's
// senior cashier.
import type { SignedInStaff } from '../contract/commands.js';

/** The check's `business_staff`: the signed-in staff member who does the operation. */
export function businessStaffOf(by: SignedInStaff | null): {
  business_staff?: { id: string; name?: string };
} {
  return by ? { business_staff: { id: by.id, ...(by.name ? { name: by.name } : {}) } } : {};
}
