// The terminal's own secrets (interfaces.md): which ones it uses, how a value is chosen
// between the secret store and config.json, and the key of the cached hashes. The store
// itself (the port, DIR/secrets.json, DIR/secrets.safe.json) is src/config/secret-store.ts.
import { ConfigSchema, parseConfig, type Config } from '../contract/config.js';
import type { SecretStore } from '../config/secret-store.js';
import type { Logger } from './log.js';

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
export function configSecret(config: Config, name: TerminalSecretName): string | undefined {
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
export const HASH_KEY_SECRET = 'terminal.hash_key';

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
