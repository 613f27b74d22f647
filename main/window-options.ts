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

/** A screen's work area, as Electron's `screen.getAllDisplays()` gives it. */
export interface ScreenArea {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
}

/**
 * The customer display's window (config `ui.customer_display`): the same locked-down page as
 * the cashier's, full screen on the first screen that is not the cashier's (`primaryId`), or
 * a window beside the till when there is only one screen (a test bench, a demo).
 */
export function displayWindowOptions(
  opts: { preload: string; devTools: boolean },
  screens: readonly ScreenArea[],
  primaryId: number,
): BrowserWindowConstructorOptions {
  const base = windowOptions(opts);
  const other = screens.find((s) => s.id !== primaryId);
  const placed = other
    ? { ...other.bounds, fullscreen: true, frame: false }
    : { width: 800, height: 600 };
  return { ...base, minWidth: 640, minHeight: 480, ...placed, title: 'Customer display' };
}
