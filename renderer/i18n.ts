// Every text on the screen, by key. English is the reference table: its keys are the
// MessageKey type, so a missing key is a compile error, and test/renderer/i18n.test.ts checks
// that every key used exists and every key is used. Another language is a Partial table;
// what it lacks falls back to English. `{name}` in a text is replaced by a parameter.
import type { NumberStyle } from './format.js';
import type {
  AttentionItem,
  Connection,
  CustomerSummary,
  DeviceKind,
  DeviceState,
  RuleNotAppliedReason,
  SaleResult,
  TransactionPaymentType,
} from './types.js';
import type { NavScreen } from './slices/frame/state.js';
import type { IdTypeChoice, ItemKind } from './slices/sale/state.js';

const en = {
  'app.title': 'Loyalty terminal',
  'nav.label': 'Screens',
  'nav.sale': 'Sale',
  'nav.refund': 'Refund',
  'nav.attention': 'Attention',
  'nav.report': 'Shift report',
  'nav.settings': 'Settings',
  'header.shift': 'Shift {n}',

  'common.dismiss': 'Dismiss',
  'common.loading': 'Loading…',
  'common.refresh': 'Refresh',
  'common.yes': 'Yes',
  'common.no': 'No',

  'session.title': 'Session ended',
  'session.expired':
    'This page is no longer signed in to the terminal. Open the address the terminal agent printed (it carries a new one-time code).',

  'signin.title': 'Sign in',
  'signin.code': 'Staff auth code',
  'signin.submit': 'Sign in',
  'signin.sign-out': 'Sign out',
  'signin.locked': 'Too many wrong codes: sign-in is locked for a while.',
  'signin.locked-for': 'Too many wrong codes: try again in {seconds} s.',

  'shift.title': 'Shift',
  'shift.none': 'No shift is open on this terminal.',
  'shift.opening-cash': 'Cash in the drawer',
  'shift.open': 'Open shift',

  'customer.title': 'Customer',
  'customer.id': 'Card, phone or QR',
  'customer.id-hint': 'type or scan',
  'customer.id-type': 'Identifier type',
  'customer.otp': 'One-time password (if asked)',
  'read.bank-card':
    'A bank card ({masked}) was swiped on the loyalty reader. Take card payments on the payment terminal.',
  'read.unrecognised': 'The card or code that was read is not one this terminal knows.',
  'read.not-now': 'A card was read. Open a sale to identify the customer with it.',
  'customer.identify': 'Identify',
  'customer.clear': 'Remove customer',
  'customer.anonymous': 'Anonymous sale: no customer identified.',
  'customer.name': 'Name',
  'customer.type': 'Type',
  'customer.retail': 'Customer',
  'customer.corporate': 'Corporate customer',
  'customer.access': 'Access',
  'customer.category': 'Card category',
  'customer.bonuses-available': 'Bonuses available',
  'customer.bonuses-regular': 'Regular bonuses',
  'customer.bonuses-promotional': 'Promotional bonuses',
  'customer.source': 'Data',
  'customer.from-cache': 'from the local copy (offline)',
  'customer.unlimited': 'unlimited',
  'customer.account-quantity': 'quantity',
  'customer.pin': 'PIN',

  'idtype.auto': 'Automatic',
  'idtype.card': 'Card',
  'idtype.phone': 'Phone',
  'idtype.qr': 'QR code',
  'idtype.email': 'E-mail',
  'idtype.external-id': 'External id',
  'idtype.vehicle': 'Vehicle tag',
  'idtype.avi': 'AVI tag',

  'access.full-bonuses-access': 'Full',
  'access.add-bonuses-only': 'Earns bonuses only',
  'access.waiting-for-confirmation': 'Waiting for confirmation',
  'access.in-black-list': 'Blocked',

  'item.title': 'Add item',
  'item.kind': 'Kind',
  'item.kind-goods': 'Goods',
  'item.kind-fuel-amount': 'Fuel: prepay an amount',
  'item.kind-fuel-quantity': 'Fuel: prepay litres',
  'item.code': 'Code or barcode',
  'item.title-field': 'Title',
  'item.price': 'Price',
  'item.price-per-unit': 'Price per litre',
  'item.quantity': 'Quantity',
  'item.litres': 'Litres',
  'item.prepay-amount': 'Prepaid amount',
  'item.add': 'Add',
  'item.presets': 'Presets',
  'item.no-presets': 'This POS sells from presets only, and none are loaded.',

  'lines.title': 'Check',
  'lines.empty': 'No items yet: type or scan a code.',
  'lines.item': 'Item',
  'lines.quantity': 'Qty',
  'lines.price': 'Price',
  'lines.discount': 'Discount',
  'lines.amount': 'Amount',
  'lines.actions': 'Actions',
  'lines.less': 'One less',
  'lines.more': 'One more',
  'lines.remove': 'Remove line',
  'lines.prepaid': 'prepaid',

  'totals.amount': 'Subtotal',
  'totals.discount': 'Discount',
  'totals.services': 'Services',
  'totals.bonuses-redeemed': 'Bonuses spent',
  'totals.bonuses-added': 'Bonuses earned',
  'totals.to-pay': 'To pay',

  'rules.title': 'Discounts and bonuses',
  'rules.applied': 'applied',
  'rules.not-applied': 'not applied',
  'rules.hint': 'offer',
  'rules.missing': '{missing} more to qualify',
  'reason.threshold': 'threshold not reached',
  'reason.items-limit-min': 'too few items',
  'reason.bonuses-redeemed': 'not with bonuses spent',
  'reason.account-payment': 'not with account payment',
  'reason.display': 'offer',
  'reason.no-line': 'no item on the check for this offer',
  'reason.lines-taken': 'other offers already took these items',

  'bonuses.title': 'Spend bonuses',
  'bonuses.spend': 'Bonuses to spend',
  'bonuses.apply': 'Apply',
  'bonuses.max': 'All available',
  'bonuses.clear': 'Do not spend',
  'bonuses.identify-first': 'Identify the customer to spend bonuses.',
  'bonuses.not-allowed': 'This customer may not pay with bonuses.',
  'bonuses.granted': 'Granted: {amount}',

  'coupons.title': 'Coupons',
  'coupons.code': 'Coupon code',
  'coupons.redeem': 'Redeem',
  'coupons.remove': 'Remove coupon',
  'coupons.valid': 'valid',
  'coupons.invalid': 'not valid',

  'sale.pay': 'Pay',
  'sale.void': 'Clear sale',

  'payment.title': 'Payment',
  'payment.due': 'To pay',
  'payment.method': 'Payment method',
  'payment.cash': 'Cash',
  'payment.bank-card': 'Bank card',
  'payment.special-account': 'Customer account',
  'payment.corporate-special-account': 'Corporate account',
  'payment.account': 'Account',
  'payment.no-accounts': 'The customer has no account to pay from.',
  'payment.pin': 'Account PIN',
  'payment.odometer': 'Odometer',
  'payment.odometer-unit': 'Unit',
  'payment.vehicle': 'Vehicle id',
  'payment.required': 'required',
  'payment.part-type': 'Part paid by',
  'payment.part-amount': 'Part amount',
  'payment.add-part': 'Add part',
  'payment.remove-part': 'Remove part',
  'payment.remaining': 'Left to pay',
  'payment.cash-given': 'Cash given',
  'payment.change': 'Change',
  'payment.confirm': 'Confirm payment',
  'payment.back': 'Back to sale',
  'payment.processing': 'Processing the sale…',
  'payment.follow-terminal': 'Follow the card terminal…',
  'payment.check-status': 'Check whether the sale went through',
  'payment.outcome-unknown':
    'No answer from the terminal: the sale may have gone through. Check its status before anything else.',
  'payment.not-committed': 'The sale was not recorded: it is safe to confirm it again.',
  'payment.voided': 'The sale did not go through and was voided. Confirm it again to sell it anew.',

  'unit.km': 'km',
  'unit.mi': 'miles',
  'unit.h': 'engine hours',

  'receipt.title': 'Receipt',
  'receipt.none': 'No receipt.',
  'receipt.online': 'Processed online.',
  'receipt.offline': 'Stored offline: it will be sent when the connection is back.',
  'receipt.coupon': 'Coupon',
  'receipt.coupon-pending': '(code to follow)',
  'receipt.sync': 'Sent',
  'receipt.printed': 'Printed',
  'receipt.new-sale': 'New sale',
  'receipt.refund': 'Refund or cancel',

  'outbox.queued': 'waiting to be sent',
  'outbox.sending': 'sending',
  'outbox.done': 'sent',
  'outbox.rejected': 'rejected: see Attention',

  'refund.title': 'Refund or cancel a check',
  'refund.transaction-id': 'Transaction id',
  'refund.load': 'Find',
  'refund.sale': 'The check',
  'refund.state': 'State',
  'refund.already-cancelled': 'already cancelled',
  'refund.quantity': 'Refund',
  'refund.quantity-of': 'Quantity of {item} to refund',
  'refund.comment': 'Reason',
  'refund.all': 'Everything',
  'refund.submit': 'Refund selected',
  'refund.cancel-check': 'Cancel whole check',
  'refund.result': 'Refund recorded',
  'refund.cancel-result': 'Check cancelled',
  'refund.owed': 'Bonuses owed by the customer',
  'refund.done': 'Refund recorded.',
  'refund.cancelled': 'Check cancelled.',
  'refund.confirm-cancel': 'Press "Cancel whole check" again to cancel every line of this check.',
  'refund.not-found': 'No sale with this id was recorded on this terminal.',

  'attention.title': 'Needs attention',
  'attention.include-resolved': 'Show resolved',
  'attention.recover': 'Recover card payments',
  'attention.recovered': 'Card payments checked: {count} recovered, {pending} still open.',
  'attention.empty': 'Nothing needs attention.',
  'attention.transaction': 'Transaction',
  'attention.comment': 'Comment',
  'attention.resolve': 'Resolve',
  'attention.resolved-at': 'Resolved {at} by {by}',
  'attention.kind.outbox-rejected': 'Refused by the central service',
  'attention.kind.payment-unresolved': 'Card payment unresolved',
  'attention.kind.bonuses-owed': 'Bonuses owed',
  'attention.kind.record-quarantined': 'Record quarantined',
  'attention.kind.clock-skew': 'Clock differs from the server',
  'attention.kind.device-failed': 'Device failed',
  'attention.kind.sale-differs': 'The central service answered a sale otherwise',
  'attention.kind.store-recovered': 'Damaged database recovered from a backup',

  'report.title': 'Shift report',
  'report.shift': 'Shift',
  'report.opened': 'Opened',
  'report.closed-at': 'Closed',
  'report.sales': 'Sales',
  'report.refunds': 'Refunds',
  'report.cancellations': 'Cancellations',
  'report.offline': 'Sold offline',
  'report.bonuses-added': 'Bonuses earned',
  'report.bonuses-redeemed': 'Bonuses spent',
  'report.expected-cash': 'Cash expected',
  'report.unsynced': 'Not yet sent',
  'report.counted-cash': 'Cash counted',
  'report.close': 'Close shift',
  'report.closed': 'Shift closed.',
  'report.no-shift': 'No shift is open.',

  'settings.title': 'Terminal',
  'settings.language': 'Language',
  'settings.app': 'Application',
  'settings.terminal': 'Terminal',
  'settings.staff': 'Signed in',
  'settings.ready': 'Sales ready',
  'settings.sync': 'Central service',
  'settings.last-pull': 'Last update of rules',
  'settings.clock-skew': 'Clock difference',
  'settings.devices': 'Devices',
  'settings.no-devices': 'No devices reported.',
  'settings.simulated': 'simulated',

  'status.connection': 'Connection',
  'status.online': 'Online',
  'status.offline': 'Offline',
  'status.unknown': 'Connecting…',
  'status.outbox': 'Waiting to be sent',
  'status.outbox-n': 'To send: {n}',
  'status.rejected': 'Refused',
  'status.rejected-n': 'Refused: {n}',
  'status.last-contact': 'Last contact',
  'status.last-contact-at': 'Last contact: {at}',
  'status.cache-age': 'Age of local data',
  'status.cache-age-n': 'Data age: {age}',
  'status.clock-skew': 'Clock off by {s} s',
  'status.attention-n': 'Attention: {n}',
  'status.busy': 'Working…',

  'device.card_reader': 'Card reader',
  'device.scanner': 'Scanner',
  'device.payment': 'Card terminal',
  'device.printer': 'Printer',
  'device.tank_gauge': 'Tank gauge',
  'device.connecting': 'connecting',
  'device.connected': 'ready',
  'device.disconnected': 'disconnected',
  'device.failed': 'failed',

  'sync.now': 'Sync now',
  'sync.done': 'Sync done: {pushed} sent, {pulled} received.',
  'sync.snapshot': 'Loading rules and customers',
  'sync.pushing': 'Sending sales',
  'sync.pulling': 'Receiving updates',

  'keys.title': 'Keys',
  'keys.customer': 'customer',
  'keys.item': 'item',
  'keys.bonuses': 'bonuses',
  'keys.coupon': 'coupon',
  'keys.pay': 'pay',
  'keys.sync': 'sync',
  'keys.back': 'back',
  'keys.screens': 'screens',
  'keys.lines': 'lines',

  'validation.required': 'Required.',
  'validation.number': 'Type a number, like 12.50.',
  'validation.positive': 'Must be more than zero.',
  'validation.min3': 'At least 3 characters.',
  'validation.two-decimals': 'At most two decimals.',
  'validation.uuid': 'A transaction id looks like 0190c2a4-….',
  'validation.customer-first': 'Identify the customer first.',
  'validation.presets-only': 'This POS sells from presets only.',
  'validation.over-remaining': 'More than is left to pay.',
  'validation.remaining': 'The parts do not add up to the amount to pay.',
  'validation.recalculate': 'Wait for the totals to update.',
  'validation.over-sold': 'More than was sold.',
  'validation.refund-none': 'Type a quantity for at least one line.',

  'error.unreachable': 'The terminal does not answer ({message}).',
  'error.unauthorized': 'Not signed in to the terminal.',
  'error.role-required': 'Your role does not allow this; ask a senior cashier or manager.',
  'error.not-implemented': 'The terminal cannot do this yet.',
  'error.idempotency-conflict': 'This transaction was already sent with other contents.',
  'error.transaction-voided':
    'This sale was voided because its outcome was unknown. Confirm it again to sell it anew.',
  'error.invalid-input': 'Refused: {message}',
  'error.internal': 'The terminal failed; its log has the details.',
  'error.customer-required': 'Identify the customer first.',
  'error.customer-blocked': 'This customer is blocked.',
  'error.bonus-redeem-not-allowed': 'This customer may not pay with bonuses.',
  'error.insufficient-bonuses': 'Not enough bonuses.',
  'error.account-not-found': 'Account not found.',
  'error.account-inactive': 'The account is not active.',
  'error.account-outside-window': 'The account cannot be used at this time.',
  'error.currency-mismatch': 'The account is in another currency.',
  'error.goods-not-payable': 'Some items cannot be paid from this account.',
  'error.pin-required': 'The account PIN is required.',
  'error.pin-invalid': 'Wrong PIN.',
  'error.odometer-required': 'The odometer reading is required.',
  'error.odometer-invalid': 'The odometer reading is not valid.',
  'error.odometer-decreased': 'The odometer reading is lower than the last one.',
  'error.vehicle-id-required': 'The vehicle id is required.',
  'error.limit-exceeded': 'An account limit is exceeded: {message}',
  'error.insufficient-funds': 'Not enough funds on the account.',
  // The terminal's own refusals (src/terminal): test/renderer/error-texts.test.ts lists them.
  'error.unsupported-media-type': 'The terminal refused the request (not sent as JSON).',
  'error.payload-too-large': 'Too much at once for the terminal: split the sale or remove lines.',
  'error.forbidden-origin': 'This screen may not talk to the terminal.',
  'error.unknown-command': 'The terminal does not know this action; it may need an update.',
  'error.not-found': 'Not found on this terminal.',
  'error.method-not-allowed': 'The terminal refused the request; it may need an update.',
  'error.instance-locked': 'Another copy of the terminal is already running on this till.',
  'error.device-unavailable': 'A device is not available.',
  'error.staff-required': 'Sign in with your auth code first.',
  'error.auth-code-invalid': 'Wrong auth code.',
  'error.sign-in-locked': 'Too many wrong codes: sign-in is locked for a while.',
  'error.staff-suspended': 'This staff member is suspended.',
  'error.staff-not-at-terminal': 'This staff member may not work at this till.',
  'error.shift-required': 'Open a shift first.',
  'error.shift-already-open': 'A shift is already open.',
  'error.customer-not-found': 'No customer found with this identifier.',
  'error.customer-not-presented':
    'Scan the customer’s card (or enter their phone or QR code) to pay with their bonuses or account.',
  'error.customer-mismatch':
    'The card presented is another customer’s: identify the customer again.',
  'error.unknown-pos': 'This till does not sell at that point of sale.',
  'error.item-not-preset': 'This till sells preset items only; this item is not one of them.',
  'error.tank-dip-required': 'Enter the measured dip of the tank.',
  'error.vehicle-not-found':
    'The customer’s fleet has no vehicle with this id: check the vehicle id.',
  'error.pin-locked':
    'Too many wrong PINs: this account’s PIN is locked for a while. The customer can pay another way.',
  'error.cash-short': 'Not enough cash: {cash_due} is to be paid in cash, {cash_given} was given.',
  'error.cash-not-due': 'Nothing of this sale is paid in cash: leave the cash given empty.',
  'error.split-not-allowed': 'An account pays the whole sale; only cash and card can be split.',
  'error.payments-mismatch': 'The payments do not add up to the amount to pay.',
  'error.payment-unit-missing': 'No card payment terminal is set up at this till.',
  'error.payment-declined': 'The card payment was declined or cancelled.',
  'error.payment-failed': 'The card payment terminal failed; try again or take another payment.',
  'error.payment-unresolved':
    'A card payment on this pump is not settled: check the card terminal, then call support.',
  'error.authorisation-not-found': 'This pump authorisation was not found.',
  'error.authorisation-released':
    'This pump authorisation has expired and was released: start the fuelling again.',
  'error.already-completed': 'This pump authorisation is already completed.',
  'error.completion-differs':
    'The completion must keep what the pump authorisation had (customer, payment, account).',
  'error.sale-not-found': 'No sale with this number on this till.',
  'error.sale-unreadable':
    'This sale is recorded; do not sell it again. Its figures cannot be shown here: call support for its receipt.',
  'error.not-a-sale': 'A refund cannot be cancelled; sell again instead.',
  'error.already-cancelled': 'This sale is already cancelled.',
  'error.sale-refunded': 'Part of this sale was refunded already: refund the rest instead.',
  'error.refund-exceeds-sale': 'More than is left to refund on this line.',

  // Why a coupon is not valid (a coupon's `error` on the check).
  'coupon-error.not-found': 'unknown coupon',
  'coupon-error.not-open': 'not active',
  'coupon-error.expired': 'expired',
  'coupon-error.other-business': 'from another business',
  'coupon-error.not-at-terminal': 'not valid at this till',
  'coupon-error.not-applicable': 'does not apply to this sale',
  'coupon-error.customer-blocked': 'the customer is blocked',
  'coupon-error.other-customer': 'belongs to another customer',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
export type Table = Readonly<Record<MessageKey, string>>;

/** The UI languages; add a table here (a Partial, English fills the gaps). */
const tables: { readonly en: Table } & Readonly<Record<string, Partial<Table>>> = { en };

export type Lang = 'en';
export const LANGUAGES: readonly { code: Lang; name: string }[] = [{ code: 'en', name: 'English' }];

export function isLang(value: string): value is Lang {
  return LANGUAGES.some((l) => l.code === value);
}

/** Every key of the reference table (for tests and tools). */
export const MESSAGE_KEYS = Object.keys(en) as MessageKey[];

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const table = tables[lang] as Partial<Table>;
  return (key, params) => {
    const text = table[key] ?? en[key];
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
  };
}

/** How numbers are written in each language. */
export function numberStyle(_lang: Lang): NumberStyle {
  return { decimal: '.', group: ' ' };
}

// ---- enum values to keys (checked by the compiler: a new value needs a text) ----

export const navKey = {
  sale: 'nav.sale',
  refund: 'nav.refund',
  attention: 'nav.attention',
  report: 'nav.report',
  settings: 'nav.settings',
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
} as const satisfies Record<DeviceKind, MessageKey>;

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
