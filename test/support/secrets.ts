// A secret store in memory, checking names as the real ones do (src/config/secret-store.ts).
import { checkSecretName, type SecretStore } from '../../src/config/secret-store.js';

/** In memory. */
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
