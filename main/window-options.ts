// The window's options as a pure function, so test/main/window-options.test.ts can hold them
// to Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security).
import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The page may load only its own files; it talks to the core over IPC, never the network, so
 * `connect-src 'none'`.
 */
export const ELECTRON_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
].join('; ');

export function windowOptions(opts: {
  preload: string;
  devTools: boolean;
}): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    show: false, // shown on ready-to-show, so the cashier never sees a blank frame
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: opts.devTools,
    },
  };
}
