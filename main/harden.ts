// What every web contents and the session get before any page loads: no navigation away,
// no new windows, no webviews, no permissions, and the CSP on every response.
import type { Session, WebContents } from 'electron';
import type { Logger } from '../src/terminal/log.js';
import { ELECTRON_CSP } from './window-options.js';
import { isTrustedUrl } from './trusted-url.js';

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;
type SessionLike = {
  setPermissionRequestHandler: Session['setPermissionRequestHandler'];
  setPermissionCheckHandler: Session['setPermissionCheckHandler'];
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
};

export function hardenContents(contents: ContentsLike, log: Logger): void {
  // The UI routes with the history API, which fires no will-navigate: every real navigation
  // is a link or a script going somewhere else, and is refused.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log.warn('navigation refused', { url });
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isTrustedUrl(event.url)) {
      event.preventDefault();
      log.warn('frame navigation refused', { url: event.url });
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrustedUrl(url)) {
      event.preventDefault();
      log.warn('redirect refused', { url });
    }
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log.warn('webview refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    log.warn('new window refused', { url });
    return { action: 'deny' };
  });
}

export function hardenSession(session: SessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [ELECTRON_CSP],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
}
