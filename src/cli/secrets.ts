// `loyalty-terminal secrets set|delete NAME` and `secrets list` [--data DIR] [--config FILE]:
// the agent's secrets in DIR/secrets.json (mode 0600). `set` reads the value from standard
// input, so it lands neither in the shell's history nor in config.json; nothing prints a
// value. The Electron app's secrets (DIR/secrets.safe.json) are sealed by the OS for that app
// alone: `list` shows their names, but they are set through config.json (docs/terminal.md).
import { existsSync } from 'node:fs';
import { DATA_FLAGS, HELP_FLAG, parseFlags } from '../config/flags.js';
import {
  checkSecretName,
  readJsonRecord,
  SECRETS_FILE,
  secretsFileIn,
} from '../config/secret-store.js';
import { resolveSettings } from '../config/settings.js';
import {
  checkTerminalSecret,
  isTerminalSecret,
  secretInConfig,
  TERMINAL_SECRETS,
} from '../terminal/secrets.js';
import { refuseUsage, type CliIO } from './io.js';

const SECRETS_USAGE = `usage: loyalty-terminal secrets set NAME [--data DIR] [--config FILE]   (value on stdin)
       loyalty-terminal secrets delete NAME [--data DIR] [--config FILE]
       loyalty-terminal secrets list [--data DIR] [--config FILE]
  NAME is one of: ${TERMINAL_SECRETS.join(', ')}
  The agent reads DIR/${SECRETS_FILE} (mode 0600) at its next start. Examples:
    loyalty-terminal secrets set central.api_key < key.txt
    read -rs KEY && printf '%s' "$KEY" | loyalty-terminal secrets set central.api_key
  Typed at a terminal, the value shows as you type: end it with Enter, then Ctrl+D.
  The Electron app's secrets are sealed by the OS: write the value in config.json, start the
  app once (it seals a copy), then delete it there (docs/terminal.md, "Secrets").
`;

function usage(io: CliIO, message: string): number {
  io.stderr(`${message}\n${SECRETS_USAGE}`);
  return 2;
}

/** Standard input without the one line end a shell or an editor adds. */
function stripLineEnd(text: string): string {
  return text.replace(/\r?\n$/, '');
}

export async function runSecrets(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, { ...DATA_FLAGS, ...HELP_FLAG });
  if (!parsed.ok) return refuseUsage(io, 'secrets', parsed.message, SECRETS_USAGE);
  if (parsed.values.help) {
    io.stdout(SECRETS_USAGE);
    return 0;
  }
  const [sub, name, ...extra] = parsed.positionals;
  if (sub !== 'set' && sub !== 'delete' && sub !== 'list') {
    return usage(
      io,
      sub === undefined ? 'secrets needs set, delete or list' : `unknown subcommand "${sub}"`,
    );
  }
  const arity = sub === 'list' ? 0 : 1;
  const given = [name, ...extra].filter((a) => a !== undefined);
  if (given.length !== arity) {
    return usage(io, arity === 0 ? 'secrets list takes no NAME' : `secrets ${sub} needs one NAME`);
  }
  const resolved = await resolveSettings(parsed.values, { readText: (f) => io.readInput(f) });
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return 2;
  }
  // The agent's store of the data directory the agent uses (`terminal.data_dir` honoured).
  const { config, dataDir, secrets, secretsFile: file } = resolved.settings;
  const safeFile = secretsFileIn(dataDir, true);

  try {
    if (sub === 'list') {
      for (const n of Object.keys(readJsonRecord(file)).sort()) io.stdout(`${n}\t${file}\n`);
      for (const n of Object.keys(readJsonRecord(safeFile)).sort()) {
        io.stdout(`${n}\t${safeFile}\n`);
      }
      return 0;
    }
    if (sub === 'delete') {
      try {
        checkSecretName(name!);
      } catch (e) {
        return usage(io, (e as Error).message);
      }
      const had = name! in readJsonRecord(file);
      await secrets.delete(name!);
      io.stdout(had ? `deleted ${name} from ${file}\n` : `${name} was not in ${file}\n`);
      return 0;
    }

    if (!isTerminalSecret(name!)) {
      return usage(io, `unknown secret name ${JSON.stringify(name)}`);
    }
    const value = stripLineEnd(await io.readInput('-'));
    if (value === '') return usage(io, `no value for ${name} on standard input`);
    const invalid = checkTerminalSecret(name, value);
    if (invalid !== null) return usage(io, `refused, nothing stored: ${invalid}`);
    await secrets.set(name, value);
    io.stdout(`stored ${name} in ${file}; the agent uses it from its next start\n`);
    if (secretInConfig(config, name)) {
      io.stderr(
        `warning: the configuration still holds ${name} in clear; delete it there, or the ` +
          `terminal copies it over this value at its next start\n`,
      );
    }
    if (existsSync(safeFile)) {
      io.stderr(
        `note: the Electron app reads ${safeFile}, not ${SECRETS_FILE}; to set its ${name}, ` +
          `write it in config.json and start the app once\n`,
      );
    }
    return 0;
  } catch (e) {
    io.stderr(`secrets ${sub}: ${(e as Error).message}\n`);
    return 1;
  }
}
