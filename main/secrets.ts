// The SecretStore port (src/terminal/secrets.ts) over Electron's safeStorage: values are
// encrypted with the OS keychain (DPAPI, libsecret, kwallet) and kept base64 in
// DIR/secrets.safe.json, mode 0600. Without OS encryption the store refuses to write,
// rather than keeping a secret in the clear behind the user's back.
import type { SafeStorage } from 'electron';
import { join } from 'node:path';
import {
  createFileSecretStore,
  SAFE_SECRETS_FILE,
  type SecretStore,
} from '../src/terminal/secrets.js';
import type { Logger } from '../src/terminal/log.js';

export type SafeStorageLike = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString'
> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

/**
 * The store main.ts hands the workflow: DIR/secrets.safe.json (the agent's secrets.json is
 * never read). Call it after app `ready`: safeStorage cannot decrypt before it on Linux.
 */
export function electronSecretStore(
  dataDir: string,
  safe: SafeStorageLike,
  log: Logger,
): SecretStore {
  return createSafeStorageSecretStore(join(dataDir, SAFE_SECRETS_FILE), safe, log);
}

export function createSafeStorageSecretStore(
  file: string,
  safe: SafeStorageLike,
  log: Logger,
): SecretStore {
  if (process.platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') {
    log.warn('safeStorage uses basic_text: no keyring, secrets are only obfuscated');
  }
  return createFileSecretStore(file, {
    seal(value) {
      if (!safe.isEncryptionAvailable()) {
        throw new Error('OS encryption (safeStorage) is not available: the secret was not stored');
      }
      return safe.encryptString(value).toString('base64');
    },
    unseal: (stored) => safe.decryptString(Buffer.from(stored, 'base64')),
  });
}
