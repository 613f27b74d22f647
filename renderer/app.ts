// The controller: owns the one State, turns clicks, keys and typing into events for
// `reduce`, runs the commands an action needs and feeds their answers back as events, and
// patches the page after each change. Everything it decides on is in state.ts,
// requests.ts and keys.ts (pure, tested); this file is the wiring to the DOM and the API.
import { isError, type Api } from './api.js';
import { patchChildren } from './dom.js';
import { isLang, numberStyle, translator, type Lang } from './i18n.js';
import { keyIntent } from './keys.js';
import {
  calcCheck,
  cancelInput,
  identifyInput,
  refundInput,
  resolveInput,
  saleInput,
  saleStatusInput,
  shiftCloseInput,
  shiftOpenInput,
  signInInput,
  type Built,
  type Errors,
} from './requests.js';
import { reduce } from './reduce.js';
import {
  accountsFor,
  field,
  initialState,
  isAccountPayment,
  type Event,
  type Screen,
  type State,
} from './state.js';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  ErrorBody,
  EventPayload,
  TransactionPaymentType,
} from './types.js';
import { uuidv7 } from './uuid.js';
import { view } from './view.js';

export interface AppDeps {
  api: Api;
  root: HTMLElement;
  now: () => number;
  /** `n` random bytes (crypto.getRandomValues). */
  random: (n: number) => Uint8Array;
  storage?: { get(key: string): string | null; set(key: string, value: string): void };
  /** Status poll period; the events keep the screen current in between. */
  statusPollMs: number;
}

export interface App {
  getState(): State;
  dispatch(event: Event): void;
  action(name: string, arg?: string): Promise<void>;
  stop(): void;
}

const LANGUAGE_KEY = 'loyalty-terminal.language';

/** Commands that block the screen while they run (a second press must not send twice). */
const BLOCKING = new Set<CommandName>([
  'staff-sign-in',
  'staff-sign-out',
  'shift-open',
  'shift-close',
  'customer-identify',
  'sale-process',
  'sale-status',
  'sale-cancel',
  'sale-refund',
  'payment-recover',
  'attention-resolve',
  'sync-now',
]);

export function startApp(deps: AppDeps): App {
  const { api, root } = deps;
  const saved = deps.storage?.get(LANGUAGE_KEY) ?? 'en';
  const lang: Lang = isLang(saved) ? saved : 'en';
  let state = initialState(lang);
  let lastFocus = 0;
  let calcSeq = 0;
  let renderQueued = false;
  /** Pay was pressed while a calculation ran: open the payment when it lands. */
  let payWhenCalculated = false;
  const cleanups: (() => void)[] = [];

  const newId = () => uuidv7(deps.now(), deps.random(10));

  function render(): void {
    renderQueued = false;
    patchChildren(root, [view(state, translator(state.language), numberStyle(state.language))]);
    const f = state.focus;
    if (f && f.seq !== lastFocus) {
      lastFocus = f.seq;
      const el = root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(f.testid)}"]`);
      if (el && !(el as HTMLInputElement).disabled) el.focus();
    }
  }

  function dispatch(event: Event): void {
    const prev = state;
    state = reduce(state, event);
    if (state === prev) return;
    if (state.language !== prev.language) deps.storage?.set(LANGUAGE_KEY, state.language);
    if (state.sale.version !== prev.sale.version) void calculate();
    if (!renderQueued) {
      renderQueued = true;
      queueMicrotask(render);
    }
  }

  /** Runs a command; a refusal becomes `onError`'s event or the message line. */
  async function run<N extends CommandName>(
    name: N,
    input: CommandInput<N>,
    onOk: (out: CommandOutput<N>) => Event | Event[] | void,
    onError?: (e: ErrorBody) => Event | void,
  ): Promise<boolean> {
    const blocking = BLOCKING.has(name);
    if (blocking) {
      if (state.busy !== null) return false; // one at a time: a double press sends once
      dispatch({ type: 'busy', command: name });
    }
    const result = await api.call(name, input);
    if (blocking) dispatch({ type: 'busy', command: null });
    if (isError(result)) {
      const e = result.error;
      if (e.code === 'unauthorized' && api.kind === 'http') {
        dispatch({ type: 'session-expired' });
        return false;
      }
      const ev = onError?.(e);
      dispatch(ev ?? { type: 'failed', error: e });
      return false;
    }
    const out = onOk(result as CommandOutput<N>);
    for (const ev of Array.isArray(out) ? out : out ? [out] : []) dispatch(ev);
    return true;
  }

  async function calculate(): Promise<void> {
    if (!state.status?.shift || (state.screen !== 'sale' && state.screen !== 'payment')) return;
    const seq = ++calcSeq;
    dispatch({ type: 'calc-started', seq });
    const result = await api.call('check-calc', { check: calcCheck(state.sale.draft) });
    dispatch({ type: 'calc-done', seq, result });
    if (payWhenCalculated && !state.sale.calc.pending) {
      payWhenCalculated = false;
      dispatch({ type: 'payment-open', transactionId: newId() });
    }
  }

  async function refreshStatus(): Promise<void> {
    await run(
      'status',
      {},
      (status) => ({ type: 'status', status }),
      () => undefined,
    );
  }

  async function refreshDevices(): Promise<void> {
    await run(
      'devices-state',
      {},
      (o) => ({ type: 'devices', devices: o.devices }),
      () => undefined,
    );
  }

  async function loadAttention(): Promise<void> {
    await run('attention-list', { include_resolved: state.attention.includeResolved }, (o) => ({
      type: 'attention-loaded',
      items: o.items,
    }));
  }

  async function loadReport(): Promise<void> {
    if (!state.status?.shift) return;
    await run('shift-report', {}, (o) => ({ type: 'report-loaded', report: o.report }));
  }

  /** Marks the fields a builder refused; true when there is nothing to send. */
  function invalid<T>(built: Built<T>): built is { errors: Errors } {
    if (!('errors' in built)) return false;
    dispatch({ type: 'invalid', errors: built.errors });
    return true;
  }

  async function action(name: string, arg?: string): Promise<void> {
    switch (name) {
      case 'nav': {
        const screen = arg as Screen;
        if (screen === 'refund') dispatch({ type: 'refund-open', transactionId: null });
        else dispatch({ type: 'navigate', screen });
        if (screen === 'attention') await loadAttention();
        if (screen === 'report') await loadReport();
        if (screen === 'settings') await Promise.all([refreshStatus(), refreshDevices()]);
        if (screen === 'sale' && state.sale.calc.check === null) await calculate();
        return;
      }
      case 'back':
        return dispatch({ type: 'back' });
      case 'dismiss':
        return dispatch({ type: 'dismiss' });
      case 'focus':
        return arg ? dispatch({ type: 'focus', testid: arg }) : undefined;
      case 'sign-in': {
        const built = signInInput(state);
        if (invalid(built)) return;
        const ok = await run('staff-sign-in', built.input, (output) => ({
          type: 'signed-in',
          output,
        }));
        if (ok) {
          await Promise.all([refreshStatus(), refreshDevices()]);
          await calculate();
        }
        return;
      }
      case 'sign-out':
        await run('staff-sign-out', {}, () => ({ type: 'signed-out' }));
        return;
      case 'shift-open': {
        const built = shiftOpenInput(state);
        if (invalid(built)) return;
        if (
          await run('shift-open', built.input, (o) => ({ type: 'shift-opened', shift: o.shift }))
        ) {
          await calculate();
        }
        return;
      }
      case 'identify': {
        const built = identifyInput(state);
        if (invalid(built)) return;
        const input = built.input;
        const identity = {
          id: input.id,
          id_type: input.id_type,
          ...(input.cardotppassword ? { cardotppassword: input.cardotppassword } : {}),
        };
        await run('customer-identify', input, (output) => ({
          type: 'customer-identified',
          output,
          identity,
        }));
        return;
      }
      case 'customer-clear':
      case 'item-add':
      case 'bonuses-apply':
      case 'bonuses-max':
      case 'bonuses-clear':
      case 'coupon-add':
      case 'tender-add':
      case 'void-sale':
      case 'refund-all':
      case 'new-sale':
        return dispatch({ type: name });
      case 'preset-add':
        return dispatch({ type: 'preset-add', index: Number(arg) });
      case 'line-remove':
        return dispatch({ type: 'line-remove', index: Number(arg) });
      case 'line-inc':
        return dispatch({ type: 'line-step', index: Number(arg), delta: 1 });
      case 'line-dec':
        return dispatch({ type: 'line-step', index: Number(arg), delta: -1 });
      case 'line-select':
        return dispatch({ type: 'line-select', index: Number(arg) });
      case 'select-next':
        return dispatch({ type: 'select-step', delta: 1 });
      case 'select-prev':
        return dispatch({ type: 'select-step', delta: -1 });
      case 'coupon-remove':
        return arg ? dispatch({ type: 'coupon-remove', code: arg }) : undefined;
      case 'rule-toggle':
        return arg ? dispatch({ type: 'rule-toggle', id: arg }) : undefined;
      case 'tender-remove':
        return dispatch({ type: 'tender-remove', index: Number(arg) });
      case 'pay':
        if (state.sale.calc.pending) {
          payWhenCalculated = true;
          return;
        }
        return dispatch({ type: 'payment-open', transactionId: newId() });
      case 'payment-method': {
        const method = arg as TransactionPaymentType;
        const accounts = accountsFor(state.sale.draft.customer, method);
        const accountId =
          isAccountPayment(method) && accounts.length === 1 ? accounts[0]!.id : null;
        return dispatch({ type: 'payment-method', method, accountId });
      }
      case 'payment-account':
        return dispatch({
          type: 'payment-method',
          method: state.sale.draft.payment.type,
          accountId: arg ?? null,
        });
      case 'sale-confirm': {
        if (state.sale.calc.pending || state.sale.outcomeUnknown) return;
        // after a refusal the retry is a new transaction (the refused id stays refused)
        if (state.sale.transactionId === null)
          dispatch({ type: 'sale-id', transactionId: newId() });
        const built = saleInput(state);
        if (invalid(built)) return;
        await run(
          'sale-process',
          built.input,
          (result) => ({ type: 'sale-done', result }),
          (error) => ({ type: 'sale-failed', error }),
        );
        await refreshStatus();
        return;
      }
      case 'sale-check-status': {
        const id = state.sale.transactionId;
        if (!id) return;
        await run('sale-status', { transaction_id: id }, (output) => ({
          type: 'sale-status',
          output,
        }));
        return;
      }
      case 'refund-open': {
        dispatch({ type: 'refund-open', transactionId: arg ?? null });
        if (arg) await action('refund-load');
        return;
      }
      case 'refund-load': {
        const built = saleStatusInput(state);
        if (invalid(built)) return;
        await run('sale-status', built.input, (output) => ({ type: 'refund-loaded', output }));
        return;
      }
      case 'refund-submit': {
        dispatch({ type: 'refund-started', refundId: newId() });
        const id = state.refund.refundId;
        if (!id) return;
        const built = refundInput(state, id);
        if (invalid(built)) return;
        await run(
          'sale-refund',
          built.input,
          (output) => ({ type: 'refund-done', output }),
          (error) => ({ type: 'refund-failed', error }),
        );
        await refreshStatus();
        return;
      }
      case 'cancel-submit': {
        // destructive: the first press arms, the second cancels
        if (field(state, 'cancel-armed') !== '1') {
          dispatch({ type: 'field', name: 'cancel-armed', value: '1' });
          dispatch({ type: 'notice', key: 'refund.confirm-cancel' });
          return;
        }
        dispatch({ type: 'field', name: 'cancel-armed', value: '' });
        const built = cancelInput(state);
        if (invalid(built)) return;
        await run('sale-cancel', built.input, (output) => ({ type: 'cancel-done', output }));
        await refreshStatus();
        return;
      }
      case 'attention-load':
        return loadAttention();
      case 'attention-toggle-resolved':
        dispatch({ type: 'attention-toggle-resolved' });
        return loadAttention();
      case 'attention-resolve': {
        if (!arg) return;
        await run('attention-resolve', resolveInput(state, arg), (o) => ({
          type: 'attention-resolved',
          item: o.item,
        }));
        await refreshStatus();
        return;
      }
      case 'payment-recover':
        await run('payment-recover', {}, (output) => ({ type: 'recovered', output }));
        return;
      case 'report-load':
        return loadReport();
      case 'shift-close': {
        const built = shiftCloseInput(state);
        if (invalid(built)) return;
        await run('shift-close', built.input, (o) => ({ type: 'shift-closed', report: o.report }));
        await refreshStatus();
        return;
      }
      case 'sync-now':
        await run('sync-now', {}, (output) => ({ type: 'synced', output }));
        return;
    }
  }

  // ---- the page's events, delegated ----

  const onClick = (e: MouseEvent) => {
    const el = (e.target as Element | null)?.closest<HTMLElement>('[data-action]');
    if (!el || !root.contains(el) || (el as HTMLButtonElement).disabled) return;
    void action(el.dataset.action ?? '', el.dataset.arg);
  };
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = form.dataset.submit;
    if (name) void action(name);
  };
  const onInput = (e: globalThis.Event) => {
    const el = e.target as HTMLInputElement | HTMLSelectElement;
    const name = el.dataset?.field;
    if (name) dispatch({ type: 'field', name, value: el.value });
  };
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    const inField = target !== null && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
    const intent = keyIntent(state, {
      key: e.key,
      altKey: e.altKey,
      ctrlKey: e.ctrlKey,
      metaKey: e.metaKey,
      inField,
    });
    if (!intent) return;
    e.preventDefault();
    void action(intent.action, intent.arg);
  };

  root.addEventListener('click', onClick);
  root.addEventListener('submit', onSubmit);
  root.addEventListener('input', onInput);
  root.addEventListener('change', onInput);
  root.ownerDocument.addEventListener('keydown', onKey);
  cleanups.push(() => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('submit', onSubmit);
    root.removeEventListener('input', onInput);
    root.removeEventListener('change', onInput);
    root.ownerDocument.removeEventListener('keydown', onKey);
  });

  // ---- what the terminal pushes, and the poll that backs it up ----

  /**
   * A swipe or a scan. On the sale screen an identifier identifies the customer exactly as if
   * the cashier had typed it (a card that also needs its one-time password stays in the field
   * for them to complete); anywhere else the read is only acknowledged, never acted on.
   */
  async function onRead(read: EventPayload<'device-read'>): Promise<void> {
    if (!state.status?.staff) return;
    if (read.kind === 'bank-card') {
      return dispatch({ type: 'notice', key: 'read.bank-card', params: { masked: read.masked } });
    }
    if (read.kind === 'unrecognised') return dispatch({ type: 'notice', key: 'read.unrecognised' });
    if (state.screen !== 'sale' || state.busy !== null) {
      return dispatch({ type: 'notice', key: 'read.not-now' });
    }
    dispatch({ type: 'field', name: 'customer-id', value: read.id });
    dispatch({ type: 'field', name: 'customer-id-type', value: read.id_type });
    dispatch({ type: 'field', name: 'customer-otp', value: '' });
    await action('identify');
  }

  cleanups.push(api.on('status-changed', (status) => dispatch({ type: 'status', status })));
  cleanups.push(api.on('device-state', (device) => dispatch({ type: 'device', device })));
  cleanups.push(api.on('device-read', (read) => void onRead(read)));
  cleanups.push(
    api.on('sync-progress', (progress) => dispatch({ type: 'sync-progress', progress })),
  );
  const poll = setInterval(() => void refreshStatus(), deps.statusPollMs);
  cleanups.push(() => clearInterval(poll));

  render();
  void (async () => {
    await Promise.all([refreshStatus(), refreshDevices()]);
    await calculate();
  })();

  return {
    getState: () => state,
    dispatch,
    action,
    stop: () => {
      for (const c of cleanups.splice(0)) c();
    },
  };
}
