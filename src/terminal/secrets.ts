// Where the terminal keeps secrets (interfaces.md): a small port, so the agent keeps them in
// DIR/secrets.json (mode 0600) and the Electron build behind safeStorage (main/secrets.ts).
// Values are strings; the store never logs them.
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ConfigSchema, parseConfig, type Config } from '../contract/config.js';
import type { Logger } from './log.js';

/** The agent's store in the data directory (clear JSON, mode 0600). */
export const SECRETS_FILE = 'secrets.json';
/** The Electron app's store in the data directory (values sealed by safeStorage). */
export const SAFE_SECRETS_FILE = 'secrets.safe.json';

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** Names are plain keys (`central.api_key`), so a file of them stays readable to a person. */
const secretName = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export function checkSecretName(name: string): void {
  if (!secretName.test(name)) {
    throw new Error(`a secret name is 1..100 of a-z 0-9 . _ - (got ${JSON.stringify(name)})`);
  }
}

/** Reads a JSON object of strings; absent file = empty. Anything else is refused, not guessed. */
export function readJsonRecord(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text around the fault, secrets included.
    throw new Error(`${file} is not valid JSON`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error(`${file} is not a JSON object`);
  }
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') throw new Error(`${file}: the value of "${k}" is not a string`);
  }
  return data as Record<string, string>;
}

/**
 * Writes via a temporary file, fsync and a rename, so a crash never leaves half a file and a
 * reader sees the old file or the new one; mode 0600 from the first byte.
 */
function writeJsonRecordAtomic(file: string, data: Record<string, string>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  // A leftover of a crash may carry another mode: created afresh, exclusively, never reused.
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600); // the umask may have narrowed it further, never widened; make it exact
  renameSync(tmp, file);
}

/** How a file store keeps values: as they are (the agent), or sealed (main/secrets.ts). */
export interface SecretSeal {
  /** The text written for a value; throws when it cannot seal, and nothing is written. */
  seal(value: string): string;
  unseal(stored: string): string;
}

const CLEAR: SecretSeal = { seal: (value) => value, unseal: (stored) => stored };

/** DIR/secrets.json, mode 0600; each call reads the file, so two stores never disagree. */
export function createFileSecretStore(file: string, how: SecretSeal = CLEAR): SecretStore {
  return {
    async get(name) {
      checkSecretName(name);
      const stored = readJsonRecord(file)[name];
      return stored === undefined ? undefined : how.unseal(stored);
    },
    async set(name, value) {
      checkSecretName(name);
      const sealed = how.seal(value);
      writeJsonRecordAtomic(file, { ...readJsonRecord(file), [name]: sealed });
    },
    async delete(name) {
      checkSecretName(name);
      const data = readJsonRecord(file);
      if (!(name in data)) return;
      delete data[name];
      writeJsonRecordAtomic(file, data);
    },
  };
}

// ---- the terminal's own secrets ----

/**
 * The secrets the terminal uses, by store name = their key path in config.json, where they
 * may also be written (in clear: the demo set-up, or how the Electron app gets them in).
 */
export const TERMINAL_SECRETS = ['central.api_key', 'devices.payment.zvt_password'] as const;
export type TerminalSecretName = (typeof TERMINAL_SECRETS)[number];

export function isTerminalSecret(name: string): name is TerminalSecretName {
  return (TERMINAL_SECRETS as readonly string[]).includes(name);
}

/** The value the configuration holds (written or default), undefined without a payment unit. */
function configSecret(config: Config, name: TerminalSecretName): string | undefined {
  return name === 'central.api_key' ? config.central.api_key : config.devices.payment?.zvt_password;
}

const DEFAULTS = ConfigSchema.parse({});

/**
 * Whether config.json itself holds a real secret: a value other than the schema's default
 * (the demo API key, ZVT "000000"), which are public and no secret at all.
 */
export function secretInConfig(config: Config, name: TerminalSecretName): boolean {
  const value = configSecret(config, name);
  return value !== undefined && value !== configSecret(DEFAULTS, name);
}

/**
 * Checks a value by the contract's own rule for its config key (the API key non-empty, the
 * ZVT password six digits); null when it is fine, else why not, naming the key.
 */
export function checkTerminalSecret(name: TerminalSecretName, value: string): string | null {
  const json =
    name === 'central.api_key'
      ? { central: { api_key: value } }
      : { devices: { payment: { simulated: true, zvt_password: value } } };
  const parsed = parseConfig(json);
  return parsed.ok ? null : parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
}

/**
 * One secret for the terminal: the secret store's value, else the configuration's. A real
 * value written in config.json in clear is copied into the store (it is the operator's latest
 * word: how a key is rotated, and how the Electron app gets one at all), is used, and is
 * warned about at every start until it is deleted from config.json. Log records name the
 * secret (`key`), never its value. A store that cannot be read or written is logged and the
 * configuration's value used: a locked keyring must not stop the till.
 */
export async function resolveSecret(
  name: TerminalSecretName,
  config: Config,
  secrets: SecretStore,
  log: Logger,
): Promise<string | undefined> {
  const fromConfig = configSecret(config, name);
  let stored: string | undefined;
  try {
    stored = await secrets.get(name);
  } catch (e) {
    log.error("secret store unreadable: the configuration's value is used", { key: name, err: e });
    return fromConfig;
  }
  if (stored !== undefined) {
    const invalid = checkTerminalSecret(name, stored);
    if (invalid !== null) {
      log.error("stored secret refused: the configuration's value is used", {
        key: name,
        reason: invalid.replace(/^[^:]*: /, ''),
      });
      stored = undefined;
    }
  }
  if (fromConfig === undefined || !secretInConfig(config, name)) return stored ?? fromConfig;

  if (stored === fromConfig) {
    log.warn('secret in clear in config.json: the secret store has it, delete it there', {
      key: name,
    });
    return fromConfig;
  }
  try {
    await secrets.set(name, fromConfig);
    log.warn('secret in clear in config.json: copied into the secret store, delete it there', {
      key: name,
      replaced: stored !== undefined,
    });
  } catch (e) {
    log.error('secret in clear in config.json could not be stored: it stays in clear there', {
      key: name,
      err: e,
    });
  }
  return fromConfig;
}

// ---- the key of the cached hashes ----

/** The secret that keys cached auth-code and PIN hashes (docs/store.md); made, never typed. */
const HASH_KEY_SECRET = 'terminal.hash_key';

const hashKeyShape = /^[A-Za-z0-9_-]{43,}$/;

/**
 * The terminal's hash key from the secret store, made and stored on first use. It never
 * reaches the database or the configuration. A store that cannot be read or written is
 * logged and a key for this run only is used: the till keeps working, and the hashes are
 * fetched again (keyed anew) by a full snapshot, as after a lost key.
 */
export async function loadOrCreateHashKey(
  secrets: SecretStore,
  log: Logger,
  make: () => string,
): Promise<string> {
  try {
    const stored = await secrets.get(HASH_KEY_SECRET);
    if (stored !== undefined && hashKeyShape.test(stored)) return stored;
    if (stored !== undefined)
      log.error('stored hash key refused: a new one is made', { key: HASH_KEY_SECRET });
    const key = make();
    await secrets.set(HASH_KEY_SECRET, key);
    log.info('hash key made for the cached auth codes and PINs', { key: HASH_KEY_SECRET });
    return key;
  } catch (e) {
    log.error('secret store unusable: the cached hashes are keyed for this run only', {
      key: HASH_KEY_SECRET,
      err: e,
    });
    return make();
  }
}
