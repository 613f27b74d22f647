// Keyboard first: the shortcuts, as a pure map from a key press to the action a button with
// the same `data-action` would run. app.ts feeds it the key and whether a field has focus.
import type { ActionName } from './actions.js';
import type { State } from './state.js';
import { NAV_SCREENS } from './state.js';

export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** The focus is in a text field: plain keys belong to it. */
  inField: boolean;
}

export interface Intent {
  action: ActionName;
  arg?: string;
}

/** The shortcuts the screen lists (README.md repeats them). */
export const SHORTCUTS = [
  ['F2', 'keys.customer'],
  ['F3', 'keys.item'],
  ['F4', 'keys.bonuses'],
  ['F6', 'keys.coupon'],
  ['F8', 'keys.pay'],
  ['F9', 'keys.sync'],
  ['Esc', 'keys.back'],
  ['Alt+1…5', 'keys.screens'],
  ['↑ ↓ + − Del', 'keys.lines'],
] as const;

export function keyIntent(state: State, k: KeyPress): Intent | null {
  if (k.ctrlKey || k.metaKey) return null;
  const signedIn = Boolean(state.status?.staff);
  if (k.key === 'Escape') return { action: 'back' };
  if (!signedIn) return null;
  if (k.altKey) {
    const n = Number(k.key);
    const screen = Number.isInteger(n) ? NAV_SCREENS[n - 1] : undefined;
    return screen ? { action: 'nav', arg: screen } : null;
  }
  if (k.key === 'F9') return { action: 'sync-now' };
  if (state.screen === 'sale') {
    switch (k.key) {
      case 'F2':
        return { action: 'focus', arg: 'customer-id' };
      case 'F3':
        return { action: 'focus', arg: 'item-code' };
      case 'F4':
        return { action: 'focus', arg: 'bonuses' };
      case 'F6':
        return { action: 'focus', arg: 'coupon-code' };
      case 'F8':
        return { action: 'pay' };
    }
    if (k.inField) return null;
    const selected = state.sale.selected;
    switch (k.key) {
      case 'ArrowDown':
        return { action: 'select-next' };
      case 'ArrowUp':
        return { action: 'select-prev' };
      case 'Delete':
      case 'Backspace':
        return selected === null ? null : { action: 'line-remove', arg: String(selected) };
      case '+':
        return selected === null ? null : { action: 'line-inc', arg: String(selected) };
      case '-':
        return selected === null ? null : { action: 'line-dec', arg: String(selected) };
    }
    return null;
  }
  if (state.screen === 'payment' && k.key === 'F8') return { action: 'sale-confirm' };
  return null;
}
