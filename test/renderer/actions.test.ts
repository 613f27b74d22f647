// What a button, a form or a key names is looked up in one map; a name it does not know is a
// bug of the screen: reported, never silently ignored, and nothing shown to the cashier.
import { describe, expect, it, vi } from 'vitest';
import { ACTION_GROUPS, isActionName, performAction, type Till } from '../../renderer/actions.js';
import type { Api } from '../../renderer/api.js';
import type { Built, Errors } from '../../renderer/requests.js';
import { initialState } from '../../renderer/state.js';

/** A controller whose every effect is a spy. */
function fakeTill(): Till {
  const api: Api = { kind: 'http', call: vi.fn(), on: vi.fn() };
  return {
    state: initialState(),
    api,
    payWhenCalculated: false,
    dispatch: vi.fn(),
    run: vi.fn(async () => true),
    invalid: <T>(built: Built<T>): built is { errors: Errors } => 'errors' in built,
    calculate: vi.fn(async () => undefined),
    refreshStatus: vi.fn(async () => undefined),
    refreshDevices: vi.fn(async () => undefined),
    loadAttention: vi.fn(async () => undefined),
    loadReport: vi.fn(async () => undefined),
    newId: vi.fn(() => 'id'),
    action: vi.fn(async () => undefined),
    reportBug: vi.fn(),
  };
}

describe('actions', () => {
  it('reports a mistyped data-action, naming it, and changes nothing the cashier sees', async () => {
    const till = fakeTill();
    await performAction(till, 'sale-confrim');
    expect(till.reportBug).toHaveBeenCalledTimes(1);
    expect(vi.mocked(till.reportBug).mock.calls[0]![0]).toContain('"sale-confrim"');
    expect(till.dispatch).not.toHaveBeenCalled();
    expect(till.run).not.toHaveBeenCalled();
    expect(till.api.call).not.toHaveBeenCalled();
  });

  it('runs a known action and reports nothing', async () => {
    const till = fakeTill();
    await performAction(till, 'dismiss');
    expect(till.dispatch).toHaveBeenCalledWith({ type: 'dismiss' });
    expect(till.reportBug).not.toHaveBeenCalled();
  });

  it('knows no name from an object prototype', () => {
    expect(isActionName('toString')).toBe(false);
    expect(isActionName('constructor')).toBe(false);
    expect(isActionName('nav')).toBe(true);
  });

  it('gives every action name exactly one action across its groups', () => {
    const seen = new Map<string, string[]>();
    for (const [group, actions] of Object.entries(ACTION_GROUPS)) {
      for (const name of Object.keys(actions)) seen.set(name, [...(seen.get(name) ?? []), group]);
    }
    expect([...seen].filter(([, groups]) => groups.length > 1)).toEqual([]);
  });
});
