// Electron's security checklist (docs/tutorial/security.md), the items a window's options
// decide: each is one assertion.
import { describe, expect, it } from 'vitest';
import { displayWindowOptions, ELECTRON_CSP, windowOptions } from '../../main/window-options.js';

const prefs = windowOptions({
  preload: '/app/dist/main/preload.cjs',
  devTools: false,
}).webPreferences!;

describe('the window options meet the security checklist', () => {
  it('3: context isolation is on', () => expect(prefs.contextIsolation).toBe(true));
  it('4: the renderer is sandboxed', () => expect(prefs.sandbox).toBe(true));
  it('2: Node integration is off everywhere', () => {
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });
  it('6: web security stays on', () => expect(prefs.webSecurity).toBe(true));
  it('8: no insecure content', () => expect(prefs.allowRunningInsecureContent).toBe(false));
  it('9: no experimental features', () => expect(prefs.experimentalFeatures).toBe(false));
  it('10: no Blink features switched on', () => expect(prefs.enableBlinkFeatures).toBeUndefined());
  it('11: no webview tag', () => expect(prefs.webviewTag).toBe(false));
  it('loads a preload script, and only the one given', () =>
    expect(prefs.preload).toBe('/app/dist/main/preload.cjs'));
  it('keeps devtools off when asked (packaged builds)', () => expect(prefs.devTools).toBe(false));
});

describe('the Content-Security-Policy', () => {
  const directives = new Map(
    ELECTRON_CSP.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

  it('7: denies by default and allows scripts only from our own origin', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
  });

  it('allows no inline code and no eval anywhere', () => {
    expect(ELECTRON_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('lets the page reach no network: it talks over IPC', () => {
    expect(directives.get('connect-src')).toEqual(["'none'"]);
  });

  it('allows no objects, frames, base or form targets', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
  });
});

describe("the customer display's window", () => {
  const opts = { preload: '/app/dist/main/preload.cjs', devTools: false };
  const till = { id: 1, bounds: { x: 0, y: 0, width: 1280, height: 1024 } };
  const facing = { id: 2, bounds: { x: 1280, y: 0, width: 800, height: 480 } };

  it('is as locked down as the cashier’s', () =>
    expect(displayWindowOptions(opts, [till, facing], 1).webPreferences).toEqual(prefs));

  it('fills the screen that is not the cashier’s', () =>
    expect(displayWindowOptions(opts, [till, facing], 1)).toMatchObject({
      ...facing.bounds,
      fullscreen: true,
      frame: false,
    }));

  it('opens as a window beside the till when there is one screen only', () => {
    const o = displayWindowOptions(opts, [till], 1);
    expect(o.fullscreen).toBeUndefined();
    expect(o).toMatchObject({ width: 800, height: 600 });
  });
});
