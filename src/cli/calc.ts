// `calc FILE|-` (engine-fixture.md): one engine fixture in, one JSON document out. Exit 0 for
// a calculated check and for an engine error value (an error is a valid answer); exit 2 with
// a one-line reason naming the offending path for a document that is not a valid fixture.
import { EngineFixture } from '../contract/engine.js';
import { problemsOf } from '../contract/problems.js';
import { runFixture } from '../engine/index.js';
import { parseFlags } from '../config/flags.js';
import { refuseUsage, type CliIO } from './io.js';

const USAGE = 'usage: loyalty-terminal calc FILE|-';

export async function runCalc(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args, {});
  if (!flags.ok) return refuseUsage(io, 'calc', flags.message, `${USAGE}\n`);
  const [file, ...extra] = flags.positionals;
  if (file === undefined || extra.length > 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  let text: string;
  try {
    text = await io.readInput(file);
  } catch (e) {
    io.stderr(`calc: cannot read ${file}: ${(e as Error).message}\n`);
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    io.stderr(`calc: (root): not JSON: ${(e as Error).message}\n`);
    return 2;
  }
  const parsed = EngineFixture.safeParse(json);
  if (!parsed.success) {
    const problems = problemsOf(parsed.error);
    const first = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    io.stderr(`calc: ${first?.path ?? '(root)'}: ${first?.message ?? 'invalid fixture'}${more}\n`);
    return 2;
  }
  io.stdout(`${JSON.stringify(runFixture(parsed.data), null, 2)}\n`);
  return 0;
}
