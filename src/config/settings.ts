// What a process runs with, resolved one way for the agent, the Electron app and every CLI
// command (docs/terminal.md, "Configuration"): the configuration, the data directory and the
// secret store, from the flags, the configuration file and the defaults, in that order.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type Config } from '../contract/config.js';
import { secretsFileIn, secretStoreIn, type SecretSeal, type SecretStore } from './secret-store.js';

/** The configuration's name in the data directory. */
export const CONFIG_FILE = 'config.json';

/** ~/.loyalty-terminal: where everything is when neither a flag nor the configuration says. */
export function defaultDataDir(home: string = homedir()): string {
  return join(home, '.loyalty-terminal');
}

/** The flags that locate things (`DATA_FLAGS`). */
export interface SettingsFlags {
  /** `--data DIR`: where config.json is looked for, and the data directory by default. */
  data?: string | undefined;
  /** `--config FILE`: the configuration instead of DIR/config.json; it must exist. */
  config?: string | undefined;
}

export interface SettingsOptions {
  /** Reads a file (the CLI's port, which also takes `-` for standard input); default: fs. */
  readText?: (file: string) => Promise<string>;
  /** The home directory the default data directory is in; default: the user's. */
  home?: string;
  /** Seals the secret store's values (the Electron app): DIR/secrets.safe.json, not secrets.json. */
  seal?: SecretSeal;
}

export interface Settings {
  config: Config;
  /** The file the configuration came from; null = none, the embedded default. */
  configFile: string | null;
  /** Where the lock, the store, the secrets, the logs and the simulators' books live. */
  dataDir: string;
  secretsFile: string;
  secrets: SecretStore;
}

export type ResolvedSettings = { ok: true; settings: Settings } | { ok: false; message: string };

const readUtf8 = (file: string) => readFile(file, 'utf8');

/**
 * The settings of one start. The configuration: `--config FILE`, else DIR/config.json when
 * present (DIR: `--data`, else ~/.loyalty-terminal), else the embedded default. The data
 * directory: the configuration's `terminal.data_dir`, else DIR. A refusal is one message,
 * each line naming the file and the key at fault.
 */
export async function resolveSettings(
  flags: SettingsFlags,
  o: SettingsOptions = {},
): Promise<ResolvedSettings> {
  const base = flags.data ?? defaultDataDir(o.home);
  const loaded = await loadConfig(flags.config, join(base, CONFIG_FILE), o.readText ?? readUtf8);
  if (!loaded.ok) return loaded;
  // `terminal.data_dir` moves everything: DIR is then only where the configuration was found.
  const dataDir = loaded.config.terminal.data_dir ?? base;
  return {
    ok: true,
    settings: {
      config: loaded.config,
      configFile: loaded.file,
      dataDir,
      secretsFile: secretsFileIn(dataDir, o.seal !== undefined),
      secrets: secretStoreIn(dataDir, o.seal),
    },
  };
}

type Loaded = { ok: true; config: Config; file: string | null } | { ok: false; message: string };

/** NAMED when given (it must be there), else FALLBACK when present, else the embedded default. */
async function loadConfig(
  named: string | undefined,
  fallback: string,
  read: (file: string) => Promise<string>,
): Promise<Loaded> {
  const file = named ?? fallback;
  let text: string | undefined;
  try {
    text = await read(file);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing || named !== undefined)
      return { ok: false, message: `cannot read ${file}: ${(e as Error).message}` };
  }
  let json: unknown = {};
  if (text !== undefined) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { ok: false, message: `${file}: malformed JSON: ${(e as Error).message}` };
    }
  }
  const parsed = parseConfig(json);
  if (!parsed.ok)
    return {
      ok: false,
      message: parsed.errors.map((p) => `${file}: ${p.path}: ${p.message}`).join('\n'),
    };
  return { ok: true, config: parsed.config, file: text === undefined ? null : file };
}
