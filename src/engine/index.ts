// The check engine's public surface: prepare rules once, calculate many checks, or run a
// whole fixture. See README.md beside it.
import type { EngineFixture, EngineResult } from '../contract/engine.js';
import { calculate } from './calculate.js';
import { compileRules } from './rule-index.js';

export { calculate } from './calculate.js';
export { compileRules, prepareRules, type PreparedRules } from './rule-index.js';
export { remainderOf, type EarlierRefund } from './remainder.js';

/** Runs one parsed fixture: its rules are prepared, then its check is calculated. */
export function runFixture(fixture: EngineFixture): EngineResult {
  const { rules, ...context } = fixture;
  return calculate(context, compileRules(rules));
}
export { spendableNow } from './special-accounts.js';
