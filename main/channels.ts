// The two IPC channels between the preload and the main process: one for every command, one
// for every event. main/preload.cts repeats these strings (a sandboxed preload can load no
// module but electron); test/main/preload.test.ts holds them equal.
export const CALL_CHANNEL = 'terminal:call';
export const EVENT_CHANNEL = 'terminal:event';

/** The window's origin: a privileged custom scheme, not file:// (Electron security 18). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'terminal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
