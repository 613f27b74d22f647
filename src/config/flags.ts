// Command-line flags, parsed by node:util parseArgs for every entry (the agent, each CLI
// command, the Electron app). Strict: an unknown flag, a flag without its value or a value
// given to a switch is refused with one line naming the flag. `--flag value` and
// `--flag=value` both work; `--` ends the flags.
import { parseArgs } from 'node:util';

export type FlagSpec = Readonly<
  Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>
>;

export type FlagValues<S extends FlagSpec> = {
  [K in keyof S]?: S[K]['type'] extends 'string' ? string : boolean;
};

export type ParsedFlags<S extends FlagSpec> =
  { ok: true; values: FlagValues<S>; positionals: string[] } | { ok: false; message: string };

/** `--data DIR` and `--config FILE`: where the configuration and the data directory are. */
export const DATA_FLAGS = {
  data: { type: 'string' },
  config: { type: 'string' },
} as const satisfies FlagSpec;

export const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const satisfies FlagSpec;

export const PORT_FLAG = { port: { type: 'string' } } as const satisfies FlagSpec;

/** ARGS by SPEC; positionals (subcommands, names, files) are left to the command to check. */
export function parseFlags<S extends FlagSpec>(args: readonly string[], spec: S): ParsedFlags<S> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: true });
  } catch {
    return { ok: false, message: whyRefused(args, spec) };
  }
  const empty = Object.entries(parsed.values).find(([, v]) => v === '');
  if (empty) return { ok: false, message: `--${empty[0]} needs a value` };
  return { ok: true, values: parsed.values as FlagValues<S>, positionals: parsed.positionals };
}

/**
 * Only the flags of SPEC, everything else left alone: for the Electron app, whose argv also
 * carries Electron's and Chromium's own switches and the app's path.
 */
export function parseKnownFlags<S extends FlagSpec>(
  args: readonly string[],
  spec: S,
): ParsedFlags<S> {
  const { tokens } = parseArgs({
    args: [...args],
    options: spec,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | boolean> = {};
  for (const t of tokens) {
    if (t.kind !== 'option' || !(t.name in spec)) continue;
    const type = spec[t.name]!.type;
    if (type === 'string' && (t.value === undefined || t.value === ''))
      return { ok: false, message: `${t.rawName} needs a value` };
    values[t.name] = type === 'string' ? t.value! : true;
  }
  return { ok: true, values: values as FlagValues<S>, positionals: [] };
}

/** The one line that names what parseArgs refused, in our words rather than its own. */
function whyRefused(args: readonly string[], spec: FlagSpec): string {
  const { tokens } = parseArgs({
    args: [...args],
    options: spec,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const known = spec[t.name];
    if (!known) return `unknown flag ${t.rawName}`;
    if (known.type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    // Strict parseArgs takes no value that looks like a flag (`--data --json`), but `-` is one.
    const looksLikeFlag = !t.inlineValue && t.value !== '-' && t.value?.startsWith('-') === true;
    if (known.type === 'string' && (t.value === undefined || looksLikeFlag))
      return `${t.rawName} needs a value`;
  }
  return `cannot read the flags ${args.join(' ')}`;
}

/** `--port P`: 0..65535, 0 = any free port; absent = 0. */
export function parsePort(
  value: string | undefined,
): { ok: true; port: number } | { ok: false; message: string } {
  if (value === undefined) return { ok: true, port: 0 };
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    return { ok: false, message: `--port takes 0..65535, not "${value}"` };
  return { ok: true, port: Number(value) };
}
