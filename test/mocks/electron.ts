// Stand-in for the electron module under Node: tests of main/ import this instead (the
// alias in vitest.config.ts). It records what the code under test registers, and its
// safeStorage "encrypts" reversibly so a test can tell sealed from clear text.
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

/** What the preload exposed with contextBridge.exposeInMainWorld. */
export const exposed: Record<string, unknown> = {};

export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown) {
    exposed[key] = api;
  },
};

class FakeIpcRenderer extends EventEmitter {
  invocations: { channel: string; args: unknown[] }[] = [];
  answer: (channel: string, ...args: unknown[]) => unknown = () => undefined;
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args });
    return this.answer(channel, ...args);
  }
}

export const ipcRenderer = new FakeIpcRenderer();

export const ipcMain = {
  handlers: new Map<string, Listener>(),
  handle(channel: string, listener: Listener) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
};

/** A reversible stand-in for OS encryption; `available` switches isEncryptionAvailable. */
export function fakeSafeStorage(available = true) {
  return {
    available,
    isEncryptionAvailable() {
      return this.available;
    },
    encryptString(text: string): Buffer {
      return Buffer.from(`sealed:${Buffer.from(text, 'utf8').toString('hex')}`, 'utf8');
    },
    decryptString(sealed: Buffer): string {
      const s = sealed.toString('utf8');
      if (!s.startsWith('sealed:')) throw new Error('not sealed by this fake');
      return Buffer.from(s.slice('sealed:'.length), 'hex').toString('utf8');
    },
    getSelectedStorageBackend(): 'gnome_libsecret' | 'basic_text' {
      return 'gnome_libsecret';
    },
  };
}

export const safeStorage = fakeSafeStorage();

export const app = {
  isPackaged: false,
  getName: () => 'loyalty-terminal',
  getVersion: () => '0.0.0-test',
};
export const protocol = {};
export const session = {};
export const dialog = {};
export const BrowserWindow = class {};

/** Forgets everything recorded, between tests. */
export function resetElectronMock(): void {
  for (const k of Object.keys(exposed)) delete exposed[k];
  ipcRenderer.removeAllListeners();
  ipcRenderer.invocations = [];
  ipcRenderer.answer = () => undefined;
  ipcMain.handlers.clear();
}

export default {
  app,
  BrowserWindow,
  contextBridge,
  dialog,
  ipcMain,
  ipcRenderer,
  protocol,
  safeStorage,
  session,
};
