// Builders for engine tests: a small fixture with sensible defaults, parsed and run.
import {
  EngineFixture,
  type EngineFixtureInput,
  type EngineResult,
  type EngineRuleInput,
} from '../../src/contract/engine.js';
import { runFixture } from '../../src/engine/index.js';

type Input = Partial<EngineFixtureInput> & { check?: EngineFixtureInput['check'] };

export const customer = (over: Record<string, unknown> = {}) => ({
  id: 'c1',
  access_type: 'full-bonuses-access' as const,
  bonuses: { regular: 100, promotional: [] },
  stats: { 'all-time': { amount: 0, quantity: 0, visits: 5 } },
  ...over,
});

export const item = (
  code: string,
  quantity: number,
  price: number,
  over: Record<string, unknown> = {},
) => ({
  code,
  category: code.startsWith('C') ? 'coffee' : 'food',
  title: code,
  quantity,
  price,
  ...over,
});

export const percent = (value: number, from = 0) => ({
  type: 'percentage' as const,
  thresholds: [{ from, value }],
});

export function rule(id: string, over: Partial<EngineRuleInput> = {}): EngineRuleInput {
  return { id, title: id, action_type: 'discount', value: percent(10), ...over };
}

export function fixture(over: Input = {}): EngineFixtureInput {
  return {
    now: '2026-11-22T10:15:00Z',
    business: { id: 'b1', currency: 'EUR', base_time_zone: 'UTC' },
    loyalty: { id: 'l1', currency: 'EUR' },
    pos: { id: 'p1' },
    customer: customer(),
    rules: [],
    check: { customer_id: 'c1', check_items: [item('C1', 2, 2.5), item('S1', 1, 4.99)] },
    ...over,
  };
}

/** Parses and runs a fixture; throws when the fixture is refused. */
export function run(input: EngineFixtureInput): EngineResult {
  return runFixture(EngineFixture.parse(input));
}

/** Runs and returns the check, failing the test on an error value. */
export function checkOf(input: EngineFixtureInput) {
  const out = run(input);
  if ('error' in out) throw new Error(`unexpected error ${JSON.stringify(out.error)}`);
  return out.check;
}

export function errorOf(input: EngineFixtureInput) {
  const out = run(input);
  if (!('error' in out)) throw new Error('expected an error value');
  return out.error;
}
