// The page's only door to the terminal: `window.terminal.call(name, input)` and
// `window.terminal.on(event, listener)`, nothing else; never raw ipcRenderer (style.md
// "What we take" 3). A sandboxed preload is plain CommonJS that may load only electron,
// hence .cts and the channel names written out (main/channels.ts holds the same).
import type * as Electron from 'electron';
import type { TerminalBridge } from '../src/contract/commands.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is CommonJS
const electron: typeof Electron = require('electron');
const { contextBridge, ipcRenderer } = electron;

const CALL_CHANNEL = 'terminal:call';
const EVENT_CHANNEL = 'terminal:event';

const bridge = {
  call: (name, input) => ipcRenderer.invoke(CALL_CHANNEL, name, input),
  on: (event, listener) => {
    const forward = (_e: Electron.IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as Parameters<typeof listener>[0]);
    };
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
} satisfies TerminalBridge;

contextBridge.exposeInMainWorld('terminal', bridge);
