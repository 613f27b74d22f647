import { describe, expect, it } from 'vitest';
import { keyIntent, type KeyPress } from '../../renderer/keys.js';
import { initialState, type State } from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { status } from './fixtures.js';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  inField: false,
  ...over,
});

const selling = (): State => reduce(initialState(), { type: 'status', status: status() });

describe('keyIntent', () => {
  it('goes back on Escape everywhere', () => {
    expect(keyIntent(initialState(), press('Escape'))).toEqual({ type: 'back' });
  });

  it('ignores shortcuts before sign-in', () => {
    expect(keyIntent(initialState(), press('F8'))).toBeNull();
  });

  it('pays on F8 from the sale, even from a field', () => {
    expect(keyIntent(selling(), press('F8', { inField: true }))).toEqual({ type: 'pay' });
  });

  it('opens the forecourt on F10 from any screen, even from a field', () => {
    const open = { type: 'forecourt-open' };
    expect(keyIntent(selling(), press('F10', { inField: true }))).toEqual(open);
    const settings = reduce(selling(), { type: 'navigate', screen: 'settings' });
    expect(keyIntent(settings, press('F10'))).toEqual(open);
    expect(keyIntent(initialState(), press('F10'))).toBeNull();
  });

  it('moves between screens with Alt and a digit', () => {
    expect(keyIntent(selling(), press('3', { altKey: true }))).toEqual({
      type: 'nav',
      screen: 'attention',
    });
    expect(keyIntent(selling(), press('9', { altKey: true }))).toBeNull();
  });

  it('opens the recent sales on Alt+6 and the cash on Alt+7, even from a field', () => {
    expect(keyIntent(selling(), press('6', { altKey: true, inField: true }))).toEqual({
      type: 'nav',
      screen: 'recent',
    });
    expect(keyIntent(selling(), press('7', { altKey: true }))).toEqual({
      type: 'nav',
      screen: 'cash',
    });
  });

  it('leaves plain keys to a focused field', () => {
    const s = reduce(selling(), { type: 'line-select', index: 0 });
    expect(keyIntent(s, press('-', { inField: true }))).toBeNull();
    expect(keyIntent(s, press('-'))).toEqual({ type: 'line-step', index: 0, delta: -1 });
  });

  it('does not take browser shortcuts with Ctrl', () => {
    expect(keyIntent(selling(), press('F8', { ctrlKey: true }))).toBeNull();
  });
});
