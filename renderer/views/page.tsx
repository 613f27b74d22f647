// The whole page as one pure function of the view model: header and navigation, the message
// line, the snapshot progress bar, the current screen and the status bar. The controller has
// Preact render `page(...)` into #app after every change.
import type { VNode } from 'preact';
import type { Action } from '../actions.js';
import type { DateStyle, NumberStyle } from '../format.js';
import { dateStyle, errorText, navKey, numberStyle, translator, type Translate } from '../i18n.js';
import { SHORTCUTS } from '../keys.js';
import { NAV_SCREENS } from '../slices/frame/state.js';
import { posTimeZone } from '../slices/sale/state.js';
import type { State } from '../state.js';
import { AttentionScreen } from './attention.js';
import { Button, type Ctx } from './common.js';
import { PaymentScreen } from './payment.js';
import { ReceiptScreen } from './receipt.js';
import { RefundScreen } from './refund.js';
import { ReportScreen } from './report.js';
import { SaleScreen } from './sale.js';
import { SettingsScreen } from './settings.js';
import { ShiftOpenScreen, SignInScreen } from './sign-in.js';
import { OfflineBanner } from './offline-banner.js';
import { StatusBar } from './status-bar.js';
import { RecentScreen } from './recent.js';
import { CashScreen } from './cash.js';
import { LoyaltyScreen } from './loyalty.js';
import { ForecourtScreen } from './forecourt.js';
import { TanksScreen } from './tanks.js';

export function view(
  state: State,
  t: Translate,
  num: NumberStyle,
  dates: DateStyle,
  act: (action: Action) => void,
): VNode {
  return <Page ctx={{ state, t, num, dates, act }} />;
}

/** The page in the state's language: its texts, its numbers, its dates in the POS's zone. */
export function page(state: State, act: (action: Action) => void): VNode {
  const lang = state.settings.language;
  const dates = dateStyle(lang, posTimeZone(state));
  return view(state, translator(lang), numberStyle(lang), dates, act);
}

export function Page({ ctx }: { ctx: Ctx }) {
  const { state, t } = ctx;
  return (
    <div class="app" data-screen={state.screen}>
      {/* the page is a grid of four rows: the top (header and what it announces), the
          screen, the shortcuts and the status bar; only the screen's lists scroll */}
      <div class="top">
        <Header ctx={ctx} />
        <OfflineBanner ctx={ctx} />
        <MessageLine ctx={ctx} />
        <ProgressBar ctx={ctx} />
      </div>
      <main
        data-testid={`screen-${state.sessionExpired ? 'session' : state.screen}`}
        aria-busy={state.busy ? 'true' : 'false'}
      >
        {state.sessionExpired ? (
          <section class="panel" data-testid="session-expired" role="alert">
            <h2>{t('session.title')}</h2>
            <p>{t('session.expired')}</p>
          </section>
        ) : (
          <Screen ctx={ctx} />
        )}
      </main>
      <Shortcuts ctx={ctx} />
      <StatusBar ctx={ctx} />
    </div>
  );
}

function Header({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const staff = state.status?.staff;
  const shift = state.status?.shift;
  const busy = state.busy !== null;
  return (
    <header class="topbar">
      <h1>{t('app.title')}</h1>
      {staff ? <Navigation ctx={ctx} /> : null}
      <div class="who">
        {staff ? <span data-testid="header-staff">{staff.name ?? staff.id}</span> : null}
        {shift ? (
          <span data-testid="header-shift">{t('header.shift', { n: shift.number })}</span>
        ) : null}
        {staff ? (
          <Button
            ctx={ctx}
            testid="nav-sync-now"
            does={{ type: 'sync-now' }}
            label={t('sync.now')}
            disabled={busy}
            hint="F9"
          />
        ) : null}
        {staff ? (
          <Button
            ctx={ctx}
            testid="nav-sign-out"
            does={{ type: 'sign-out' }}
            label={t('signin.sign-out')}
            disabled={busy}
          />
        ) : null}
      </div>
    </header>
  );
}

function Navigation({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const inSale = state.screen === 'payment' || state.screen === 'receipt';
  return (
    <nav aria-label={t('nav.label')}>
      {NAV_SCREENS.map((s, i) => (
        <Button
          key={s}
          ctx={ctx}
          testid={`nav-${s}`}
          does={{ type: 'nav', screen: s }}
          label={t(navKey[s])}
          pressed={state.screen === s || (s === 'sale' && inSale)}
          hint={`Alt+${i + 1}`}
        />
      ))}
    </nav>
  );
}

function MessageLine({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const m = state.message;
  if (!m) return null;
  const text = m.key ? t(m.key, m.params) : m.error ? errorText(t, m.error) : '';
  return (
    <div
      class={`message ${m.kind}`}
      role={m.kind === 'error' ? 'alert' : 'status'}
      data-testid="message"
      data-kind={m.kind}
    >
      <span data-testid="message-text">{text}</span>
      {m.error ? <code data-testid="message-code">{m.error.code}</code> : null}
      <Button
        ctx={ctx}
        testid="message-dismiss"
        does={{ type: 'dismiss' }}
        label={t('common.dismiss')}
        hint="Esc"
      />
    </div>
  );
}

function ProgressBar({ ctx }: { ctx: Ctx }) {
  const p = ctx.state.progress;
  if (!p) return null;
  const label = ctx.t(
    p.phase === 'snapshot' ? 'sync.snapshot' : p.phase === 'push' ? 'sync.pushing' : 'sync.pulling',
  );
  return (
    <div class="progress" data-testid="snapshot-progress">
      <label for="snapshot-progress-bar">
        {label}
        {p.total === null ? ` (${p.done})` : ` (${p.done}/${p.total})`}
      </label>
      {/* without a total the bar is indeterminate: no value, no max */}
      <progress
        id="snapshot-progress-bar"
        data-testid="snapshot-progress-bar"
        max={p.total ?? undefined}
        value={p.total === null ? undefined : p.done}
      />
    </div>
  );
}

function Screen({ ctx }: { ctx: Ctx }) {
  switch (ctx.state.screen) {
    case 'sign-in':
      return <SignInScreen ctx={ctx} />;
    case 'shift-open':
      return <ShiftOpenScreen ctx={ctx} />;
    case 'sale':
      return <SaleScreen ctx={ctx} />;
    case 'payment':
      return <PaymentScreen ctx={ctx} />;
    case 'receipt':
      return <ReceiptScreen ctx={ctx} />;
    case 'refund':
      return <RefundScreen ctx={ctx} />;
    case 'attention':
      return <AttentionScreen ctx={ctx} />;
    case 'report':
      return <ReportScreen ctx={ctx} />;
    case 'settings':
      return <SettingsScreen ctx={ctx} />;
    case 'recent':
      return <RecentScreen ctx={ctx} />;
    case 'cash':
      return <CashScreen ctx={ctx} />;
    case 'loyalty':
      return <LoyaltyScreen ctx={ctx} />;
    case 'forecourt':
      return <ForecourtScreen ctx={ctx} />;
    case 'tanks':
      return <TanksScreen ctx={ctx} />;
  }
}

function Shortcuts({ ctx }: { ctx: Ctx }) {
  if (ctx.state.screen !== 'sale') return null;
  return (
    <aside class="shortcuts" aria-label={ctx.t('keys.title')}>
      {SHORTCUTS.map(([k, key]) => (
        <span key={k}>
          <kbd>{k}</kbd> {ctx.t(key)}
        </span>
      ))}
    </aside>
  );
}
