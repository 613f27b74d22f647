// The SecretStore port (src/terminal/secrets.ts) over Electron's safeStorage: values are
// encrypted with the OS keychain (DPAPI, libsecret, kwallet) and kept base64 in
// DIR/secrets.safe.json, mode 0600. Without OS encryption the store refuses to write,
// rather than keeping a secret in the clear behind the user's back.
import type { SafeStorage } from 'electron';
import {
  checkSecretName,
  readJsonRecord,
  writeJsonRecordAtomic,
  type SecretStore,
} from '../src/terminal/secrets.js';
import type { Logger } from '../src/terminal/log.js';

export type SafeStorageLike = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString'
> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

export function createSafeStorageSecretStore(
  file: string,
  safe: SafeStorageLike,
  log: Logger,
): SecretStore {
  if (process.platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') {
    log.warn('safeStorage uses basic_text: no keyring, secrets are only obfuscated');
  }
  return {
    async get(name) {
      checkSecretName(name);
      const sealed = readJsonRecord(file)[name];
      return sealed === undefined ? undefined : safe.decryptString(Buffer.from(sealed, 'base64'));
    },
    async set(name, value) {
      checkSecretName(name);
      if (!safe.isEncryptionAvailable()) {
        throw new Error('OS encryption (safeStorage) is not available: the secret was not stored');
      }
      const sealed = safe.encryptString(value).toString('base64');
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
