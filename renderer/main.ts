// The page's entry: pick the transport (preload bridge in Electron, the agent's HTTP API in
// a browser kiosk) and start the app on #app.
import { chooseApi, httpApi, type EventStreamFactory, type FetchLike } from './api.js';
import { startApp } from './app.js';
import type { TerminalBridge } from './types.js';

declare global {
  interface Window {
    terminal?: TerminalBridge;
  }
}

// A kiosk opened at `/?code=...` hands the one-time code to the agent's own exchange, which
// sets the HttpOnly session cookie and redirects back without the code.
const code = new URLSearchParams(location.search).get('code');
if (code !== null && !window.terminal) {
  location.replace(`/session?code=${encodeURIComponent(code)}`);
} else {
  const events: EventStreamFactory = (names, deliver) => {
    const source = new EventSource('/api/events', { withCredentials: true });
    for (const name of names) {
      source.addEventListener(name, (e) => deliver(name, (e as MessageEvent<string>).data));
    }
    return () => source.close();
  };
  const fetchLike: FetchLike = (url, init) => fetch(url, init);
  const api = chooseApi(window, () => httpApi({ fetch: fetchLike, events }));
  const root = document.getElementById('app');
  if (root) {
    startApp({
      api,
      root,
      now: () => Date.now(),
      random: (n) => crypto.getRandomValues(new Uint8Array(n)),
      storage: {
        get: (k) => {
          try {
            return localStorage.getItem(k);
          } catch {
            return null;
          }
        },
        set: (k, v) => {
          try {
            localStorage.setItem(k, v);
          } catch {
            // storage refused (private mode): the choice lasts for this page only
          }
        },
      },
      statusPollMs: api.kind === 'http' ? 5_000 : 15_000,
    });
  }
}
