// The sandbox runs the terminal's own check engine (sync.md: "with the same engine"), so a
// check calculated online and one stood in offline agree. The fixture is validated like the
// engine's command line validates it; a context the sandbox built wrong is an invalid-input.
import { EngineContext, type EngineResult } from '../contract/engine.js';
import { problemsOf } from '../contract/problems.js';
import { calculate } from '../engine/calculate.js';
import { prepareRules } from '../engine/rule-index.js';
import type { RunEngine } from './service.js';

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
  const prepared = prepareRules(rules ?? []);
  if ('error' in prepared) return prepared;
  return calculate(parsed.data, prepared);
};
