// The command map (interfaces.md): the one contract between a UI and the terminal's core,
// spoken over Electron IPC and over the agent's `POST /api/commands/NAME` alike. Each command
// has a strict input schema (unknown fields refused, naming them) and an output schema; a
// refusal is the error shape below, never an exception. Events are what `on()` delivers.
//
// Inputs are strict: they come from our own UI or an integrator. Outputs are strict objects
// of our own, except the checks inside them: a check may carry fields the central service
// added (docs/contract.md), and a committed sale must never fail on its way to the screen
// because of one, so checks in outputs use the inbound (loose) variant.
import { z } from 'zod';
import {
  AllTypeCustomerType,
  BankCardExternalPaymentOperationType,
  BankCardExternalPaymentStatus,
  CustomerAccessType,
  IdType,
  SpecialAccountType,
  TransactionPaymentType,
  TransactionSubType,
} from './enums.js';
import { CatalogSearchOutput } from './catalog.js';
import { CustomerDisplay } from './customer-display.js';
import {
  DecimalText,
  FillView,
  ForecourtState,
  PumpStateEvent,
  PumpView,
  SimulatedPump,
  SimulatorPumpAction,
} from './forecourt.js';
import { CheckRequest, refusedField, SET_BY_TERMINAL, scannedCode } from './check-request.js';
import { ReceiptPreview } from './receipt.js';
import { Litres, TankDeliveryOut, TankNumber, TankReadingOut, WetStockReport } from './tanks.js';
import { looseShared } from './shared.js';
import {
  comment as commentText,
  currency,
  dateTime,
  money,
  num,
  quantity,
  shortText,
  title as longId,
} from './wire.js';

// ---- errors ----

/** `{ code, message, path, details? }`: `path` names the field (`check.check_items[0].quantity`). */
export const ErrorBody = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
  path: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Every refusal, from the engine, the agent API, IPC or the sandbox (interfaces.md). */
export const ErrorResponse = z.strictObject({ error: ErrorBody });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/**
 * The codes with a status of their own: those the shell itself gives, and `sale-unreadable`
 * (a recorded sale whose stored record no longer reads, docs/terminal.md: a refusal, never
 * 500). Any other code a handler returns is a business refusal (422): the engine's codes,
 * `role-required`, ...
 */
export const shellErrorStatus = {
  'invalid-input': 400,
  'unsupported-media-type': 415,
  'payload-too-large': 413,
  unauthorized: 401,
  'forbidden-origin': 403,
  'unknown-command': 404,
  'not-found': 404,
  'method-not-allowed': 405,
  'idempotency-conflict': 409,
  'not-implemented': 501,
  'instance-locked': 503,
  internal: 500,
  'sale-unreadable': 422,
} as const satisfies Record<string, number>;
export type ShellErrorCode = keyof typeof shellErrorStatus;

/** A business refusal: the request was well formed, the terminal says no. */
const BUSINESS_REFUSAL_STATUS = 422;

/** The HTTP status of an error code (the same mapping serves IPC callers as documentation). */
export function httpStatusOf(code: string): number {
  return Object.hasOwn(shellErrorStatus, code)
    ? shellErrorStatus[code as ShellErrorCode]
    : BUSINESS_REFUSAL_STATUS;
}

// ---- shared parts ----

/**
 * Who acts, and where: the signed-in staff member on this terminal. No command takes them
 * from the caller; each refuses them by name (with its own system-owned fields).
 */
const ACTOR = {
  staff: 'the signed-in staff member',
  staff_id: 'the signed-in staff member',
  business_staff: 'the signed-in staff member',
  roles: 'the signed-in staff member\u2019s roles',
  terminal_id: 'this terminal',
} as const;

/**
 * A command's input: `shape` holds what the caller decides; the actor fields and `owned` (the
 * command's system-owned fields, each with where its value comes from) are refused by name;
 * anything else is refused as unknown (strict).
 */
function callerInput<S extends z.ZodRawShape>(shape: S, owned: Record<string, string> = {}) {
  const refused: Record<string, z.ZodType> = {};
  for (const [key, from] of Object.entries({ ...ACTOR, ...owned }))
    refused[key] = refusedField(`${from}; ${SET_BY_TERMINAL}`);
  return z.strictObject({ ...refused, ...shape }) as unknown as z.ZodObject<S, z.core.$strict>;
}

const Empty = callerInput({});
/** A pump by its number on the forecourt (1 for the first). */
const pumpNumber = z.int().min(1, { error: 'pumps are numbered from 1' }).max(32);

/** Litres as a person reads them off a pump: at most two decimals (0.01 l). */
const fewLitreDigits = (v: number): boolean => /^\d+(\.\d{1,2})?$/.test(String(v));

/** Roles (interfaces.md, `role_based_model_roles`, ours); each includes the one before. */
export const StaffRole = z.enum(['cashier', 'senior-cashier', 'manager']);
export type StaffRole = z.infer<typeof StaffRole>;

const comment = commentText;
/** Cash a person counts: >= 0 and within what a till takes (wire.ts bounds). */
const cash = money.min(0, { error: 'must be >= 0' });

const StaffRef = z.strictObject({ id: z.uuid(), name: z.string().optional() });

export const SignedInStaff = z.strictObject({
  id: z.uuid(),
  name: z.string().optional(),
  roles: z.array(StaffRole),
  signed_in_at: dateTime,
});
export type SignedInStaff = z.infer<typeof SignedInStaff>;

export const Shift = z.strictObject({
  id: z.uuid(),
  /** Per-terminal sequence, 1 for the first shift. */
  number: z.int().min(1),
  opened_at: dateTime,
  opened_by: StaffRef,
  closed_at: dateTime.nullable(),
  closed_by: StaffRef.nullable(),
  opening_cash: num.min(0).optional(),
  counted_cash: num.min(0).optional(),
});
export type Shift = z.infer<typeof Shift>;

const Tally = z.strictObject({ count: z.int().min(0), amount: num });

/** Cash paid into or out of the drawer outside a sale, with why (`cash-movement`). */
export const CashMovement = z.strictObject({
  id: z.uuid(),
  shift_id: z.uuid(),
  kind: z.enum(['paid-in', 'paid-out']),
  amount: num,
  reason: z.string(),
  staff: StaffRef,
  recorded_at: dateTime,
});
export type CashMovement = z.infer<typeof CashMovement>;

/** The cash drawer opened on request (`drawer-open`), with who asked and why. */
export const DrawerOpening = z.strictObject({
  id: z.uuid(),
  shift_id: z.uuid(),
  staff: StaffRef,
  reason: z.string().optional(),
  /** Whether the printer took the drawer's pulse (false: no printer, or it failed). */
  pulse_sent: z.boolean(),
  opened_at: dateTime,
});
export type DrawerOpening = z.infer<typeof DrawerOpening>;
/** What `bonus-operation` takes from the terminal or the central service, never the caller. */
const BONUS_OPERATION_OWNED = {
  users: 'the customer_id given',
  message: 'the central service\u2019s notification template',
  skip_message: 'the central service\u2019s notification settings',
  loyalty_id: 'the terminal\u2019s business',
  expire: 'the central service\u2019s bonus rules',
  starting: 'the central service\u2019s bonus rules',
  amount_decimal_digits: 'the business\u2019s digits',
  bonuses_decimal_digits: 'the business\u2019s digits',
  special_accounts_decimal_digits: 'the business\u2019s digits',
  balance: 'the customer\u2019s balance after the operation',
  owed: 'what the balance could not cover',
  recorded_at: 'the time it is recorded',
} as const;

/** What `coupon-sell` takes from the batch, the terminal or the central service. */
const COUPON_SELL_OWNED = {
  amount: 'the batch\u2019s price',
  price: 'the batch\u2019s price',
  price_type: 'the batch\u2019s price',
  currency: 'the batch\u2019s price',
  customers_price_type: 'the batch\u2019s price',
  customers_price_amount: 'the batch\u2019s price',
  customers_price_currency: 'the batch\u2019s price',
  customers_price_special_account_id: 'the batch\u2019s price',
  coupon: 'the central service emits it',
  code: 'the central service emits it',
  expire_date: 'the central service emits it',
  balance: 'what the payment leaves',
  recorded_at: 'the time it is recorded',
} as const;

/** The answer of `coupon-sell`: the coupon to print and what paying for it left. */
export const CouponSaleResult = z.strictObject({
  transaction_id: z.uuid(),
  customer_id: z.uuid(),
  batch_id: z.uuid(),
  price: z.strictObject({
    type: z.enum(['bonuses', 'special-account']),
    amount: num,
    currency: currency.optional(),
  }),
  /** The account paid from (price type special-account), else null. */
  special_account_id: z.string().nullable(),
  /**
   * The emitted coupon, for the receipt; null when the central service did not answer and
   * the sale is queued (it reaches the customer's wallet when the outbox delivers it).
   */
  coupon: z
    .strictObject({
      id: z.uuid(),
      code: z.string(),
      title: z.string().optional(),
      expire_date: z.string().optional(),
    })
    .nullable(),
  /** The bonuses or account balance left: the central service's when it answered, else the till's. */
  balance: num,
  subtype: TransactionSubType,
  sync: z.enum(['done', 'queued']),
  staff: StaffRef,
  recorded_at: dateTime,
  /** The slip as printed (decoded from the bytes sent): the coupon, its code, the balance left. */
  receipt: ReceiptPreview.optional(),
});
export type CouponSaleResult = z.infer<typeof CouponSaleResult>;

/**
 * A coupon batch as the till reads its sale price from the cache (the contract's
 * CheckCouponBatch `customers_price_*` group); other fields stay as the feed sent them.
 */
export const CouponBatchPrice = z.looseObject({
  id: z.string(),
  public_title: z.string().optional(),
  public_description: z.string().optional(),
  customers_price_type: z.string().nullish(),
  customers_price_amount: z.number().nullish(),
  customers_price_currency: z.string().nullish(),
  customers_price_special_account_id: z.string().nullish(),
  customers_price_special_account_title: z.string().nullish(),
});
export type CouponBatchPrice = z.infer<typeof CouponBatchPrice>;

/** A batch the till sells (`coupon-batches`): its title and price as `coupon-sell` charges it. */
export const CouponBatchOnSale = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  description: z.string().optional(),
  price: z.strictObject({
    type: z.enum(['bonuses', 'special-account']),
    amount: num,
    currency: currency.optional(),
  }),
  /** The account the batch is paid from by default (price type special-account), else null. */
  special_account_id: z.string().nullable(),
  special_account_title: z.string().optional(),
});
export type CouponBatchOnSale = z.infer<typeof CouponBatchOnSale>;

/** The answer of `bonus-operation`: what moved, and the balance the till now shows. */
export const BonusOperationResult = z.strictObject({
  transaction_id: z.uuid(),
  customer_id: z.uuid(),
  kind: z.enum(['add', 'write-off']),
  amount: num,
  comment: z.string(),
  /**
   * The customer's regular bonuses after it: the central service's figure when it answered,
   * else the till's (cached balance less this terminal's unconfirmed spending; an add sent
   * offline counts once the central service confirmed it).
   */
  balance: num,
  /** `online`: the central service answered; `offline`: queued, the outbox delivers it. */
  subtype: TransactionSubType,
  sync: z.enum(['done', 'queued']),
  staff: StaffRef,
  recorded_at: dateTime,
});
export type BonusOperationResult = z.infer<typeof BonusOperationResult>;

export const ShiftReport = z.strictObject({
  shift: Shift,
  currency: currency.optional(),
  sales: Tally,
  refunds: Tally,
  cancellations: Tally,
  /** Sales stood in offline (sync.md), a subset of `sales`. */
  offline_sales: Tally,
  payments: z.array(
    z.strictObject({ type: TransactionPaymentType, count: z.int().min(0), amount: num }),
  ),
  bonuses: z.strictObject({ added: num, redeemed: num }),
  /** Cash paid in and out outside sales, oldest first; counted in `expected_cash`. Absent: none. */
  cash_movements: z.array(CashMovement).optional(),
  /** The drawer opened on request (not for a sale), oldest first. Absent: none. */
  drawer_openings: z.array(DrawerOpening).optional(),
  /**
   * Cash prepaid at the pump in this shift and not booked by a completion in it (net of the
   * prepays this shift's completions booked): counted in `expected_cash`. Absent: zero.
   */
  pump_prepaid_cash: num.optional(),
  /** Fills driven off without paying in the shift (`pump-drive-off`). Absent: none. */
  drive_offs: z.strictObject({ count: z.int().min(1), litres: num, amount: num }).optional(),
  /** Cash expected in the drawer: opening cash + cash in - cash out (paid-ins and -outs too). */
  expected_cash: num.optional(),
  /** Outbox rows of this shift not yet accepted by the central service. */
  unsynced: z.int().min(0),
  generated_at: dateTime,
});
export type ShiftReport = z.infer<typeof ShiftReport>;

/** A shift report kept (`shift-report` with `print`, `shift-close`): X during, Z at close. */
export const KeptReport = z.strictObject({
  id: z.uuid(),
  kind: z.enum(['x', 'z']),
  /** Whether the printer took it (its last print). */
  printed: z.boolean(),
  created_at: dateTime,
});
export type KeptReport = z.infer<typeof KeptReport>;

/** Connection as the UI shows it at all times (sync.md): "online" = a request just succeeded. */
const Connection = z.enum(['online', 'offline', 'unknown']);
export type Connection = z.infer<typeof Connection>;

/**
 * The terminal's offline allowance: `terminal_left` of `terminal_limit` (money; bonuses valued
 * at the POS loyalty's bonus rate) until the server confirms what was spent, and offline
 * spending allowed until `spending_until` (last contact + the cache's maximum age; null before
 * any contact). Earning and cash sales need neither.
 */
export const StandinState = z.strictObject({
  terminal_limit: num,
  terminal_left: num,
  spending_until: dateTime.nullable(),
});
export type StandinState = z.infer<typeof StandinState>;

export const SyncState = z.strictObject({
  connection: Connection,
  /** Outbox rows not yet done (queued or sending). */
  outbox_depth: z.int().min(0),
  /** Outbox rows the central service refused (they stay, as attention items). */
  outbox_rejected: z.int().min(0),
  last_contact_at: dateTime.nullable(),
  last_pull_at: dateTime.nullable(),
  /** Age of the cached rules and balances in seconds; null before the first pull. */
  cache_age_s: z.int().min(0).nullable(),
  /** Server `Date` minus local clock; shown as a warning over the configured limit. */
  clock_skew_s: num.nullable(),
  clock_skew_warning: z.boolean(),
  /**
   * The link is "tls-failed": the central service's certificate or key was refused (a stable
   * code: tls-unknown-ca, tls-expired, tls-hostname-mismatch, tls-pin-mismatch, ...), since
   * `since`. Nothing is sent until the retry interval has passed; null otherwise.
   */
  tls_failure: z
    .strictObject({ code: z.string(), message: z.string(), since: dateTime })
    .nullable(),
  running: z.boolean(),
  /** What the stand-in limits (sync.md) leave for offline spending, shown while offline. */
  standin: StandinState,
});
export type SyncState = z.infer<typeof SyncState>;

/** An outbox row's state (sync.md): queued -> sending -> done | rejected. */
const OutboxState = z.enum(['queued', 'sending', 'done', 'rejected']);
export type OutboxState = z.infer<typeof OutboxState>;

/** Where one transaction stands with the central service. */
export const SaleSync = z.strictObject({
  state: OutboxState,
  attempts: z.int().min(0),
  next_attempt_at: dateTime.nullable(),
  /** The last failure, or the server's reason for a rejection. */
  error: ErrorBody.nullable(),
});
export type SaleSync = z.infer<typeof SaleSync>;

/** engine.md 16: `warnings: [ { code, message, path } ]`. */
export const Warning = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
  path: z.string(),
});
export type Warning = z.infer<typeof Warning>;

/** The device kinds are the configuration's `devices` keys. */
const DeviceKind = z.enum(['card_reader', 'scanner', 'payment', 'printer', 'tank_gauge', 'pumps']);
export type DeviceKind = z.infer<typeof DeviceKind>;

const DeviceConnectionState = z.enum(['connecting', 'connected', 'disconnected', 'failed']);

export const DeviceState = z.strictObject({
  kind: DeviceKind,
  simulated: z.boolean(),
  protocol: z.string(),
  transport: z.enum(['serial', 'tcp']),
  /** Serial path or `host:port`; absent for a simulator. */
  address: z.string().optional(),
  state: DeviceConnectionState,
  since: dateTime.nullable(),
  error: ErrorBody.nullable(),
});
export type DeviceState = z.infer<typeof DeviceState>;

export const CustomerSummary = z.strictObject({
  id: z.uuid(),
  type: AllTypeCustomerType,
  name: z.string().optional(),
  access_type: CustomerAccessType,
  card_category: z.strictObject({ id: z.uuid(), title: z.string().optional() }).nullable(),
  /**
   * A driver's fleet (the corporate customer the driver belongs to): a UI sends it as the
   * check's `corporate_customer_id`, so the fleet's rules apply. null for anyone else.
   */
  corporate_customer_id: z.uuid().nullable(),
  /** In bonuses; `available` is cached balance minus this terminal's unconfirmed spending. */
  bonuses: z.strictObject({ regular: num, promotional: num, available: num }),
  special_accounts: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string().optional(),
      type: SpecialAccountType,
      currency: currency.optional(),
      /**
       * What can be spent now: the least of the funds and every limit, net of this terminal's
       * holds (docs/terminal.md, "Money at the till"); null = unbounded.
       */
      available: num.nullable(),
      pin_required: z.boolean(),
      /**
       * How the check pays from it: `special-account` for the customer's own account,
       * `corporate-special-account` for a fleet account through the driver's access (`id`
       * is then the access id, the check's `payment_id`).
       */
      payment_type: z.enum(['special-account', 'corporate-special-account']),
    }),
  ),
});
export type CustomerSummary = z.infer<typeof CustomerSummary>;

export const AttentionKind = z.enum([
  'outbox-rejected',
  'payment-unresolved',
  'bonuses-owed',
  'record-quarantined',
  'clock-skew',
  'device-failed',
  'sale-differs',
  /** The database was damaged at start and recovered from a backup (docs/reliability.md). */
  'store-recovered',
  /** A tank's or a grade's wet-stock variance beyond the configured percent (docs/forecourt.md). */
  'wetstock-variance',
  /** A fill driven off without paying (`pump-drive-off`, docs/forecourt.md). */
  'drive-off',
  /** A prepay whose pump's release ran out with nothing drawn: its money waits to go back. */
  'prepay-unused',
]);

export const AttentionItem = z.strictObject({
  id: z.uuid(),
  kind: AttentionKind,
  created_at: dateTime,
  transaction_id: z.uuid().nullable(),
  message: z.string(),
  error: ErrorBody.nullable(),
  details: z.record(z.string(), z.unknown()).optional(),
  resolved_at: dateTime.nullable(),
  resolved_by: StaffRef.nullable(),
  comment: z.string().nullable(),
});
export type AttentionItem = z.infer<typeof AttentionItem>;

/**
 * How a refund's or a cancellation's money went back, part by part (docs/terminal.md,
 * "Refunds"): each card's refund or reversal, then the rest in cash from the drawer or to the
 * account the sale was paid from. The screen says it as it is ("give back 50.00 in cash").
 */
const PaidBack = z.array(z.strictObject({ type: TransactionPaymentType, amount: num }));

const PaymentRecord = z.strictObject({
  payment_id: z.uuid(),
  transaction_id: z.uuid().nullable(),
  operation: BankCardExternalPaymentOperationType,
  status: BankCardExternalPaymentStatus,
  amount: num,
  currency: currency.optional(),
  /** Masked card number (first 6, last 4), never the clear PAN. */
  card: z.string().optional(),
});

/** The check a UI or an integrator sends: only what the caller decides (check-request.ts). */
const CheckIn = CheckRequest;
/** A check as the terminal answers it (see the header: loose, PIN dropped). */
const CheckOut = looseShared.CheckResponse;

/** A check carrying a transaction id must carry the command's own. */
function sameTransaction(v: {
  transaction_id: string;
  check: { transaction_id?: string | undefined };
}) {
  return v.check.transaction_id === undefined || v.check.transaction_id === v.transaction_id;
}
const sameTransactionError = {
  error: 'check.transaction_id differs from transaction_id',
  path: ['check', 'transaction_id'],
};

const StatusOutput = z.strictObject({
  app: z.strictObject({ name: z.string(), version: z.string() }),
  terminal: z.strictObject({
    id: z.uuid(),
    name: z.string().optional(),
    /** The IANA zone the till's dates are shown in: its POS's, else the business's, else UTC. */
    time_zone: z.string().min(1).optional(),
  }),
  staff: SignedInStaff.nullable(),
  shift: Shift.nullable(),
  /** null until the sync loop runs. */
  sync: SyncState.nullable(),
  attention: z.int().min(0),
  /** Whether the sale workflow is wired (false while only the shell runs). */
  ready: z.boolean(),
});

/** Cash handed over for the cash part of a sale and the change given back (docs/terminal.md). */
const CashTender = z.strictObject({ given: num, change: num });

const SaleResult = z.strictObject({
  transaction_id: z.uuid(),
  subtype: TransactionSubType,
  check: CheckOut,
  warnings: z.array(Warning),
  payments: z.array(PaymentRecord),
  sync: SaleSync,
  receipt_printed: z.boolean(),
  /** Present when cash was handed over (`cash_given`, or a fuel prepay's cash at completion). */
  cash: CashTender.optional(),
  /**
   * The receipt as printed: the ESC/POS bytes sent to the printer, decoded into lines and
   * markers (docs/devices.md). Absent when the sale printed none (a pump authorisation).
   */
  receipt: ReceiptPreview.optional(),
});

/** What only the terminal says of a sale (its answer's fields). */
const SALE_OWNED = {
  subtype: 'online or offline is how the terminal reached the service',
  payments:
    'the card operations the terminal ran (the check\u2019s own payments are the caller\u2019s)',
  sync: 'the sale\u2019s outbox row',
  receipt_printed: 'the printer',
  receipt: 'what the printer was sent',
} as const;

/** What only the terminal says of a cancel or a refund: it takes back the sale as recorded. */
const RETURN_OWNED = {
  check: 'the sale as it was recorded',
  amount: 'the sale as it was recorded',
  owed: 'the customer\u2019s balance',
  payments: 'the card operations the terminal ran',
  sync: 'the outbox row',
} as const;

// ---- the map ----

/**
 * Every command of interfaces.md, in its order. Names are kebab-case; inputs strict.
 * `transaction_id`s are made by the client (a UUIDv7, sync.md) before the first attempt and
 * reused on every retry: a repeat with the same body answers the first result, a repeat with a
 * different body is refused with `idempotency-conflict` (409).
 */
export const commands = {
  status: { input: Empty, output: StatusOutput },
  'staff-sign-in': {
    input: callerInput(
      { auth_code: shortText.min(1, { error: 'the auth code is required' }) },
      { signed_in_at: 'the time of the sign-in' },
    ),
    output: z.strictObject({ staff: SignedInStaff, shift: Shift.nullable() }),
  },
  'staff-sign-out': {
    input: Empty,
    output: z.strictObject({ signed_out: StaffRef.nullable() }),
  },
  'shift-open': {
    input: callerInput(
      { opening_cash: cash.optional() },
      {
        id: 'the shift\u2019s id',
        shift_id: 'the shift\u2019s id',
        number: 'the shift\u2019s number',
        opened_at: 'the time it opens',
        opened_by: 'the signed-in staff member',
      },
    ),
    output: z.strictObject({ shift: Shift }),
  },
  'shift-close': {
    input: callerInput(
      { counted_cash: cash.optional() },
      {
        shift_id: 'the open shift is the one closed',
        closed_at: 'the time it closes',
        closed_by: 'the signed-in staff member',
        expected_cash: 'the cash the shift\u2019s operations leave in the drawer',
      },
    ),
    /** The Z report: kept and printed (`kept`). */
    output: z.strictObject({ report: ShiftReport, kept: KeptReport.optional() }),
  },
  'shift-report': {
    /**
     * Absent `shift_id` = the open shift. The open shift's report with `print` is an X report,
     * kept and printed; a closed shift answers its kept Z report, `print` reprints it as a copy
     * (docs/terminal.md, "Shift reports kept").
     */
    input: callerInput(
      { shift_id: z.uuid().optional(), print: z.boolean().optional() },
      { expected_cash: 'the cash the shift\u2019s operations leave in the drawer' },
    ),
    output: z.strictObject({ report: ShiftReport, kept: KeptReport.optional() }),
  },
  'shifts-recent': {
    /** The latest shifts, newest first, with the reports kept of each. */
    input: callerInput({ limit: z.int().min(1).max(50).optional() }, {}),
    output: z.strictObject({
      shifts: z.array(z.strictObject({ shift: Shift, reports: z.array(KeptReport) })),
    }),
  },
  'cash-movement': {
    /**
     * Cash paid into (`paid-in`) or out of (`paid-out`) the drawer outside a sale, in the open
     * shift, with the reason (docs/terminal.md, "Cash movements").
     */
    input: callerInput(
      {
        kind: z.enum(['paid-in', 'paid-out']),
        amount: cash.refine((v) => v > 0, { error: 'must be > 0' }),
        reason: comment.trim().min(1, { error: 'say why the cash moves' }),
        /**
         * Made by the client before the first attempt and reused on every retry (as a sale's
         * transaction_id): a repeat answers the first movement, another body is 409.
         */
        idempotency_key: z.uuid().optional(),
      },
      {
        id: 'the terminal',
        shift_id: 'the open shift',
        recorded_at: 'the time it is recorded',
      },
    ),
    output: z.strictObject({ movement: CashMovement }),
  },
  'drawer-open': {
    /**
     * Opens the cash drawer outside a sale (the printer's ESC/POS pulse) in the open shift,
     * journalled with who and when for the shift report (docs/terminal.md, "The cash drawer").
     */
    input: callerInput(
      { reason: comment.trim().min(1, { error: 'say why, or leave it out' }).optional() },
      {
        id: 'the terminal',
        shift_id: 'the open shift',
        staff: 'the signed-in staff member',
        opened_at: 'the time it opens',
        pulse_sent: 'the printer',
      },
    ),
    output: z.strictObject({ opening: DrawerOpening }),
  },
  // ---- loyalty at the till (issue 15, item 6; docs/terminal.md, "Loyalty at the till") ----
  'bonus-operation': {
    /**
     * Bonuses added to or written off the identified customer's balance by this terminal,
     * with why (the contract's BonusesOperationObject; a manager's). `transaction_id` is made
     * by the client like a sale's: the Idempotency-Key, so a retry never moves bonuses twice.
     */
    input: callerInput(
      {
        transaction_id: z.uuid(),
        customer_id: z.uuid(),
        kind: z.enum(['add', 'write-off']),
        amount: money.refine((v) => v > 0, { error: 'must be > 0' }),
        comment: comment.trim().min(1, { error: 'say why the bonuses move' }),
      },
      BONUS_OPERATION_OWNED,
    ),
    output: BonusOperationResult,
  },
  'coupon-sell': {
    /**
     * A coupon or certificate of a batch sold to the identified customer at the batch's price
     * (`customers_price_*`), paid with their bonuses or from their account (the batch's price
     * type decides which; `special_account_id`: which of their accounts, default the batch's).
     * `transaction_id` is the client-made Idempotency-Key, as a sale's.
     */
    input: callerInput(
      {
        transaction_id: z.uuid(),
        customer_id: z.uuid(),
        batch_id: z.uuid(),
        special_account_id: z.string().min(1).max(100).optional(),
      },
      COUPON_SELL_OWNED,
    ),
    output: CouponSaleResult,
  },
  'coupon-batches': {
    /** The coupon and certificate batches the till sells (a price in bonuses or money), by title. */
    input: Empty,
    output: z.strictObject({ batches: z.array(CouponBatchOnSale) }),
  },
  // ---- the forecourt (issue 16; docs/forecourt.md, "The forecourt at the till") ----
  'forecourt-state': {
    /** Every pump as the forecourt reports it, and every fill waiting to be paid. */
    input: Empty,
    output: ForecourtState,
  },
  'pump-release': {
    /** A calling pump released for postpay (`nozzles`: those that may deliver; all when absent). */
    input: callerInput(
      { pump: pumpNumber, nozzles: z.array(z.int().min(1).max(15)).min(1).max(15).optional() },
      { preset: 'postpay has none', authorisation_id: 'postpay has none' },
    ),
    output: z.strictObject({ pump: PumpView }),
  },
  'pump-authorise': {
    /**
     * A prepay's pump: `transaction_id` names the pump authorisation `sale-process` recorded
     * (preauthorization); the pump is preset to what it paid for (its amount, else its litres).
     */
    input: callerInput(
      { pump: pumpNumber, transaction_id: z.uuid() },
      {
        preset: 'the prepay\u2019s check',
        amount: 'the prepay\u2019s check',
        volume: 'the prepay\u2019s check',
        price: 'the pump\u2019s price',
        nozzles: 'the prepaid grade decides the nozzles (devices.pumps.nozzles)',
      },
    ),
    output: z.strictObject({
      pump: PumpView,
      preset: z.strictObject({ kind: z.enum(['amount', 'volume']), value: DecimalText }),
    }),
  },
  'pump-stop': {
    /** One pump stopped, or every pump when none is named (the emergency stop). */
    input: callerInput({ pump: pumpNumber.optional() }),
    output: z.strictObject({ pumps: z.array(PumpView), not_stopped: z.array(z.string()) }),
  },
  'pump-resume': {
    /** A stopped or suspended pump goes on. */
    input: callerInput({ pump: pumpNumber }),
    output: z.strictObject({ pump: PumpView }),
  },
  'pump-drive-off': {
    /**
     * An unpaid fill whose driver left without paying, recorded as a drive-off (the attention
     * list, the shift report); the pump is free again. `comment`: what the cashier saw.
     */
    input: callerInput(
      {
        fill_id: z.uuid({ error: 'a fill id as forecourt-state lists it' }),
        comment: comment.trim().min(1, { error: 'say what happened' }).optional(),
      },
      {
        state: 'the fill\u2019s, set by the terminal',
        resolved_by: 'the signed-in staff member',
        amount: 'the pump\u2019s',
        volume: 'the pump\u2019s',
      },
    ),
    output: z.strictObject({ fill: FillView }),
  },
  'simulator-pump': {
    /**
     * A person at a simulated pump (docs/forecourt.md, "A person at a simulated pump"): `lift`
     * a nozzle (`nozzle`, default 1), `dispense` (`litres`, else until the pump's preset), or
     * `hang-up`. Refused for real pumps. Dispensing runs at the pump's flow rate: the answer
     * comes at once, the litres follow on the pump.
     */
    input: callerInput(
      {
        pump: pumpNumber,
        action: SimulatorPumpAction,
        nozzle: z.int().min(1, { error: 'nozzles are numbered from 1' }).max(15).optional(),
        litres: z
          .number()
          .positive({ error: 'more than 0 litres' })
          .max(999.99, { error: 'at most 999.99 litres' })
          .refine(fewLitreDigits, {
            error: 'litres to 0.01 at most',
          })
          .optional(),
      },
      {
        flow_rate: 'the simulated pump\u2019s own',
        price: 'the pump\u2019s price',
        volume: 'what the pump dispenses',
        amount: 'the pump\u2019s price times its litres',
      },
    )
      .refine((i) => i.nozzle === undefined || i.action === 'lift', {
        error: 'a nozzle is chosen when it is lifted',
        path: ['nozzle'],
      })
      .refine((i) => i.litres === undefined || i.action === 'dispense', {
        error: 'litres are given only to dispense',
        path: ['litres'],
      }),
    output: z.strictObject({ simulated: SimulatedPump }),
  },
  'customer-identify': {
    input: callerInput(
      {
        // A QR code identifies with up to 256 characters (recognition.ts).
        id: longId.min(3, { error: 'the identifier has at least 3 characters' }),
        id_type: IdType,
        cardotppassword: shortText.min(3, { error: 'at least 3 characters' }).optional(),
      },
      {
        customer_id: 'the customer the identifier finds',
        customer: 'the customer the identifier finds',
        source: 'where the terminal found the customer',
      },
    ),
    output: z.strictObject({
      customer: CustomerSummary,
      /** `cache`: answered from the local copy (offline, or the lookup timed out). */
      source: z.enum(['online', 'cache']),
    }),
  },
  'catalog-search': {
    /**
     * The POS catalogue (docs/terminal.md, "Goods"): `query` finds a good by its code, its
     * barcode, or the words of its title (all of them, case and accents ignored); `barcode`
     * is a scanned code, which answers its good and the line it makes (`scanned`). Nothing
     * given: every good, catalogue order. `quick_keys`: also the touch screen's quick keys.
     */
    input: callerInput(
      {
        query: shortText.trim().min(1, { error: 'type a code, a barcode or words' }).optional(),
        barcode: scannedCode.optional(),
        category: shortText.min(1, { error: 'a category cannot be empty' }).optional(),
        limit: z.int().min(1).max(200, { error: 'at most 200 goods' }).optional(),
        quick_keys: z.boolean().optional(),
        /** Absent = the till's POS (its first). */
        pos_id: z.uuid().optional(),
      },
      {
        goods: 'the POS catalogue',
        scanned: 'what the barcode carries',
        check_item_enter_mode: 'the POS record',
      },
    ),
    output: CatalogSearchOutput,
  },
  'check-calc': {
    input: callerInput({ check: CheckIn }, { warnings: 'the engine\u2019s warnings' }),
    output: z.strictObject({ check: CheckOut, warnings: z.array(Warning) }),
  },
  'sale-process': {
    input: callerInput(
      {
        transaction_id: z.uuid(),
        check: CheckIn,
        /**
         * The cash the customer handed over for the cash part (a cashier's entry): at least
         * that part, else `cash-short`; the change is answered, stored and printed.
         */
        cash_given: cash.optional(),
      },
      { ...SALE_OWNED, cash: 'the change the terminal works out from cash_given' },
    ).refine(sameTransaction, sameTransactionError),
    output: SaleResult,
  },
  'sale-status': {
    input: callerInput(
      { transaction_id: z.uuid() },
      { state: 'where the sale stands', subtype: SALE_OWNED.subtype },
    ),
    output: z.discriminatedUnion('state', [
      z.strictObject({
        transaction_id: z.uuid(),
        state: z.literal('committed'),
        subtype: TransactionSubType,
        cancelled: z.boolean(),
        sync: SaleSync,
        check: CheckOut,
      }),
      // Never committed here and never sent: safe to retry `sale-process` with the same id.
      // `payments`: card operations the till made under the id (a charge a kill left without
      // its sale, reversed at start), when there are any.
      z.strictObject({
        transaction_id: z.uuid(),
        state: z.literal('unknown'),
        payments: z.array(PaymentRecord).optional(),
      }),
      // A pump authorisation (`transaction_type: preauthorization`): nothing is sold until
      // its completion. `pump`: `open` (a completion may book it until `expires_at`, when the
      // till releases a card's pre-authorisation), `completed` (by the completion sale
      // named), `released` (given back: its lifetime ran out). Retrying `sale-process` with
      // the same id answers the authorisation again.
      z.strictObject({
        transaction_id: z.uuid(),
        state: z.literal('authorised'),
        pump: z.enum(['open', 'completed', 'released']),
        completion_transaction_id: z.uuid().nullable(),
        expires_at: z.iso.datetime().nullable(),
        check: CheckOut,
        payments: z.array(PaymentRecord),
      }),
      // Its outcome was unknown (the till stopped, or the answer was lost), so the till voided
      // it on the central service: the id is spent; sell again under a new transaction_id.
      z.strictObject({
        transaction_id: z.uuid(),
        state: z.literal('voided'),
        void_transaction_id: z.uuid(),
        reason: z.string(),
      }),
    ]),
  },
  'sale-cancel': {
    /** The sale's own transaction id: cancelling twice answers the first result. */
    input: callerInput({ transaction_id: z.uuid(), comment: comment.optional() }, RETURN_OWNED),
    output: z.strictObject({
      transaction_id: z.uuid(),
      check: CheckOut,
      warnings: z.array(Warning),
      payments: z.array(PaymentRecord),
      paid_back: PaidBack,
      /** Bonuses the customer owes when the write-off exceeded the balance (engine.md 15). */
      owed: z.strictObject({ bonuses: num }).optional(),
      sync: SaleSync,
    }),
  },
  'sale-refund': {
    input: callerInput(
      {
        /** The refund's own id, made by the client like a sale's. */
        transaction_id: z.uuid(),
        original_transaction_id: z.uuid(),
        lines: z
          .array(
            callerInput(
              {
                index: z.int().min(0),
                quantity: quantity.positive({ error: 'a refunded quantity is > 0' }),
              },
              {
                amount: 'what the sale charged for the line',
                price: 'what the sale charged for the line',
              },
            ),
          )
          .min(1, { error: 'name at least one line to refund' })
          .max(500, { error: 'at most 500 lines' }),
        comment: comment.optional(),
      },
      RETURN_OWNED,
    ),
    output: z.strictObject({
      transaction_id: z.uuid(),
      original_transaction_id: z.uuid(),
      check: CheckOut,
      warnings: z.array(Warning),
      payments: z.array(PaymentRecord),
      paid_back: PaidBack,
      owed: z.strictObject({ bonuses: num }).optional(),
      sync: SaleSync,
    }),
  },
  'receipt-reprint': {
    /** A sale stored on this terminal: its receipt is printed again, marked COPY. */
    input: callerInput(
      { transaction_id: z.uuid() },
      { copy: 'a reprint is always a copy', receipt: SALE_OWNED.receipt },
    ),
    output: z.strictObject({
      transaction_id: z.uuid(),
      receipt_printed: z.boolean(),
      receipt: ReceiptPreview,
    }),
  },
  'sales-recent': {
    /**
     * This terminal's sales, newest first (docs/terminal.md, "Recent sales"), so a UI opens
     * one to reprint, refund or cancel it without anybody typing an id. `from`/`to`: when it
     * was recorded (`to` excluded); `amount` exact, or `amount_min`/`amount_max`; `card`: the
     * last digits of a masked card or a loyalty card number; `customer`: a name, phone, card
     * or id. `cursor`: the `next_cursor` of the page before.
     */
    input: callerInput(
      {
        from: dateTime.optional(),
        to: dateTime.optional(),
        amount: cash.optional(),
        amount_min: cash.optional(),
        amount_max: cash.optional(),
        card: shortText.trim().min(2, { error: 'type at least 2 digits of the card' }).optional(),
        customer: shortText.trim().min(2, { error: 'type at least 2 characters' }).optional(),
        limit: z.int().min(1).max(100, { error: 'at most 100 sales' }).optional(),
        cursor: z
          .string()
          .regex(/^[1-9][0-9]{0,15}$/, { error: 'a next_cursor as answered' })
          .optional(),
      },
      { sales: 'the ledger', next_cursor: 'the page answered' },
    ),
    output: z.strictObject({
      sales: z.array(
        z.strictObject({
          transaction_id: z.uuid(),
          recorded_at: dateTime,
          total: num,
          payment_types: z.array(z.string()),
          cards: z.array(z.string()),
          customer: z
            .strictObject({
              id: z.string(),
              name: z.string().optional(),
              card: z.string().optional(),
            })
            .nullable(),
          /** `queued`: recorded here, not yet confirmed by the central service. */
          status: z.enum(['committed', 'queued', 'rejected', 'cancelled']),
          lines: z.array(
            z.strictObject({
              index: z.int().min(0),
              title: z.string().optional(),
              quantity: num,
              amount: num,
              refunded: z.strictObject({ quantity: num, amount: num }),
            }),
          ),
        }),
      ),
      /** null when the page ran out of sales (a full page may be followed by an empty one). */
      next_cursor: z.string().nullable(),
    }),
  },
  'payment-recover': {
    /** Absent `payment_id` = every operation still `inprocess` in the payment journal. */
    input: callerInput(
      { payment_id: z.uuid().optional() },
      {
        action: 'what the payment unit reports',
        status: 'what the payment unit reports',
        amount: 'the payment journal',
      },
    ),
    output: z.strictObject({
      recovered: z.array(
        PaymentRecord.extend({ action: z.enum(['status-enquiry', 'reversal', 'none']) }),
      ),
      /** Operations still unresolved (the unit did not answer); the next sale waits for them. */
      pending: z.int().min(0),
    }),
  },
  'attention-list': {
    input: callerInput({ include_resolved: z.boolean().optional() }),
    output: z.strictObject({ items: z.array(AttentionItem) }),
  },
  'attention-resolve': {
    input: callerInput(
      { id: z.uuid(), comment: comment.optional() },
      {
        resolved_at: 'the time it is resolved',
        resolved_by: 'the signed-in staff member',
        kind: 'the attention item',
      },
    ),
    output: z.strictObject({ item: AttentionItem }),
  },
  'sync-now': {
    input: Empty,
    output: z.strictObject({
      pushed: z.int().min(0),
      rejected: z.int().min(0),
      pulled: z.int().min(0),
      quarantined: z.int().min(0),
      sync: SyncState,
      /** Why the round stopped early (offline, 429, ...); null when it ran through. */
      error: ErrorBody.nullable(),
    }),
  },
  'devices-state': {
    input: Empty,
    output: z.strictObject({ devices: z.array(DeviceState) }),
  },
  // ---- tanks and wet stock (issue 16, points 5 and 6; docs/forecourt.md) ----
  'tank-readings': {
    /**
     * The latest reading of each tank. `read`: the gauge is read first; `dip`: a manual dip
     * is kept first (a tank without a gauge, or a check of one). At most one of the two.
     */
    input: callerInput(
      {
        read: z.boolean().optional(),
        dip: z
          .strictObject({
            tank: TankNumber,
            volume: Litres,
            water: Litres.optional(),
            temperature: num.optional(),
            ...Object.fromEntries(
              ['source', 'read_at', 'ullage'].map((k) => [
                k,
                refusedField(`the dip's own record; ${SET_BY_TERMINAL}`),
              ]),
            ),
          })
          .optional(),
      },
      { readings: 'the gauge and the dips kept', source: 'the gauge or the dip' },
    ).refine((i) => !(i.read && i.dip), {
      error: 'read the gauge or enter a dip, not both',
      path: ['dip'],
    }),
    output: z.strictObject({ readings: z.array(TankReadingOut) }),
  },
  'tank-delivery': {
    /**
     * A delivery into a tank: the quantity on the delivery note, and the volumes before and
     * after as read off the tank (both), or neither: the last gauge reading and the gauge now.
     */
    input: callerInput(
      {
        tank: TankNumber,
        note_quantity: Litres.refine((v) => v > 0, { error: 'must be > 0 litres' }),
        volume_before: Litres.optional(),
        volume_after: Litres.optional(),
      },
      {
        id: 'the terminal',
        received: 'volume_after - volume_before',
        difference: 'the volumes and the delivery note',
        shift_id: 'the open shift',
        recorded_at: 'the time it is recorded',
        source: 'whether the volumes were entered',
      },
    ),
    output: z.strictObject({ delivery: TankDeliveryOut }),
  },
  'wetstock-report': {
    /**
     * Wet stock of a shift (`shift_id`, default the open one; a closed shift's as kept with
     * its Z report) or of a day (`day`, YYYY-MM-DD: the shifts opened that date, UTC);
     * `print` prints it.
     */
    input: callerInput(
      {
        shift_id: z.uuid().optional(),
        day: z.iso.date({ error: 'a date as YYYY-MM-DD' }).optional(),
        print: z.boolean().optional(),
      },
      { variance: 'the readings, deliveries and sales', threshold_percent: 'the settings' },
    ).refine((i) => !(i.shift_id && i.day), {
      error: 'name a shift or a day, not both',
      path: ['day'],
    }),
    output: z.strictObject({ report: WetStockReport, printed: z.boolean() }),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type Commands = typeof commands;
export type CommandName = keyof Commands;

/** The names, in interfaces.md's order. */
export const commandNames = Object.keys(commands) as CommandName[];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(commands, name);
}

/** What a caller sends (defaults may be omitted). */
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
/** What a handler receives: the input after validation. */
export type HandlerInput<N extends CommandName> = z.infer<Commands[N]['input']>;
/** What a command answers when it succeeds. */
export type CommandOutput<N extends CommandName> = z.infer<Commands[N]['output']>;
/** Every answer is one of the two: errors are data, never a rejected promise. */
export type CommandResult<N extends CommandName> = CommandOutput<N> | ErrorResponse;

// ---- events (`on()`) ----

/**
 * A swipe or a scan, as recognised by the terminal (devices.md, "Recognition"). An identifier
 * goes to the screen, which identifies the customer with it; a bank card is only ever masked;
 * a good's barcode goes to `catalog-search`.
 */
const ReadSource = z.enum(['msr', 'scanner']);

export const DeviceRead = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('identifier'),
    id: z.string().min(1),
    id_type: IdType,
    source: ReadSource,
  }),
  z.strictObject({
    kind: z.literal('bank-card'),
    masked: z.string().min(1),
    source: ReadSource,
  }),
  // A good's barcode (docs/devices.md, "Goods barcodes"): `catalog-search` with it as
  // `barcode` answers the good and the line to add.
  z.strictObject({
    kind: z.literal('goods'),
    barcode: z.string().min(1),
    source: z.literal('scanner'),
  }),
  z.strictObject({
    kind: z.literal('unrecognised'),
    source: ReadSource,
    reason: z.string(),
  }),
]);
export type DeviceRead = z.infer<typeof DeviceRead>;

export const events = {
  /** The status changed (sign-in, shift, connection, attention count). */
  'status-changed': StatusOutput,
  /** One device changed state. */
  'device-state': DeviceState,
  /** A card reader or scanner read something. */
  'device-read': DeviceRead,
  /** The check as the customer's display shows it, after each calculation and sale. */
  'customer-display': CustomerDisplay,
  /** A sync round advanced. */
  'sync-progress': z.strictObject({
    phase: z.enum(['push', 'pull', 'snapshot']),
    done: z.int().min(0),
    /** null when the total is not known (delta pulls). */
    total: z.int().min(0).nullable(),
    sync: SyncState,
  }),
  /** A pump changed: its state, nozzle, running litres and amount, its unpaid fills. */
  'pump-state': PumpStateEvent,
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export const eventNames = Object.keys(events) as EventName[];
export type EventPayload<E extends EventName> = z.infer<Events[E]>;

// ---- the bridge a UI sees ----

/**
 * `window.terminal` in Electron (main/preload.ts) and the browser kiosk's HTTP client alike:
 * `call` resolves with the output or the error shape, never rejects for a refusal; `on`
 * returns its own unsubscribe.
 */
export interface TerminalBridge {
  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult<N>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/**
 * True when a command's answer is a refusal: an object whose only key is `error`, holding an
 * error object. `sync-now` answers with its counts and `error` (null, or why its round stopped
 * early); that is an answer, not a refusal.
 */
export function isErrorResponse(value: unknown): value is ErrorResponse {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && Object.keys(value).length === 1;
}
