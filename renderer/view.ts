// The whole page as one pure function of the view model: header and navigation, the message
// line, the snapshot progress bar, the current screen and the status bar.
import type { DateStyle, NumberStyle } from './format.js';
import { dateStyle, errorText, navKey, numberStyle, translator, type Translate } from './i18n.js';
import { SHORTCUTS } from './keys.js';
import { NAV_SCREENS, posTimeZone, type State } from './state.js';
import { h, type VElement } from './vnode.js';
import { attentionScreen } from './views/attention.js';
import { button, type Ctx } from './views/common.js';
import { paymentScreen } from './views/payment.js';
import { receiptScreen } from './views/receipt.js';
import { refundScreen } from './views/refund.js';
import { reportScreen } from './views/report.js';
import { saleScreen } from './views/sale.js';
import { settingsScreen } from './views/settings.js';
import { shiftOpenScreen, signInScreen } from './views/sign-in.js';
import { statusBar } from './views/status-bar.js';

function header(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const staff = state.status?.staff;
  const shift = state.status?.shift;
  return h(
    'header',
    { class: 'topbar' },
    h('h1', null, t('app.title')),
    staff
      ? h(
          'nav',
          { 'aria-label': t('nav.label') },
          NAV_SCREENS.map((s, i) =>
            button({
              testid: `nav-${s}`,
              action: 'nav',
              arg: s,
              label: t(navKey[s]),
              pressed:
                state.screen === s ||
                (s === 'sale' && (state.screen === 'payment' || state.screen === 'receipt')),
              hint: `Alt+${i + 1}`,
            }),
          ),
        )
      : null,
    h(
      'div',
      { class: 'who' },
      staff ? h('span', { 'data-testid': 'header-staff' }, staff.name ?? staff.id) : null,
      shift
        ? h('span', { 'data-testid': 'header-shift' }, t('header.shift', { n: shift.number }))
        : null,
      staff
        ? button({
            testid: 'nav-sync-now',
            action: 'sync-now',
            label: t('sync.now'),
            disabled: state.busy !== null,
            hint: 'F9',
          })
        : null,
      staff
        ? button({
            testid: 'nav-sign-out',
            action: 'sign-out',
            label: t('signin.sign-out'),
            disabled: state.busy !== null,
          })
        : null,
    ),
  );
}

function messageLine(ctx: Ctx): VElement | null {
  const { t, state } = ctx;
  const m = state.message;
  if (!m) return null;
  let text: string;
  if (m.key) text = t(m.key, m.params);
  else if (m.error) {
    text = errorText(t, m.error);
  } else text = '';
  return h(
    'div',
    {
      class: `message ${m.kind}`,
      role: m.kind === 'error' ? 'alert' : 'status',
      'data-testid': 'message',
      'data-kind': m.kind,
    },
    h('span', { 'data-testid': 'message-text' }, text),
    m.error ? h('code', { 'data-testid': 'message-code' }, m.error.code) : null,
    button({
      testid: 'message-dismiss',
      action: 'dismiss',
      label: t('common.dismiss'),
      hint: 'Esc',
    }),
  );
}

function progressBar(ctx: Ctx): VElement | null {
  const p = ctx.state.progress;
  if (!p) return null;
  const label = ctx.t(
    p.phase === 'snapshot' ? 'sync.snapshot' : p.phase === 'push' ? 'sync.pushing' : 'sync.pulling',
  );
  return h(
    'div',
    { class: 'progress', 'data-testid': 'snapshot-progress' },
    h(
      'label',
      { for: 'snapshot-progress-bar' },
      label,
      p.total === null ? ` (${p.done})` : ` (${p.done}/${p.total})`,
    ),
    h('progress', {
      id: 'snapshot-progress-bar',
      'data-testid': 'snapshot-progress-bar',
      max: p.total === null ? null : String(p.total),
      value: p.total === null ? null : String(p.done),
    }),
  );
}

function screen(ctx: Ctx): VElement {
  switch (ctx.state.screen) {
    case 'sign-in':
      return signInScreen(ctx);
    case 'shift-open':
      return shiftOpenScreen(ctx);
    case 'sale':
      return saleScreen(ctx);
    case 'payment':
      return paymentScreen(ctx);
    case 'receipt':
      return receiptScreen(ctx);
    case 'refund':
      return refundScreen(ctx);
    case 'attention':
      return attentionScreen(ctx);
    case 'report':
      return reportScreen(ctx);
    case 'settings':
      return settingsScreen(ctx);
  }
}

function shortcuts(ctx: Ctx): VElement | null {
  if (ctx.state.screen !== 'sale') return null;
  return h(
    'aside',
    { class: 'shortcuts', 'aria-label': ctx.t('keys.title') },
    SHORTCUTS.map(([k, key]) => h('span', null, h('kbd', null, k), ' ', ctx.t(key))),
  );
}

export function view(state: State, t: Translate, num: NumberStyle, dates: DateStyle): VElement {
  const ctx: Ctx = { state, t, num, dates };
  const main = state.sessionExpired
    ? h(
        'section',
        { class: 'panel', 'data-testid': 'session-expired', role: 'alert' },
        h('h2', null, t('session.title')),
        h('p', null, t('session.expired')),
      )
    : screen(ctx);
  return h(
    'div',
    { class: 'app', 'data-screen': state.screen },
    header(ctx),
    messageLine(ctx),
    progressBar(ctx),
    h(
      'main',
      {
        'data-testid': `screen-${state.sessionExpired ? 'session' : state.screen}`,
        'aria-busy': state.busy ? 'true' : 'false',
      },
      main,
    ),
    shortcuts(ctx),
    statusBar(ctx),
  );
}

/** The page in the state's language: its texts, its numbers, its dates in the POS's zone. */
export function page(state: State): VElement {
  const lang = state.language;
  return view(state, translator(lang), numberStyle(lang), dateStyle(lang, posTimeZone(state)));
}
