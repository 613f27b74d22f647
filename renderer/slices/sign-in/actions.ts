// Signing in and out, and opening a shift.
import { shiftOpenInput, signInInput } from '../../requests.js';
import type { Performers } from '../../till.js';

export type SignInAction = { type: 'sign-in' } | { type: 'sign-out' } | { type: 'shift-open' };

export const signInActions: Performers<SignInAction> = {
  'sign-in': async (till) => {
    const built = signInInput(till.state);
    if (till.invalid(built)) return;
    const ok = await till.run('staff-sign-in', built.input, (output) => ({
      type: 'signed-in',
      output,
    }));
    if (ok) {
      await Promise.all([till.refreshStatus(), till.refreshDevices()]);
      await till.calculate();
    }
  },
  'sign-out': async (till) => {
    await till.run('staff-sign-out', {}, () => ({ type: 'signed-out' }));
  },
  'shift-open': async (till) => {
    const built = shiftOpenInput(till.state);
    if (till.invalid(built)) return;
    const opened = await till.run('shift-open', built.input, (o) => ({
      type: 'shift-opened',
      shift: o.shift,
    }));
    if (opened) await till.calculate();
  },
};
