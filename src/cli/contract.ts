// `contract validate TYPE FILE|-` and `contract types`.
import { contractTypes, findContractType } from '../contract/index.js';
import { problemsOf } from '../contract/problems.js';
import { parseFlags } from '../config/flags.js';
import { refuseUsage, type CliIO } from './io.js';

const USAGE =
  'usage: loyalty-terminal contract validate [--inbound] TYPE FILE|-  |  contract types\n';

const CONTRACT_FLAGS = { inbound: { type: 'boolean' }, types: { type: 'boolean' } } as const;

export async function runContract(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, CONTRACT_FLAGS);
  if (!parsed.ok) return refuseUsage(io, 'contract', parsed.message, USAGE);
  const [sub, ...rest] = parsed.positionals;
  if (sub === 'types' || (sub === 'validate' && parsed.values.types)) {
    io.stdout(`${contractTypes().join('\n')}\n`);
    return 0;
  }
  if (sub !== 'validate') {
    io.stderr(USAGE);
    return 2;
  }
  const inbound = parsed.values.inbound ?? false;
  const [typeName, file, ...extra] = rest;
  if (typeName === undefined || file === undefined || extra.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  const type = findContractType(typeName);
  if (!type) {
    io.stderr(`unknown type "${typeName}"; \`loyalty-terminal contract types\` lists them\n`);
    return 2;
  }
  let text: string;
  try {
    text = await io.readInput(file);
  } catch (err) {
    io.stderr(`cannot read ${file === '-' ? 'standard input' : file}: ${(err as Error).message}\n`);
    return 2;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (err) {
    io.stdout(`(root): malformed JSON: ${(err as Error).message}\n`);
    return 1;
  }
  const result = (inbound ? type.inbound : type.strict).safeParse(payload);
  if (result.success) {
    io.stdout(`ok: the payload is a valid ${typeName}\n`);
    return 0;
  }
  for (const p of problemsOf(result.error)) io.stdout(`${p.path}: ${p.message}\n`);
  return 1;
}
