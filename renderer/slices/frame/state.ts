// The frame around every screen: which screen is up, what the terminal reports (status,
// devices, sync progress), the blocking command, the message line, the text of every field
// and its error, and where the focus goes next. Its fields sit at the top of State (every
// view reads them); the small updates every slice's reducer is made of live here too.
import type { MessageKey } from '../../i18n.js';
import type { FieldName, Form, State, Target } from '../../state.js';
import type {
  CommandName,
  DeviceState,
  ErrorBody,
  StaffRole,
  Status,
  SyncProgress,
} from '../../types.js';

export type Screen =
  | 'sign-in'
  | 'shift-open'
  | 'sale'
  | 'payment'
  | 'receipt'
  | 'refund'
  | 'attention'
  | 'report'
  | 'settings'
  | 'recent'
  | 'cash'
  | 'loyalty'
  | 'forecourt'
  | 'tanks';

/** Screens a signed-in cashier reaches from the navigation bar. */
export const NAV_SCREENS = [
  'sale',
  'refund',
  'attention',
  'report',
  'settings',
  'recent',
  'cash',
] as const;
export type NavScreen = (typeof NAV_SCREENS)[number];

export type MessageKind = 'error' | 'warning' | 'notice';

export interface Message {
  kind: MessageKind;
  key?: MessageKey;
  params?: Record<string, string | number>;
  error?: ErrorBody;
}

export type Errors = Partial<Record<Target, MessageKey>>;

export interface FrameState {
  screen: Screen;
  status: Status | null;
  devices: DeviceState[];
  /** A snapshot or sync round in progress (the progress bar). */
  progress: SyncProgress | null;
  /** The blocking command in flight, if any. */
  busy: CommandName | null;
  /** The page's session is gone (browser kiosk): the agent must print a new URL. */
  sessionExpired: boolean;
  message: Message | null;
  /** Text of every input, by field name (the inputs show it). */
  form: Readonly<Form>;
  fieldErrors: Readonly<Errors>;
  /** Move the focus to this data-testid after the next render (seq makes a repeat count). */
  focus: { testid: string; seq: number } | null;
}

export function initialFrame(form: Form): FrameState {
  return {
    screen: 'sign-in',
    status: null,
    devices: [],
    progress: null,
    busy: null,
    sessionExpired: false,
    message: null,
    form,
    fieldErrors: {},
    focus: { testid: 'sign-in-code', seq: 1 },
  };
}

export type FrameEvent =
  | { type: 'field'; name: FieldName; value: string }
  | { type: 'invalid'; errors: Readonly<Errors> }
  | { type: 'focus'; testid: string }
  | { type: 'navigate'; screen: NavScreen | 'shift-open' | 'loyalty' }
  | { type: 'back' }
  | { type: 'dismiss' }
  | { type: 'busy'; command: CommandName | null }
  | { type: 'failed'; error: ErrorBody }
  | { type: 'notice'; key: MessageKey; params?: Record<string, string | number> }
  | { type: 'session-expired' }
  | { type: 'devices'; devices: DeviceState[] }
  | { type: 'device'; device: DeviceState }
  | { type: 'sync-progress'; progress: SyncProgress };

// ---- selectors ----

const ROLE_RANK: Record<StaffRole, number> = { cashier: 0, 'senior-cashier': 1, manager: 2 };

/** Whether the signed-in staff member holds `role` or a higher one (interfaces.md, Roles). */
export function hasRole(state: State, role: StaffRole): boolean {
  const roles = state.status?.staff?.roles ?? [];
  return roles.some((r) => ROLE_RANK[r] >= ROLE_RANK[role]);
}

export function field(state: State, name: FieldName): string {
  return state.form[name] ?? '';
}

/** Where a signed-in person lands: a sale when a shift is open, else the shift screen. */
export function home(state: State): Screen {
  return state.status?.shift ? 'sale' : 'shift-open';
}

// ---- updates ----

export function withForm(state: State, patch: Form): State {
  return { ...state, form: { ...state.form, ...patch } };
}

export function focusOn(state: State, testid: string): State {
  return { ...state, focus: { testid, seq: (state.focus?.seq ?? 0) + 1 } };
}

/** Inputs whose test id is not their field's name (the rest are named alike). */
const FIELD_TESTID: Partial<Record<Target, string>> = {
  'auth-code': 'sign-in-code',
  'opening-cash': 'shift-opening-cash',
  'counted-cash': 'report-counted-cash',
  // the payment's fields: a refusal of one puts the focus back in it (issue 15, point 7)
  'tender-type': 'payment-tender-type',
  'tender-amount': 'payment-tender-amount',
  'cash-given': 'payment-cash-given',
  pin: 'payment-pin',
  odometer: 'payment-odometer',
  'odometer-unit': 'payment-odometer-unit',
  'vehicle-id': 'payment-vehicle-id',
};

/** The test id of the input where a field is fixed. */
export function fieldTestid(target: Target): string {
  return FIELD_TESTID[target] ?? target;
}

/** Refuses with field errors, the focus on the first. */
export function fail(state: State, errors: Errors): State {
  const first = Object.keys(errors)[0] as Target | undefined;
  const next = { ...state, fieldErrors: errors };
  return first ? focusOn(next, fieldTestid(first)) : next;
}

export function withMessage(state: State, message: Message | null): State {
  return { ...state, message };
}

/** The field each screen puts the focus in when it opens. */
const screenFocus: Partial<Record<Screen, string>> = {
  'sign-in': 'sign-in-code',
  'shift-open': 'shift-opening-cash',
  sale: 'item-code',
  payment: 'payment-confirm',
  receipt: 'receipt-new-sale',
  refund: 'refund-transaction-id',
  report: 'report-refresh',
  attention: 'attention-refresh',
  settings: 'settings-language',
  recent: 'recent-search',
  cash: 'cash-amount',
  loyalty: 'loyalty-back',
  tanks: 'tanks-gauge',
};

export function go(state: State, screen: Screen): State {
  const next = { ...state, screen, fieldErrors: {} };
  const target = screenFocus[screen];
  return target ? focusOn(next, target) : next;
}
