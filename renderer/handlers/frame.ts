// Handlers of the frame around every screen: typing, focus, navigation, the message line,
// the language and the busy flag.
import { isLang } from '../i18n.js';
import { canPay, type Handlers, type State } from '../state.js';
import { fail, focusOn, go, home, withForm } from '../update.js';

/** Screens Esc leaves for the signed-in person's home. */
const BACK_HOME: readonly State['screen'][] = ['refund', 'attention', 'report', 'settings'];

export const frame = {
  field: (state, event) => {
    const { [event.name]: _cleared, ...rest } = state.fieldErrors;
    const next = { ...withForm(state, { [event.name]: event.value }), fieldErrors: rest };
    return event.name === 'language' && isLang(event.value)
      ? { ...next, language: event.value }
      : next;
  },
  invalid: (state, event) => fail(state, { ...event.errors }),
  focus: (state, event) => focusOn(state, event.testid),
  navigate: (state, event) => {
    if (!state.status?.staff && event.screen !== 'sign-in') return state;
    if ((event.screen === 'sale' || event.screen === 'payment') && !state.status?.shift) {
      return go(state, 'shift-open');
    }
    if (event.screen === 'payment' && (!canPay(state) || state.sale.calc.pending)) return state;
    return go(state, event.screen);
  },
  back: (state) => {
    if (state.message) return { ...state, message: null };
    if (state.screen === 'payment' && state.busy === null) return go(state, 'sale');
    if (BACK_HOME.includes(state.screen)) {
      return state.status?.staff ? go(state, home(state)) : state;
    }
    return state;
  },
  dismiss: (state) => ({ ...state, message: null }),
  language: (state, event) =>
    withForm({ ...state, language: event.language }, { language: event.language }),
  busy: (state, event) => ({ ...state, busy: event.command }),
  failed: (state, event) => ({ ...state, message: { kind: 'error', error: event.error } }),
  notice: (state, event) => ({
    ...state,
    message: { kind: 'notice', key: event.key, ...(event.params ? { params: event.params } : {}) },
  }),
  'session-expired': (state) => ({ ...state, sessionExpired: true }),
} satisfies Partial<Handlers>;
