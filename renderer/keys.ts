// Keyboard first: the shortcuts, as a pure map from a key press to the Action the button
// for it would ask for. app.ts feeds it the key and whether a field has focus.
import type { Action } from './actions.js';
import { NAV_SCREENS } from './slices/frame/state.js';
import { goodsKey } from './slices/goods/keys.js';
import type { State } from './state.js';

export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** The focus is in a text field: plain keys belong to it. */
  inField: boolean;
}

/** The shortcuts the screen lists (README.md repeats them). */
export const SHORTCUTS = [
  ['F2', 'keys.customer'],
  ['F3', 'keys.item'],
  ['F4', 'keys.bonuses'],
  ['F6', 'keys.coupon'],
  ['F7', 'keys.loyalty'],
  ['F8', 'keys.pay'],
  ['F9', 'keys.sync'],
  ['F10', 'keys.forecourt'],
  ['Esc', 'keys.back'],
  ['Alt+1…7', 'keys.screens'],
  ['↑ ↓ + − Del', 'keys.lines'],
] as const;

export function keyIntent(state: State, k: KeyPress): Action | null {
  if (k.ctrlKey || k.metaKey) return null;
  const goods = k.altKey ? null : goodsKey(state, k.key);
  if (goods) return goods;
  const signedIn = Boolean(state.status?.staff);
  if (k.key === 'Escape') return { type: 'back' };
  if (!signedIn) return null;
  if (k.altKey) {
    const n = Number(k.key);
    const screen = Number.isInteger(n) ? NAV_SCREENS[n - 1] : undefined;
    return screen ? { type: 'nav', screen } : null;
  }
  if (k.key === 'F9') return { type: 'sync-now' };
  if (k.key === 'F10') return { type: 'forecourt-open' };
  if (state.screen === 'sale') {
    switch (k.key) {
      case 'F2':
        return { type: 'focus', testid: 'customer-id' };
      case 'F3':
        return { type: 'focus', testid: 'item-code' };
      case 'F4':
        return { type: 'focus', testid: 'bonuses' };
      case 'F6':
        return { type: 'focus', testid: 'coupon-code' };
      case 'F7':
        return state.sale.draft.customer ? { type: 'loyalty-open' } : null;
      case 'F8':
        return { type: 'pay' };
    }
    if (k.inField) return null;
    const selected = state.sale.selected;
    switch (k.key) {
      case 'ArrowDown':
        return { type: 'select-step', delta: 1 };
      case 'ArrowUp':
        return { type: 'select-step', delta: -1 };
      case 'Delete':
      case 'Backspace':
        return selected === null ? null : { type: 'line-remove', index: selected };
      case '+':
        return selected === null ? null : { type: 'line-step', index: selected, delta: 1 };
      case '-':
        return selected === null ? null : { type: 'line-step', index: selected, delta: -1 };
    }
    return null;
  }
  if (state.screen === 'payment' && k.key === 'F8') return { type: 'sale-confirm' };
  return null;
}
