// The controller's wiring: startApp makes the Controller (controller.ts), turns the keys
// into actions (keys.ts, actions.ts) and what the terminal pushes into events. Clicks, form
// submits and typing are the views' own: their handlers ask the controller for typed actions.
// Everything it decides on is in state.ts, reduce.ts, requests.ts, actions.ts and keys.ts;
// this file is the wiring to the document and the API.
import type { Action } from './actions.js';
import type { Api } from './api.js';
import { Controller, type AppDeps } from './controller.js';
import { keyIntent } from './keys.js';
import type { Event, State } from './state.js';
import type { EventPayload } from './types.js';

export type { AppDeps } from './controller.js';

export interface App {
  getState(): State;
  dispatch(event: Event): void;
  perform(action: Action): Promise<void>;
  stop(): void;
}

export function startApp(deps: AppDeps): App {
  const till = new Controller(deps);
  const cleanups = [listenToKeys(deps.root, till), ...listenToTerminal(deps.api, till)];
  const poll = setInterval(() => void till.refreshStatus(), deps.statusPollMs);
  cleanups.push(() => clearInterval(poll));

  till.render();
  void (async () => {
    await Promise.all([till.refreshStatus(), till.refreshDevices()]);
    await till.calculate();
  })();

  return {
    getState: () => till.state,
    dispatch: till.dispatch,
    perform: till.perform,
    stop: () => {
      for (const c of cleanups.splice(0)) c();
    },
  };
}

/** The shortcuts, on the whole document; returns their removal. */
function listenToKeys(root: HTMLElement, till: Controller): () => void {
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    const inField = target !== null && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
    const { key, altKey, ctrlKey, metaKey } = e;
    const action = keyIntent(till.state, { key, altKey, ctrlKey, metaKey, inField });
    if (!action) return;
    e.preventDefault();
    // Esc leaves the field (issue 15, point 7): on the sale, where it has nowhere to go back
    // to, the arrows, + − and Del then work the lines again
    if (action.type === 'back' && inField) target?.blur();
    void till.perform(action);
  };
  const doc = root.ownerDocument;
  doc.addEventListener('keydown', onKey);
  // a smaller window keeps the selected (newest) line in view
  const win = doc.defaultView;
  const onResize = () => till.showSelectedLine(root, true);
  win?.addEventListener('resize', onResize);
  return () => {
    doc.removeEventListener('keydown', onKey);
    win?.removeEventListener('resize', onResize);
  };
}

/** What the terminal pushes, as events; returns each subscription's removal. */
function listenToTerminal(api: Api, till: Controller): (() => void)[] {
  return [
    api.on('status-changed', (status) => till.dispatch({ type: 'status', status })),
    api.on('device-state', (device) => till.dispatch({ type: 'device', device })),
    api.on('device-read', (read) => void onRead(till, read)),
    api.on('sync-progress', (progress) => till.dispatch({ type: 'sync-progress', progress })),
    api.on('pump-state', (event) => till.dispatch({ type: 'pump-changed', event })),
  ];
}

/**
 * A swipe or a scan. On the sale screen an identifier identifies the customer exactly as if
 * the cashier had typed it (a card that also needs its one-time password stays in the field
 * for them to complete); anywhere else the read is only acknowledged, never acted on.
 */
async function onRead(till: Controller, read: EventPayload<'device-read'>): Promise<void> {
  const state = till.state;
  if (!state.status?.staff) return;
  if (read.kind === 'bank-card') {
    return till.dispatch({
      type: 'notice',
      key: 'read.bank-card',
      params: { masked: read.masked },
    });
  }
  if (read.kind === 'unrecognised')
    return till.dispatch({ type: 'notice', key: 'read.unrecognised' });
  // A good's barcode adds its line on the sale screen (`catalog-search` resolves it).
  if (read.kind === 'goods' && state.screen === 'sale')
    return till.perform({ type: 'scan-goods', barcode: read.barcode });
  if (read.kind === 'goods')
    return till.dispatch({ type: 'notice', key: 'read.goods', params: { barcode: read.barcode } });
  if (state.screen !== 'sale' || state.busy !== null) {
    return till.dispatch({ type: 'notice', key: 'read.not-now' });
  }
  till.dispatch({ type: 'field', name: 'customer-id', value: read.id });
  till.dispatch({ type: 'field', name: 'customer-id-type', value: read.id_type });
  till.dispatch({ type: 'field', name: 'customer-otp', value: '' });
  await till.perform({ type: 'identify' });
}
