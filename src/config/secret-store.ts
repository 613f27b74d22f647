// Where secrets are kept (interfaces.md): a small port, so the agent and the CLI keep them in
// DIR/secrets.json (mode 0600, clear) and the Electron app in DIR/secrets.safe.json (values
// sealed by safeStorage, main/secrets.ts). Values are strings; the store never logs them.
// Which secrets the terminal uses and how it chooses between store and config.json is the
// terminal's (src/terminal/secrets.ts).
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
import { dirname, join } from 'node:path';

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

/**
 * The secret store's file in a data directory: DIR/secrets.json for clear values (the agent,
 * the CLI), DIR/secrets.safe.json for sealed ones (the Electron app). The two never mix.
 */
export function secretsFileIn(dataDir: string, sealed: boolean): string {
  return join(dataDir, sealed ? SAFE_SECRETS_FILE : SECRETS_FILE);
}

/** The secret store of a data directory: clear without a seal, sealed with one. */
export function secretStoreIn(dataDir: string, seal?: SecretSeal): SecretStore {
  return createFileSecretStore(secretsFileIn(dataDir, seal !== undefined), seal);
}
