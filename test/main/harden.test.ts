import { describe, expect, it } from 'vitest';
import { hardenContents, hardenSession } from '../../main/harden.js';
import { ELECTRON_CSP } from '../../main/window-options.js';
import { memoryLogger } from '../support/log.js';

type Fn = (...args: unknown[]) => unknown;

function fakeContents() {
  const on = new Map<string, Fn>();
  let openHandler: Fn = () => undefined;
  const contents = {
    on(name: string, fn: Fn) {
      on.set(name, fn);
      return contents;
    },
    setWindowOpenHandler(fn: Fn) {
      openHandler = fn;
    },
  };
  return { contents, on, open: (details: unknown) => openHandler(details) };
}

function preventable(extra: Record<string, unknown> = {}) {
  return {
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
    ...extra,
  };
}

describe('every web contents', () => {
  const log = memoryLogger();
  const f = fakeContents();
  hardenContents(f.contents as never, log);

  it('12: refuses navigation', () => {
    const e = preventable();
    f.on.get('will-navigate')!(e, 'https://evil.example/');
    expect(e.prevented).toBe(true);
  });

  it('refuses a redirect to a foreign URL', () => {
    const e = preventable();
    f.on.get('will-redirect')!(e, 'https://evil.example/');
    expect(e.prevented).toBe(true);
  });

  it('11: refuses to attach a webview', () => {
    const e = preventable();
    f.on.get('will-attach-webview')!(e);
    expect(e.prevented).toBe(true);
  });

  it('13: denies new windows', () => {
    expect(f.open({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });
});

describe('the session', () => {
  let permissionHandler: Fn = () => undefined;
  let checkHandler: Fn = () => undefined;
  let headersHandler: Fn = () => undefined;
  hardenSession({
    setPermissionRequestHandler: (fn: Fn) => void (permissionHandler = fn),
    setPermissionCheckHandler: (fn: Fn) => void (checkHandler = fn),
    webRequest: { onHeadersReceived: (fn: Fn) => void (headersHandler = fn) },
  } as never);

  it('5: refuses every permission request', () => {
    let granted: unknown;
    permissionHandler({}, 'media', (ok: boolean) => (granted = ok));
    expect(granted).toBe(false);
    expect(checkHandler({}, 'media')).toBe(false);
  });

  it('7: puts the CSP on every response', () => {
    let answer: { responseHeaders?: Record<string, string[]> } = {};
    headersHandler(
      { responseHeaders: { 'Content-Type': ['text/html'] } },
      (a: typeof answer) => (answer = a),
    );
    expect(answer.responseHeaders?.['Content-Security-Policy']).toEqual([ELECTRON_CSP]);
    expect(answer.responseHeaders?.['Content-Type']).toEqual(['text/html']);
  });
});
