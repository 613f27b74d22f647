// The sandbox runs the terminal's own check engine (sync.md: "with the same engine"), so a
// check calculated online and one stood in offline agree. The fixture is validated like the
// engine's command line validates it; a context the sandbox built wrong is an invalid-input.
import { EngineContext, type EngineResult } from '../contract/engine.js';
import { problemsOf } from '../contract/problems.js';
import { calculate } from '../engine/calculate.js';
import { prepareRules, type PreparedRules } from '../engine/rule-index.js';
import type { RunEngine } from './service.js';

/**
 * The rules last prepared, by their JSON: the fixture lists them afresh for every check, but
 * they change rarely, and compiling them was a third of the sandbox's time per sale (the
 * drain bench, docs/sync.md). Prepared rules are read-only, made to serve many checks.
 */
let lastRules: { json: string; prepared: ReturnType<typeof prepareRules> } | null = null;

function preparedRules(rules: unknown): PreparedRules | ReturnType<typeof prepareRules> {
  const json = JSON.stringify(rules ?? []);
  if (lastRules?.json !== json) lastRules = { json, prepared: prepareRules(rules ?? []) };
  return lastRules.prepared;
}

export const defaultEngine: RunEngine = (fixture): EngineResult => {
  const { rules, ...context } = fixture as typeof fixture & { rules?: unknown };
  const parsed = EngineContext.safeParse(context);
  if (!parsed.success) {
    const p = problemsOf(parsed.error)[0];
    return {
      error: {
        code: 'invalid-input',
        message: p?.message ?? 'invalid context',
        path: p?.path ?? '(root)',
      },
    };
  }
  const prepared = preparedRules(rules);
  if ('error' in prepared) return prepared;
  return calculate(parsed.data, prepared);
};
