// Signing in and opening a shift. The slice has no state of its own: who is signed in and
// the shift are the terminal's status (the frame's), the code and the opening cash are
// fields; its events are what moves the screen between sign-in, the shift and the sale.
import type { Shift, Status, CommandOutput } from '../../types.js';

export type SignInField = 'auth-code' | 'opening-cash';

export type SignInEvent =
  | { type: 'status'; status: Status }
  | { type: 'signed-in'; output: CommandOutput<'staff-sign-in'> }
  | { type: 'signed-out' }
  | { type: 'shift-opened'; shift: Shift };
