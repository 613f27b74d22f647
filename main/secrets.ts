// The SecretStore port (src/config/secret-store.ts) over Electron's safeStorage: values are
// encrypted with the OS keychain (DPAPI, libsecret, kwallet) and kept base64 in
// DIR/secrets.safe.json, mode 0600. Without OS encryption the store refuses to write,
// rather than keeping a secret in the clear behind the user's back.
import type { SafeStorage } from 'electron';
import {
  createFileSecretStore,
  secretStoreIn,
  type SecretSeal,
  type SecretStore,
} from '../src/config/secret-store.js';
import type { Logger } from '../src/terminal/log.js';

export type SafeStorageLike = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString'
> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

/** How the app's file store keeps values: sealed by safeStorage, never in clear. */
export function safeStorageSeal(safe: SafeStorageLike): SecretSeal {
  return {
    seal(value) {
      if (!safe.isEncryptionAvailable()) {
        throw new Error('OS encryption (safeStorage) is not available: the secret was not stored');
      }
      return safe.encryptString(value).toString('base64');
    },
    unseal: (stored) => safe.decryptString(Buffer.from(stored, 'base64')),
  };
}

/** Says so in the log when safeStorage only obfuscates (Linux without a keyring). */
export function warnIfUnprotected(safe: SafeStorageLike, log: Logger): void {
  if (process.platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') {
    log.warn('safeStorage uses basic_text: no keyring, secrets are only obfuscated');
  }
}

/**
 * The store main.ts hands the workflow: DIR/secrets.safe.json (the agent's secrets.json is
 * never read). Call it after app `ready`: safeStorage cannot decrypt before it on Linux.
 */
export function electronSecretStore(
  dataDir: string,
  safe: SafeStorageLike,
  log: Logger,
): SecretStore {
  warnIfUnprotected(safe, log);
  return secretStoreIn(dataDir, safeStorageSeal(safe));
}

export function createSafeStorageSecretStore(
  file: string,
  safe: SafeStorageLike,
  log: Logger,
): SecretStore {
  warnIfUnprotected(safe, log);
  return createFileSecretStore(file, safeStorageSeal(safe));
}
