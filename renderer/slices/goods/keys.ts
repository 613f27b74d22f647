// The search list from the keyboard: ↑ ↓ move the highlight (also from the code field, where
// the cashier's hands are), Esc closes the list before it does anything else.
import type { Action } from '../../actions.js';
import type { State } from '../../state.js';

export function goodsKey(state: State, key: string): Action | null {
  if (state.screen !== 'sale' || state.goods.results === null) return null;
  switch (key) {
    case 'ArrowDown':
      return { type: 'goods-highlight', delta: 1 };
    case 'ArrowUp':
      return { type: 'goods-highlight', delta: -1 };
    case 'Escape':
      return { type: 'goods-close' };
  }
  return null;
}
