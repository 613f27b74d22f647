// What buttons, forms, fields and keys ask for is one typed union, Action: a misspelt action,
// or one missing what it needs, does not compile (`npm run typecheck` checks the
// expectations below), and nothing is read back from the page as a name.
import { describe, expect, it, vi } from 'vitest';
import { ACTION_GROUPS, perform, type Action } from '../../renderer/actions.js';
import { reduce } from '../../renderer/reduce.js';
import { initialState } from '../../renderer/state.js';
import { committed } from './fixtures.js';
import { fakeTill } from './fake-till.js';

describe('actions', () => {
  it('refuse a misspelt action, or one without what it needs, at compile time', () => {
    // @ts-expect-error: no action is called 'sale-confrim'
    const misspelt: Action = { type: 'sale-confrim' };
    // @ts-expect-error: a line step names its line
    const incomplete: Action = { type: 'line-step', delta: 1 };
    expect([misspelt.type, incomplete.type]).toEqual(['sale-confrim', 'line-step']);
  });

  it('hand an action that is an event to the reducer as it is, running no command', async () => {
    const till = fakeTill();
    await perform(till, { type: 'line-step', index: 2, delta: -1 });
    expect(till.dispatch).toHaveBeenCalledWith({ type: 'line-step', index: 2, delta: -1 });
    expect(till.run).not.toHaveBeenCalled();
    expect(till.api.call).not.toHaveBeenCalled();
  });

  it('ask the pumps’ grades again when a sale becomes a pump’s prepay, and not when it stops being one', async () => {
    const till = fakeTill();
    await perform(till, { type: 'prepay-for', pump: 1 });
    expect(till.dispatch).toHaveBeenCalledWith({ type: 'prepay-for', pump: 1 });
    expect(vi.mocked(till.run).mock.calls.map((c) => c[0])).toEqual(['forecourt-state']);
    const plain = fakeTill();
    await perform(plain, { type: 'prepay-for', pump: null });
    expect(plain.run).not.toHaveBeenCalled();
  });

  it('run a command for an action that needs one', async () => {
    const till = fakeTill();
    await perform(till, { type: 'sync-now' });
    expect(vi.mocked(till.run).mock.calls[0]![0]).toBe('sync-now');
  });

  it('cancel a sale on the second press of Cancel only', async () => {
    const first = fakeTill();
    await perform(first, { type: 'cancel-submit' });
    expect(first.dispatch).toHaveBeenCalledWith({ type: 'cancel-arm' });
    expect(first.run).not.toHaveBeenCalled();

    const loaded = reduce(initialState(), { type: 'refund-loaded', output: committed() });
    const second = fakeTill(reduce(loaded, { type: 'cancel-arm' }));
    await perform(second, { type: 'cancel-submit' });
    expect(second.dispatch).toHaveBeenCalledWith({ type: 'cancel-disarm' });
    expect(vi.mocked(second.run).mock.calls[0]![0]).toBe('sale-cancel');
  });

  it('give every action exactly one function across its groups', () => {
    const seen = new Map<string, string[]>();
    for (const [group, actions] of Object.entries(ACTION_GROUPS)) {
      for (const name of Object.keys(actions)) seen.set(name, [...(seen.get(name) ?? []), group]);
    }
    expect([...seen].filter(([, groups]) => groups.length > 1)).toEqual([]);
  });
});
