// Where the terminal keeps secrets (interfaces.md): a small port, so the agent keeps them in
// DIR/secrets.json (mode 0600) and the Electron build behind safeStorage (main/secrets.ts).
// Values are strings; the store never logs them.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
  const data: unknown = JSON.parse(text);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error(`${file} is not a JSON object`);
  }
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') throw new Error(`${file}: the value of "${k}" is not a string`);
  }
  return data as Record<string, string>;
}

/** Writes via a temporary file and a rename, so a crash never leaves half a file; mode 0600. */
export function writeJsonRecordAtomic(file: string, data: Record<string, string>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the umask may have narrowed it further, never widened; make it exact
  renameSync(tmp, file);
}

/** DIR/secrets.json, mode 0600; each call reads the file, so two stores never disagree. */
export function createFileSecretStore(file: string): SecretStore {
  return {
    async get(name) {
      checkSecretName(name);
      return readJsonRecord(file)[name];
    },
    async set(name, value) {
      checkSecretName(name);
      writeJsonRecordAtomic(file, { ...readJsonRecord(file), [name]: value });
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

/** In memory, for tests. */
export function memorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const data = new Map(Object.entries(initial));
  return {
    async get(name) {
      return data.get(name);
    },
    async set(name, value) {
      checkSecretName(name);
      data.set(name, value);
    },
    async delete(name) {
      data.delete(name);
    },
  };
}
