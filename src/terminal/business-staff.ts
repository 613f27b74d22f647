// Who does an operation, as the check names them: the signed-in staff member, never the
// caller's word (docs/terminal.md, "Who acts"). A sale's seller, a cancel's or refund's
// senior cashier.
import type { SignedInStaff } from '../contract/commands.js';

/** A staff member as an answer or a record names them: the id, and the name when known. */
export function staffRefOf(by: { id: string; name?: string | undefined }): {
  id: string;
  name?: string;
} {
  return { id: by.id, ...(by.name ? { name: by.name } : {}) };
}

/** The check's `business_staff`: the signed-in staff member who does the operation. */
export function businessStaffOf(by: SignedInStaff | null): {
  business_staff?: { id: string; name?: string };
} {
  return by ? { business_staff: staffRefOf(by) } : {};
}
