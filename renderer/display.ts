// The customer display's entry (display.html): the same transport as the cashier's page (the
// preload bridge in Electron, else the agent's HTTP API with the session cookie this browser
// already holds), listening to one event, `customer-display`, and drawing it. It asks the
// terminal nothing and can change nothing: a screen facing the customer takes no input.
import { render } from 'preact';
import { chooseApi, httpApi, type EventStreamFactory } from './api.js';
import { isLang, LANGUAGE_KEY, numberStyle, translator, type Lang } from './i18n.js';
import type { CustomerDisplay, TerminalBridge } from './types.js';
import { displayPage } from './views/display.js';

declare global {
  interface Window {
    terminal?: TerminalBridge;
  }
}

/** The language the cashier chose on this machine (same origin), else English. */
function language(): Lang {
  try {
    const chosen = localStorage.getItem(LANGUAGE_KEY);
    return chosen !== null && isLang(chosen) ? chosen : 'en';
  } catch {
    return 'en';
  }
}

const events: EventStreamFactory = (names, deliver) => {
  // Its own events only, on the display pass: the stream outlives a cashier's sign-out.
  const source = new EventSource('/api/events?only=customer-display', { withCredentials: true });
  for (const name of names) {
    source.addEventListener(name, (e) => deliver(name, (e as MessageEvent<string>).data));
  }
  return () => source.close();
};

const root = document.getElementById('display');
if (root) {
  const api = chooseApi(window, () => httpApi({ fetch: (url, init) => fetch(url, init), events }));
  const draw = (shown: CustomerDisplay | null) => {
    const lang = language();
    document.documentElement.lang = lang;
    render(displayPage(shown, translator(lang), numberStyle(lang)), root);
  };
  draw(null);
  api.on('customer-display', draw);
}
