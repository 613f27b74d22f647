// The controller's core: owns the one State, feeds events to `reduce`, runs commands and
// turns their answers into events, re-prices the draft when it changes, and has Preact
// render the page after each change (Preact patches it in place: focus, caret and scroll
// survive). What an action does is in actions.ts; the views and keys ask for them.
import { render as renderInto } from 'preact';
import { v7 } from 'uuid';
import { perform as performAction, type Action } from './actions.js';
import { isError, type Api } from './api.js';
import { isLang, LANGUAGE_KEY, type Lang } from './i18n.js';
import { reduce } from './reduce.js';
import { CalcAhead } from './calc-ahead.js';
import { calcCheck, type Built } from './requests.js';
import type { Errors } from './slices/frame/state.js';
import { initialState, type Event, type State } from './state.js';
import type { Till } from './till.js';
import type {
  CheckRequest,
  CommandInput,
  CommandName,
  CommandOutput,
  CommandResult,
  ErrorBody,
} from './types.js';
import { page } from './views/page.js';

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
  // printed or recorded once per press: a reprint prints, a cash movement is not idempotent
  'receipt-reprint',
  'cash-movement',
  // money moves once per press: a coupon bought, bonuses added or written off
  'coupon-sell',
  'bonus-operation',
]);

export class Controller implements Till {
  state: State;
  /** Pay was pressed while a calculation ran: open the payment when it lands. */
  payWhenCalculated = false;
  private readonly deps: AppDeps;
  private lastFocus = 0;
  private calcSeq = 0;
  private renderQueued = false;
  private quickKeysAsked = false;
  private shownLines = 0;
  /** A calculation started ahead (`prefetchCalc`), for the next one to take. */
  private readonly ahead = new CalcAhead<CommandResult<'check-calc'>>();

  constructor(deps: AppDeps) {
    this.deps = deps;
    const saved = deps.storage?.get(LANGUAGE_KEY) ?? 'en';
    const lang: Lang = isLang(saved) ? saved : 'en';
    this.state = initialState(lang);
  }

  get api(): Api {
    return this.deps.api;
  }

  newId(): string {
    // A UUIDv7 (the uuid package) on the injected clock and random source.
    return v7({ msecs: this.deps.now(), random: this.deps.random(16) });
  }

  now(): number {
    return this.deps.now();
  }

  /** Runs an action: what the views, the keys and the terminal's reads ask for. */
  perform = (action: Action): Promise<void> => performAction(this, action);

  render(): void {
    this.renderQueued = false;
    const { root } = this.deps;
    // The page's language picks a touch number pad's decimal key and a screen reader's voice.
    const doc = root.ownerDocument;
    const lang = this.state.settings.language;
    if (doc.documentElement.lang !== lang) doc.documentElement.lang = lang;
    renderInto(page(this.state, this.perform), root);
    const f = this.state.focus;
    if (f && f.seq !== this.lastFocus) {
      this.lastFocus = f.seq;
      const el = root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(f.testid)}"]`);
      // focus() recalculates style at once: not for the field that has it (the next code's)
      if (el && el !== doc.activeElement && !(el as HTMLInputElement).disabled) el.focus();
    }
    this.showSelectedLine(root);
  }

  /**
   * A line added or moved to (or the window resized: `force`): scrolled into the lines' own
   * box, so the newest is in view.
   */
  showSelectedLine(root: HTMLElement = this.deps.root, force = false): void {
    const mark = (this.state.sale.selected ?? -1) * 100_000 + this.state.sale.version;
    if (mark === this.shownLines && !force) return;
    this.shownLines = mark;
    // At the next frame, not now: scrolling now would lay the page out while the answer to the
    // calculation is still to come, and lay it out again to paint.
    const frame = root.ownerDocument.defaultView?.requestAnimationFrame ?? ((f: () => void) => f());
    frame(() => {
      const row = root.querySelector<HTMLElement>('[data-testid="lines"] tr[aria-selected="true"]');
      row?.scrollIntoView({ block: 'nearest' });
    });
  }

  dispatch = (event: Event): void => {
    const prev = this.state;
    this.state = reduce(this.state, event);
    if (this.state === prev) return;
    if (this.state.settings.language !== prev.settings.language)
      this.deps.storage?.set(LANGUAGE_KEY, this.state.settings.language);
    if (this.state.sale.version !== prev.sale.version) void this.calculate();
    if (!this.renderQueued) {
      this.renderQueued = true;
      queueMicrotask(() => this.render());
    }
  };

  /** Runs a command; a refusal becomes `onError`'s event or the message line. */
  async run<N extends CommandName>(
    name: N,
    input: CommandInput<N>,
    onOk: (out: CommandOutput<N>) => Event | Event[] | void,
    onError?: (e: ErrorBody) => Event | void,
  ): Promise<boolean> {
    const blocking = BLOCKING.has(name);
    if (blocking) {
      if (this.state.busy !== null) return false; // one at a time: a double press sends once
      this.dispatch({ type: 'busy', command: name });
    }
    const result = await this.api.call(name, input);
    if (blocking) this.dispatch({ type: 'busy', command: null });
    if (isError(result)) {
      const e = result.error;
      if (e.code === 'unauthorized' && this.api.kind === 'http') {
        this.dispatch({ type: 'session-expired' });
        return false;
      }
      this.dispatch(onError?.(e) ?? { type: 'failed', error: e });
      return false;
    }
    const out = onOk(result as CommandOutput<N>);
    for (const ev of Array.isArray(out) ? out : out ? [out] : []) this.dispatch(ev);
    return true;
  }

  /** Marks the fields a builder refused; true when there is nothing to send. */
  invalid<T>(built: Built<T>): built is { errors: Errors } {
    if (!('errors' in built)) return false;
    this.dispatch({ type: 'invalid', errors: built.errors });
    return true;
  }

  private calculating(): boolean {
    const s = this.state;
    return Boolean(s.status?.shift) && (s.screen === 'sale' || s.screen === 'payment');
  }

  prefetchCalc(check: CheckRequest | null): void {
    this.ahead.drop();
    if (check && this.calculating())
      this.ahead.start(check, () => this.api.call('check-calc', { check }));
  }

  async calculate(): Promise<void> {
    if (!this.calculating()) return;
    const seq = ++this.calcSeq;
    this.dispatch({ type: 'calc-started', seq });
    const check = calcCheck(this.state.sale.draft);
    // an answer started ahead for exactly this check saves the round trip; any other is stale.
    // One already in is used without an await: the render queued for the new line then shows
    // its figures too (one render and one layout instead of two renders).
    const ahead = this.ahead.take(check);
    const result = ahead?.ready
      ? ahead.value
      : await (ahead?.answer ?? this.api.call('check-calc', { check }));
    this.dispatch({ type: 'calc-done', seq, result });
    if (!this.quickKeysAsked && this.state.sale.calc.check) {
      // once the POS's enter mode is known: the quick keys for touch
      this.quickKeysAsked = true;
      void this.perform({ type: 'quick-keys-load' });
    }
    if (this.payWhenCalculated && !this.state.sale.calc.pending) {
      this.payWhenCalculated = false;
      this.dispatch({ type: 'payment-open', transactionId: this.newId() });
    }
  }

  async refreshStatus(): Promise<void> {
    await this.run(
      'status',
      {},
      (status) => ({ type: 'status', status }),
      () => undefined,
    );
  }

  async refreshDevices(): Promise<void> {
    await this.run(
      'devices-state',
      {},
      (o) => ({ type: 'devices', devices: o.devices }),
      () => undefined,
    );
  }

  async loadAttention(): Promise<void> {
    const input = { include_resolved: this.state.attention.includeResolved };
    await this.run('attention-list', input, (o) => ({ type: 'attention-loaded', items: o.items }));
  }

  async loadReport(): Promise<void> {
    if (!this.state.status?.shift) return;
    await this.run('shift-report', {}, (o) => ({ type: 'report-loaded', report: o.report }));
  }
}
