// A controller for the actions' tests whose every effect is a spy (a test replaces the ones
// it drives: `dispatch` to collect events, `run` to answer a command).
import { vi } from 'vitest';
import type { Api } from '../../renderer/api.js';
import type { Built } from '../../renderer/requests.js';
import type { Errors } from '../../renderer/slices/frame/state.js';
import { perform } from '../../renderer/actions.js';
import { reduce } from '../../renderer/reduce.js';
import { initialState, type State } from '../../renderer/state.js';
import type { Till } from '../../renderer/till.js';

export const FAKE_NOW = Date.UTC(2025, 0, 10, 12, 0);

export function fakeTill(
  state: State = initialState(),
  over: Partial<Pick<Till, 'dispatch' | 'run' | 'perform' | 'newId' | 'prefetchCalc'>> = {},
): Till {
  const api: Api = { kind: 'http', call: vi.fn(), on: vi.fn() };
  const base: Till = {
    state,
    api,
    payWhenCalculated: false,
    dispatch: vi.fn(),
    run: vi.fn(async () => true) as unknown as Till['run'],
    invalid: <T>(built: Built<T>): built is { errors: Errors } => 'errors' in built,
    calculate: vi.fn(async () => undefined),
    prefetchCalc: vi.fn(),
    refreshStatus: vi.fn(async () => undefined),
    refreshDevices: vi.fn(async () => undefined),
    loadAttention: vi.fn(async () => undefined),
    loadReport: vi.fn(async () => undefined),
    newId: vi.fn(() => 'id'),
    now: () => FAKE_NOW,
    perform: vi.fn(async () => undefined),
  };
  return { ...base, ...over };
}

/**
 * A till over the real reducer: what it dispatches changes its state, an action it performs
 * runs for real; `run` answers the commands (a spy that says true by default).
 */
export function reducingTill(
  state: State,
  over: Partial<Pick<Till, 'run' | 'newId' | 'prefetchCalc'>> = {},
): Till {
  let current = state;
  const till: Till = {
    ...fakeTill(state, over),
    get state() {
      return current;
    },
    dispatch: (e) => void (current = reduce(current, e)),
    perform: (a) => perform(till, a),
  };
  return till;
}
