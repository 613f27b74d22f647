// The terminal-facing operations of the central /v1 service (sync.md, "Operations"): one
// table of paths, methods and zod schemas that the client, the sandbox server and
// docs/central-api.yaml all come from. No HTTP library here, so the sandbox imports it too.
import { z } from 'zod';
import { looseBusiness, strictBusiness } from './business.js';
import {
  BankCardExternalPaymentOperationType,
  BankCardExternalPaymentStatus,
  IdType,
} from './enums.js';
import { RefundLine } from './engine.js';
import { looseShared, strictShared } from './shared.js';
import { currency, dateTime, num, uuid } from './wire.js';
import { Entity } from './feed.js';

/** `{ error: { code, message, path, details? } }` (interfaces.md, Errors). */
export const ApiErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    path: z.string().nullable().optional(),
    details: z.unknown().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/**
 * The answer to a cancel or refund (ours): the check as the server now holds it, plus the
 * bonuses the customer owes because a write-off went past the balance (engine.md 15). The
 * till reconciles its own owed figure with this one (reconcile.ts).
 */
export const ReturnAnswer = strictShared.CheckResponse.extend({
  owed: z.strictObject({ bonuses: num.min(0) }).optional(),
});
const ReturnAnswerInbound = looseShared.CheckResponse.extend({
  owed: z.looseObject({ bonuses: num.min(0) }).optional(),
});

export const TerminalSignIn = z.strictObject({ terminal_id: uuid, api_key: z.string().min(1) });
export const StaffSignIn = z.strictObject({ auth_code: z.string().min(1) });

/** One record of the change feed; `data` is validated per entity (entities.ts) by the puller. */
export const Change = z.strictObject({
  entity: Entity,
  op: z.enum(['upsert', 'delete']),
  id: z.string().min(1),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type Change = z.infer<typeof Change>;

/**
 * A page of the change feed. `total` counts the records of a snapshot (null for deltas),
 * `done` how many of them this page and the earlier ones carried (ours, for a progress bar).
 */
export const ChangesPage = z.strictObject({
  changes: z.array(Change),
  cursor: z.string().min(1),
  has_more: z.boolean(),
  total: z.int().min(0).nullable(),
  done: z.int().min(0).optional(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * What the client accepts: the envelope is checked, each change only as an object, so one
 * bad record is quarantined by the puller instead of failing its page.
 */
export const ChangesPageInbound = z.looseObject({
  changes: z.array(z.unknown()),
  cursor: z.string().min(1),
  has_more: z.boolean(),
  total: z.int().min(0).nullable(),
  done: z.int().min(0).optional(),
});
export type ChangesPageInbound = z.infer<typeof ChangesPageInbound>;

const ChangesQuery = z.strictObject({
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

const LookupQuery = z.strictObject({ id: z.string().min(3), id_type: IdType });

/** The customer's cacheable records, as upserts the puller's code applies. */
export const LookupResult = z.strictObject({ changes: z.array(Change) });
const LookupResultInbound = z.looseObject({ changes: z.array(z.unknown()) });

/** Who cancelled or refunded (ours): the staff member signed in on the till, not the seller. */
const ReturnedBy = z.strictObject({ id: uuid, name: z.string().optional() });

export const CancelCheck = z.strictObject({
  transaction_id: uuid,
  comment: z.string().optional(),
  business_staff: ReturnedBy.optional(),
});
export type CancelCheck = z.infer<typeof CancelCheck>;

/**
 * A refund of some lines of a processed sale (ours): the server computes it from the sale as
 * it stored it (engine.md 15), as the terminal did, so only the lines travel.
 */
export const RefundCheck = z.strictObject({
  transaction_id: uuid,
  original_transaction_id: uuid,
  lines: z.array(RefundLine).min(1),
  comment: z.string().optional(),
  business_staff: ReturnedBy.optional(),
});
export type RefundCheck = z.infer<typeof RefundCheck>;

/** Answer of bonuses/add and bonuses/write_off (ours). `owed` is a write-off's shortfall. */
export const BonusesOperationResult = z.looseObject({
  operation: z.enum(['add', 'write-off']),
  results: z.array(
    z.looseObject({ customer_id: z.string(), amount: num, balance: num, owed: num }),
  ),
});
export type BonusesOperationResult = z.infer<typeof BonusesOperationResult>;

/**
 * A coupon or certificate sold at its batch's price (ours, issue 15 point 6; docs/sync.md
 * "Coupon sales"): the terminal names the customer, the batch, the price it saw and how it
 * is paid; the central service checks the price, debits the bonuses or the account and
 * emits the coupon. `transaction_id` is the Idempotency-Key.
 */
export const CouponSell = z.strictObject({
  transaction_id: uuid,
  terminal_id: uuid,
  customer_id: uuid,
  batch_id: uuid,
  price_type: z.enum(['bonuses', 'special-account']),
  amount: num,
  currency: currency.optional(),
  /** The customer's account paid from (price_type special-account). */
  special_account_id: z.string().optional(),
});
export type CouponSell = z.infer<typeof CouponSell>;

const soldCoupon = {
  id: uuid,
  code: z.string(),
  batch_id: uuid,
  title: z.string().optional(),
  type: z.string().optional(),
  expire_date: z.string().optional(),
};
/** The answer: the emitted coupon and the balance paid from, after the sale. */
export const CouponSold = z.strictObject({
  transaction_id: uuid,
  coupon: z.strictObject(soldCoupon),
  balance: num,
});
export const CouponSoldInbound = z.looseObject({
  transaction_id: uuid,
  coupon: z.looseObject(soldCoupon),
  balance: num,
});
export type CouponSold = z.infer<typeof CouponSoldInbound>;

/** An external bank-card payment record (ours; the contract names only its enumerations). */
export const BankCardPayment = z.looseObject({
  id: uuid,
  transaction_id: uuid.optional(),
  operation_type: BankCardExternalPaymentOperationType,
  status: BankCardExternalPaymentStatus,
  amount: num,
  currency,
  created: dateTime.optional(),
});
export type BankCardPayment = z.infer<typeof BankCardPayment>;

/** A processed check sent to process_check must carry its terminal-made id. */
export const ProcessCheckRequest = strictShared.Check.extend({ transaction_id: uuid });

/** The writes a batch may carry, by their operation names (the outbox's names too). */
export const BATCH_OPERATIONS = [
  'process_check',
  'cancel_check',
  'refund_check',
  'bonuses_add',
  'bonuses_write_off',
  'coupons_sell',
  'bank_card_payments',
] as const;
/** Items in one batch at most (docs/sync.md, "Drain over a slow link"). */
export const MAX_BATCH_ITEMS = 100;
/** An item's status when the server stopped before it (an earlier item failed): not applied. */
export const NOT_ATTEMPTED = 424;

/** One write of a batch: what its own request would carry, its Idempotency-Key in the body. */
export const WriteBatchItem = z.strictObject({
  operation: z.enum(BATCH_OPERATIONS),
  idempotency_key: z.string().min(8).max(100),
  body: z.record(z.string(), z.unknown()),
});
export const WriteBatch = z.strictObject({
  items: z.array(WriteBatchItem).min(1).max(MAX_BATCH_ITEMS),
});
export type WriteBatch = z.infer<typeof WriteBatch>;

/** One item's answer: the status and body its own request would have got. */
export const WriteBatchResult = z.strictObject({
  idempotency_key: z.string(),
  status: z.int().min(200).max(599),
  body: z.unknown(),
});
/** The answers in the items' order, one per item. */
export const WriteBatchAnswer = z.strictObject({ results: z.array(WriteBatchResult) });
const WriteBatchAnswerInbound = z.looseObject({
  results: z.array(
    z.looseObject({ idempotency_key: z.string(), status: z.int(), body: z.unknown() }),
  ),
});

export interface Operation {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** none: sign-in itself; token: `Authorization: Bearer TOKEN`. */
  readonly auth: 'none' | 'token';
  /** A write changes the server and carries `Idempotency-Key`; only the outbox retries it. */
  readonly write: boolean;
  readonly summary: string;
  /** What the terminal sends (strict: our own payloads never carry unknown fields). */
  readonly request?: z.ZodType;
  /** Query parameters of a GET. */
  readonly query?: z.ZodObject;
  /** What the sandbox answers and the doc shows. */
  readonly response: z.ZodType;
  /** What the client accepts from any server (loose: new fields are kept). */
  readonly inbound: z.ZodType;
  /** The server's view of the request body (loose, as the contract allows extra fields). */
  readonly serverRequest?: z.ZodType;
}

function op<const O extends Operation>(o: O): O {
  return o;
}

export const operations = {
  signIn: op({
    name: 'sign_in',
    method: 'POST',
    path: '/v1/terminal/sign_in',
    auth: 'none',
    write: false,
    summary: 'Sign the terminal in with its business API key.',
    request: TerminalSignIn,
    serverRequest: TerminalSignIn,
    response: strictBusiness.BusinessAuthToken,
    inbound: looseBusiness.BusinessAuthToken,
  }),
  staffSignIn: op({
    name: 'staff_sign_in',
    method: 'POST',
    path: '/v1/terminal/staff/sign_in',
    auth: 'token',
    write: false,
    summary: 'Sign a staff member in with an auth code; the token carries `staff`.',
    request: StaffSignIn,
    serverRequest: StaffSignIn,
    response: strictBusiness.BusinessAuthToken,
    inbound: looseBusiness.BusinessAuthToken,
  }),
  changes: op({
    name: 'changes',
    method: 'GET',
    path: '/v1/terminal/changes',
    auth: 'token',
    write: false,
    summary:
      'Page through the change feed: a snapshot without a cursor, deltas after; 410 cursor-expired when the cursor is no longer known.',
    query: ChangesQuery,
    response: ChangesPage,
    inbound: ChangesPageInbound,
  }),
  lookup: op({
    name: 'customers_lookup',
    method: 'GET',
    path: '/v1/terminal/customers/lookup',
    auth: 'token',
    write: false,
    summary: "A customer's cacheable records, found by an identifier.",
    query: LookupQuery,
    response: LookupResult,
    inbound: LookupResultInbound,
  }),
  calcCheck: op({
    name: 'calc_check',
    method: 'POST',
    path: '/v1/terminal/calc_check',
    auth: 'token',
    write: false,
    summary: 'Calculate a check; nothing is stored.',
    request: strictShared.Check,
    serverRequest: looseShared.Check,
    response: strictShared.CheckResponse,
    inbound: looseShared.CheckResponse,
  }),
  processCheck: op({
    name: 'process_check',
    method: 'POST',
    path: '/v1/terminal/process_check',
    auth: 'token',
    write: true,
    summary: 'Process a check under its terminal-made transaction_id (the Idempotency-Key).',
    request: ProcessCheckRequest,
    serverRequest: looseShared.Check.extend({ transaction_id: uuid }),
    response: strictShared.CheckResponse,
    inbound: looseShared.CheckResponse,
  }),
  cancelCheck: op({
    name: 'cancel_check',
    method: 'POST',
    path: '/v1/terminal/cancel_check',
    auth: 'token',
    write: true,
    summary: 'Cancel a processed check as a whole.',
    request: CancelCheck,
    serverRequest: CancelCheck,
    response: ReturnAnswer,
    inbound: ReturnAnswerInbound,
  }),
  refundCheck: op({
    name: 'refund_check',
    method: 'POST',
    path: '/v1/terminal/refund_check',
    auth: 'token',
    write: true,
    summary:
      "Refund some lines of a processed check under the refund's terminal-made transaction_id (the Idempotency-Key), computed from the stored check.",
    request: RefundCheck,
    serverRequest: RefundCheck,
    response: ReturnAnswer,
    inbound: ReturnAnswerInbound,
  }),
  bonusesAdd: op({
    name: 'bonuses_add',
    method: 'POST',
    path: '/v1/terminal/bonuses/add',
    auth: 'token',
    write: true,
    summary: 'Credit bonuses to customers.',
    request: strictBusiness.BonusesOperationObject,
    serverRequest: looseBusiness.BonusesOperationObject,
    response: BonusesOperationResult,
    inbound: BonusesOperationResult,
  }),
  bonusesWriteOff: op({
    name: 'bonuses_write_off',
    method: 'POST',
    path: '/v1/terminal/bonuses/write_off',
    auth: 'token',
    write: true,
    summary: 'Write bonuses off; a shortfall is recorded as owed, never lost.',
    request: strictBusiness.BonusesOperationObject,
    serverRequest: looseBusiness.BonusesOperationObject,
    response: BonusesOperationResult,
    inbound: BonusesOperationResult,
  }),
  couponsSell: op({
    name: 'coupons_sell',
    method: 'POST',
    path: '/v1/terminal/coupons/sell',
    auth: 'token',
    write: true,
    summary:
      "Sell a coupon or certificate of a batch at the batch's price, paid with the customer's bonuses or account, under its terminal-made transaction_id (the Idempotency-Key).",
    request: CouponSell,
    serverRequest: CouponSell,
    response: CouponSold,
    inbound: CouponSoldInbound,
  }),
  bankCardPayments: op({
    name: 'bank_card_payments',
    method: 'POST',
    path: '/v1/terminal/bank_card_payments',
    auth: 'token',
    write: true,
    summary: 'Store an external bank-card payment record.',
    request: BankCardPayment,
    serverRequest: BankCardPayment,
    response: BankCardPayment,
    inbound: BankCardPayment,
  }),
  writeBatch: op({
    name: 'write_batch',
    method: 'POST',
    path: '/v1/terminal/batch',
    auth: 'token',
    write: false,
    summary:
      'Apply many writes in one request, in the order listed, each once under its own idempotency_key, answered item by item (ours).',
    request: WriteBatch,
    serverRequest: WriteBatch,
    response: WriteBatchAnswer,
    inbound: WriteBatchAnswerInbound,
  }),
} as const;

export type OperationName = keyof typeof operations;

/** Header names, in one place. */
export const HEADERS = {
  idempotencyKey: 'idempotency-key',
  appVersion: 'x-app-version',
  schemaVersion: 'x-schema-version',
} as const;
