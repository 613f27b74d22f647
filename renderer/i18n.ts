// Every text on the screen, by key, and the door the rest of the renderer imports them from.
// The tables live one per language in i18n/ (English, en.ts, is the reference: its keys are
// the MessageKey type); test/renderer/i18n.test.ts checks that every key used exists and
// every key is used. `{name}` in a text is replaced by a parameter.
import { localeDateStyle, localeNumberStyle, type DateStyle, type NumberStyle } from './format.js';
import { de } from './i18n/de.js';
import { en, type MessageKey, type Table } from './i18n/en.js';
import type {
  AttentionItem,
  Connection,
  CustomerSummary,
  DeviceKind,
  DeviceState,
  RuleNotAppliedReason,
  SaleResult,
  TransactionPaymentType,
  PumpStateName,
} from './types.js';
import type { NavScreen } from './slices/frame/state.js';
import type { IdTypeChoice, ItemKind } from './slices/sale/state.js';

export type { MessageKey, Table };

/**
 * The UI languages, each named in itself (so a cashier finds theirs in any language) with
 * the locale Intl writes its numbers and dates in.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', locale: 'en-GB' },
  { code: 'de', name: 'Deutsch', locale: 'de-DE' },
] as const satisfies readonly { code: string; name: string; locale: string }[];

export type Lang = (typeof LANGUAGES)[number]['code'];

/** Every language's complete table (a language without one does not compile). */
export const TABLES: Readonly<Record<Lang, Table>> = { en, de };

/** Where the cashier's language choice is kept (the customer display follows it). */
export const LANGUAGE_KEY = 'loyalty-terminal.language';

export function isLang(value: string): value is Lang {
  return LANGUAGES.some((l) => l.code === value);
}

function localeOf(lang: Lang): string {
  return LANGUAGES.find((l) => l.code === lang)?.locale ?? 'en-GB';
}

/** Every key of the reference table (for tests and tools). */
export const MESSAGE_KEYS = Object.keys(en) as MessageKey[];

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const table = TABLES[lang];
  return (key, params) => {
    const text = table[key];
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
  };
}

// Asked of Intl once per language: the separators do not change while the page runs.
const numberStyles = Object.fromEntries(
  LANGUAGES.map((l) => [l.code, localeNumberStyle(l.locale)]),
) as Readonly<Record<Lang, NumberStyle>>;

/** How numbers are written in each language: its locale's separators (de: `1.234,50`). */
export function numberStyle(lang: Lang): NumberStyle {
  return numberStyles[lang];
}

/** How dates are written in each language, shown in `zone` (the POS's) or the browser's. */
export function dateStyle(lang: Lang, zone?: string | null): DateStyle {
  return localeDateStyle(localeOf(lang), zone);
}

// ---- enum values to keys (checked by the compiler: a new value needs a text) ----

export const navKey = {
  sale: 'nav.sale',
  refund: 'nav.refund',
  attention: 'nav.attention',
  report: 'nav.report',
  settings: 'nav.settings',
  recent: 'nav.recent',
  cash: 'nav.cash',
} as const satisfies Record<NavScreen, MessageKey>;

export const connectionKey = {
  online: 'status.online',
  offline: 'status.offline',
  unknown: 'status.unknown',
} as const satisfies Record<Connection, MessageKey>;

export const deviceKindKey = {
  card_reader: 'device.card_reader',
  scanner: 'device.scanner',
  payment: 'device.payment',
  printer: 'device.printer',
  tank_gauge: 'device.tank_gauge',
  pumps: 'device.pumps',
} as const satisfies Record<DeviceKind, MessageKey>;

export const pumpStateKey = {
  idle: 'pump.state.idle',
  calling: 'pump.state.calling',
  authorised: 'pump.state.authorised',
  fuelling: 'pump.state.fuelling',
  finished: 'pump.state.finished',
  stopped: 'pump.state.stopped',
  suspended: 'pump.state.suspended',
  'out-of-order': 'pump.state.out-of-order',
  offline: 'pump.state.offline',
} as const satisfies Record<PumpStateName, MessageKey>;

export const deviceStateKey = {
  connecting: 'device.connecting',
  connected: 'device.connected',
  disconnected: 'device.disconnected',
  failed: 'device.failed',
} as const satisfies Record<DeviceState['state'], MessageKey>;

export const paymentTypeKey = {
  cash: 'payment.cash',
  'bank-card': 'payment.bank-card',
  'special-account': 'payment.special-account',
  'corporate-special-account': 'payment.corporate-special-account',
} as const satisfies Record<TransactionPaymentType, MessageKey>;

export const idTypeKey = {
  auto: 'idtype.auto',
  card: 'idtype.card',
  phone: 'idtype.phone',
  qr: 'idtype.qr',
  email: 'idtype.email',
  'external-id': 'idtype.external-id',
  vehicle: 'idtype.vehicle',
  avi: 'idtype.avi',
} as const satisfies Record<IdTypeChoice, MessageKey>;

export const itemKindKey = {
  goods: 'item.kind-goods',
  'fuel-amount': 'item.kind-fuel-amount',
  'fuel-quantity': 'item.kind-fuel-quantity',
} as const satisfies Record<ItemKind, MessageKey>;

export const accessKey = {
  'full-bonuses-access': 'access.full-bonuses-access',
  'add-bonuses-only': 'access.add-bonuses-only',
  'waiting-for-confirmation': 'access.waiting-for-confirmation',
  'in-black-list': 'access.in-black-list',
} as const satisfies Record<CustomerSummary['access_type'], MessageKey>;

export const outboxStateKey = {
  queued: 'outbox.queued',
  sending: 'outbox.sending',
  done: 'outbox.done',
  rejected: 'outbox.rejected',
} as const satisfies Record<SaleResult['sync']['state'], MessageKey>;

export const attentionKindKey = {
  'outbox-rejected': 'attention.kind.outbox-rejected',
  'payment-unresolved': 'attention.kind.payment-unresolved',
  'bonuses-owed': 'attention.kind.bonuses-owed',
  'record-quarantined': 'attention.kind.record-quarantined',
  'clock-skew': 'attention.kind.clock-skew',
  'device-failed': 'attention.kind.device-failed',
  'sale-differs': 'attention.kind.sale-differs',
  'store-recovered': 'attention.kind.store-recovered',
  'wetstock-variance': 'attention.kind.wetstock-variance',
  'drive-off': 'attention.kind.drive-off',
  'prepay-unused': 'attention.kind.prepay-unused',
} as const satisfies Record<AttentionItem['kind'], MessageKey>;

export const reasonKey = {
  threshold: 'reason.threshold',
  'items-limit-min': 'reason.items-limit-min',
  'bonuses-redeemed': 'reason.bonuses-redeemed',
  'account-payment': 'reason.account-payment',
  display: 'reason.display',
  'no-line': 'reason.no-line',
  'lines-taken': 'reason.lines-taken',
} as const satisfies Record<RuleNotAppliedReason, MessageKey>;

/** The text of an error code, when there is one; else the server's message is shown. */
export function errorKey(code: string): MessageKey | undefined {
  const key = `error.${code}`;
  return Object.hasOwn(en, key) ? (key as MessageKey) : undefined;
}

/**
 * What the cashier reads for a refusal: its code's text, filled with the terminal's message
 * and the details' plain values; the terminal's own message when the code has no text.
 */
export function errorText(
  t: Translate,
  error: { code: string; message: string; details?: Record<string, unknown> },
): string {
  const key = errorKey(error.code);
  if (!key) return error.message;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(error.details ?? {}))
    if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  return t(key, { ...params, message: error.message });
}

/** The text of why a coupon is not valid (a CheckCoupon's `error`), when there is one. */
export function couponErrorKey(code: string): MessageKey | undefined {
  const key = `coupon-error.${code}`;
  return Object.hasOwn(en, key) ? (key as MessageKey) : undefined;
}
