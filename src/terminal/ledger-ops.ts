// The one builder of ledger operations (issue 11): a sale, the void of a sale whose outcome
// is unknown, a cancellation, a refund and a settled card operation are each built here, with
// their outbox row, from what the caller computed. The callers (sale-service, returns,
// card-payments) decide when to record; what a record holds is decided once, here.
import type { EngineCheck, EngineCheckResult, EngineProcessedCheck } from '../contract/engine.js';
import type { JournalEntry } from '../devices/payment-journal.js';
import { externalPaymentRecord } from '../devices/payment-flow.js';
import { add, dec, gt, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import type { Cache } from '../store/cache.js';
import type { OperationInput } from '../store/ledger.js';
import { OUTBOX_PAYLOAD_VERSION, outboxPayload } from '../sync/outbox-payload.js';
import type { TerminalPorts } from './ports.js';

/** What every outbox payload carries besides its body (outbox-payload.ts). */
export interface PayloadMeta {
  readonly appVersion: string;
  readonly schemaVersion: number;
  readonly nowMs: number;
  readonly clockSuspect: boolean;
}

/** The meta of an operation recorded at `nowMs` (default now), from the terminal's ports. */
export function payloadMetaOf(
  p: Pick<TerminalPorts, 'app' | 'schemaVersion' | 'clock' | 'sync'>,
  nowMs: number = p.clock.now(),
): PayloadMeta {
  return {
    appVersion: p.app.version,
    schemaVersion: p.schemaVersion,
    nowMs,
    clockSuspect: p.sync.link.status().clockSuspect,
  };
}

type Subtype = 'online' | 'offline';
type Accounts = NonNullable<OperationInput['accounts']>;
type Payments = NonNullable<OperationInput['payments']>;
type Charge = NonNullable<EngineCheckResult['special_accounts_charges']>[number];
/** An answer the central service gave already (online first): the row is born `done`. */
export type Answered = { status: 'done'; response: unknown } | { status: 'queued' };

function outbox(
  operation: string,
  body: Record<string, unknown>,
  meta: PayloadMeta,
  answered: Answered = { status: 'queued' },
): OperationInput['outbox'] {
  return {
    operation,
    version: OUTBOX_PAYLOAD_VERSION,
    payload: outboxPayload(body, meta),
    ...(answered.status === 'done' ? { status: 'done' as const, response: answered.response } : {}),
  };
}

/**
 * The account movements of special-account charges. A corporate charge names the fleet
 * account or the driver's access (`via`, the check's payment_id, else the charge's own id):
 * the money moves on the account behind the access, and the access is named for its limits.
 * `back`: a cancel or refund gives each charge back (a debit as a credit, cashback as a debit).
 */
export function accountsOf(
  cache: Cache,
  charges: readonly Charge[],
  o: { via?: string | undefined; back?: boolean } = {},
): Accounts {
  return charges
    .filter((c) => !o.back || c.amount > 0)
    .map((c) => {
      const access = cache.get('corporate_access', o.via ?? c.special_account_id);
      const inner = access?.corporate_customer_special_account?.special_account?.id;
      const named = access && inner && [inner, access.id].includes(c.special_account_id);
      const direction = !o.back ? c.direction : c.direction === 'debit' ? 'credit' : 'debit';
      return {
        accountId: named ? inner : c.special_account_id,
        accessId: named ? access.id : null,
        direction,
        amount: c.amount,
        currency: c.currency ?? null,
      };
    });
}

/**
 * The payments of a sale as the ledger records them: the check's split (cash and card parts)
 * when it names one, else one payment of the whole amount by its payment type.
 */
function paymentsOf(body: EngineCheck, processed: EngineCheckResult): Payments {
  const split = (body.payments ?? []).filter((p) => p.amount > 0);
  if (split.length > 0)
    return split.map((p) => ({
      type: p.type,
      id: p.payment_id ?? null,
      amount: p.amount,
      ...(p.currency ? { currency: p.currency } : {}),
    }));
  return [
    {
      type: body.payment_type ?? 'cash',
      id: body.payment_id ?? null,
      amount: processed.amount_to_pay ?? 0,
    },
  ];
}

export interface SaleOp {
  readonly id: string;
  readonly subtype: Subtype;
  readonly localDate: string;
  /** The check as sent (its payments, odometer, POS). */
  readonly body: EngineCheck;
  readonly processed: EngineCheckResult;
  readonly customerId: string | null;
  readonly accounts: Accounts;
  /** The next provisional coupon number, when a queued sale emits coupons (engine.md 16). */
  readonly nextCouponSeq: number | null;
  readonly answered: Answered;
  readonly meta: PayloadMeta;
}

/** A sale: its check, bonuses, payments, account charges, coupons, odometer and stats. */
export function saleOperation(s: SaleOp): OperationInput {
  const { processed, body, customerId } = s;
  const quantity = (processed.check_items ?? []).reduce<Dec>(
    (q, i) => add(q, dec(i.quantity)),
    ZERO,
  );
  const emitted = processed.emitted_coupons ?? [];
  return {
    id: s.id,
    kind: 'check',
    subtype: s.subtype,
    customerId,
    localDate: s.localDate,
    check: {
      transactionType: processed.transaction_type ?? 'sale',
      posId: body.pos?.id ?? null,
      amountToPay: processed.amount_to_pay ?? 0,
      currency: null,
      document: processed,
    },
    ...(customerId
      ? {
          bonuses: {
            redeemed: processed.bonuses_redeemed_amount ?? 0,
            added: processed.bonuses_added_amount ?? 0,
          },
        }
      : {}),
    payments: paymentsOf(body, processed),
    accounts: s.accounts,
    coupons: [
      ...(processed.redeemed_coupons ?? [])
        // Spent only when the check used it: valid and applicable (a check-modifier whose
        // rule did not apply stays the customer's).
        .filter((c) => c.valid !== false && c.applicable !== false && c.code)
        .map((c) => ({ code: c.code!, action: 'redeem' as const })),
      ...emitted.filter((c) => c.code).map((c) => ({ code: c.code!, action: 'emit' as const })),
    ],
    odometer:
      typeof body.odometer === 'number' && body.vehicle_id
        ? { vehicleId: body.vehicle_id, value: body.odometer, unit: body.odometer_unit ?? 'km' }
        : null,
    stats: customerId
      ? { amount: processed.amount ?? 0, quantity: toNumber(quantity), visits: 1 }
      : null,
    ...(s.answered.status === 'queued' && emitted.length > 0 && s.nextCouponSeq !== null
      ? { couponSeqUsed: s.nextCouponSeq + emitted.length - 1 }
      : {}),
    outbox: outbox('process_check', body as Record<string, unknown>, s.meta, s.answered),
  };
}

/** The void of a sale whose fate on the server is unknown: a cancel of its id, offline. */
export function voidOperation(v: {
  readonly id: string;
  readonly transactionId: string;
  readonly comment: string;
  readonly localDate: string;
  readonly meta: PayloadMeta;
}): OperationInput {
  return {
    id: v.id,
    kind: 'cancellation',
    subtype: 'offline',
    localDate: v.localDate,
    cancellation: { transactionId: v.transactionId, comment: v.comment },
    outbox: outbox('cancel_check', { transaction_id: v.transactionId, comment: v.comment }, v.meta),
  };
}

/**
 * The bonuses a cancel or refund moves: the spent ones given back, the earned ones written
 * off, less what the customer owes because the balance could not cover it (engine.md 15).
 */
function bonusesBack(
  customerId: string | null,
  back: EngineProcessedCheck,
  owed: number,
): Pick<OperationInput, 'bonuses'> {
  if (!customerId) return {};
  const writeOff = sub(dec(back.bonuses_added_amount ?? 0), dec(owed));
  return {
    bonuses: {
      returned: back.bonuses_redeemed_amount ?? 0,
      writtenOff: toNumber(gt(writeOff, ZERO) ? writeOff : ZERO),
    },
  };
}

/** What a cancel and a refund share: the engine's answer and what goes back how. */
export interface ReturnOp {
  readonly id: string;
  readonly subtype: Subtype;
  readonly localDate: string;
  readonly customerId: string | null;
  /** The engine's computation of what goes back. */
  readonly back: EngineProcessedCheck;
  /** Bonuses the balance could not cover (owed). */
  readonly owed: number;
  readonly payments: Payments;
  readonly accounts: Accounts;
  readonly meta: PayloadMeta;
}

/** A cancellation of a sale: bonuses, account money and coupons back, `cancel_check` queued. */
export function cancellationOperation(
  c: ReturnOp & {
    readonly transactionId: string;
    readonly comment: string | null;
    /** `{ business_staff }` of who cancels (business-staff.ts), or nothing. */
    readonly by: Record<string, unknown>;
  },
): OperationInput {
  const { back } = c;
  return {
    id: c.id,
    kind: 'cancellation',
    subtype: c.subtype,
    customerId: c.customerId,
    localDate: c.localDate,
    cancellation: { transactionId: c.transactionId, comment: c.comment },
    ...bonusesBack(c.customerId, back, c.owed),
    payments: c.payments,
    accounts: c.accounts,
    coupons: [
      ...(back.redeemed_coupons ?? [])
        .filter((x) => x.code && x.status === 'open')
        .map((x) => ({ code: x.code!, action: 'reopen' as const })),
      ...(back.emitted_coupons ?? [])
        .filter((x) => x.code && x.status === 'cancelled')
        .map((x) => ({ code: x.code!, action: 'cancel' as const })),
    ],
    outbox: outbox(
      'cancel_check',
      {
        transaction_id: c.transactionId,
        ...(c.comment ? { comment: c.comment } : {}),
        ...c.by,
      },
      c.meta,
    ),
  };
}

/**
 * A refund of some lines: a check of its own (transaction type `refund`), and an outbox
 * operation of its own (ours): the central service refunds from its stored check too.
 */
export function refundOperation(
  r: ReturnOp & {
    readonly originalTransactionId: string;
    readonly posId: string | null;
    /** The `refund_check` body: transaction_id, original_transaction_id, lines, comment. */
    readonly body: Record<string, unknown>;
  },
): OperationInput {
  return {
    id: r.id,
    kind: 'check',
    subtype: r.subtype,
    customerId: r.customerId,
    localDate: r.localDate,
    check: {
      transactionType: 'refund',
      originalTransactionId: r.originalTransactionId,
      posId: r.posId,
      amountToPay: r.back.amount_to_pay ?? 0,
      document: r.back,
    },
    ...bonusesBack(r.customerId, r.back, r.owed),
    payments: r.payments,
    accounts: r.accounts,
    outbox: outbox('refund_check', r.body, r.meta),
  };
}

/** A settled card operation, reported as `bank_card_payments`: its own operation. */
export function cardOperation(c: {
  readonly entry: JournalEntry;
  readonly subtype: Subtype;
  readonly localDate: string;
  readonly meta: PayloadMeta;
}): OperationInput {
  const body = externalPaymentRecord(c.entry);
  return {
    id: c.entry.id,
    kind: 'bank-card-payment',
    subtype: c.subtype,
    localDate: c.localDate,
    payments: [
      { type: 'bank-card', id: c.entry.id, amount: body.amount, currency: c.entry.currency },
    ],
    outbox: outbox('bank_card_payments', body, c.meta),
  };
}

/**
 * A bonus operation by terminal (`bonus-operation`): the customer's bonuses added or written
 * off, its BonusesOperationObject queued as `bonuses_add` / `bonuses_write_off` (or born done
 * when the central service answered online). A write-off is held against the balance at once.
 */
export function bonusOperation(b: {
  readonly id: string;
  readonly subtype: Subtype;
  readonly localDate: string;
  readonly customerId: string;
  readonly kind: 'add' | 'write-off';
  readonly amount: number;
  readonly body: Record<string, unknown>;
  readonly answered: Answered;
  readonly meta: PayloadMeta;
}): OperationInput {
  return {
    id: b.id,
    kind: 'bonus-operation',
    subtype: b.subtype,
    customerId: b.customerId,
    localDate: b.localDate,
    bonuses: b.kind === 'add' ? { added: b.amount } : { writtenOff: b.amount },
    outbox: outbox(
      b.kind === 'add' ? 'bonuses_add' : 'bonuses_write_off',
      b.body,
      b.meta,
      b.answered,
    ),
  };
}

/**
 * A coupon sold at its batch's price (`coupon-sell`): a loyalty operation outside a check
 * (ledger kind `bonus-operation`: the kinds' CHECK has no other, and it moves no cash), the
 * price spent from the bonuses or the account and held at once, the coupon emitted when the
 * central service answered with it, `coupons_sell` in the outbox.
 */
export function couponSaleOperation(c: {
  readonly id: string;
  readonly subtype: Subtype;
  readonly localDate: string;
  readonly customerId: string;
  readonly price: { type: 'bonuses' | 'special-account'; amount: number; currency?: string };
  readonly accountId: string | null;
  readonly code: string | null;
  readonly body: Record<string, unknown>;
  readonly answered: Answered;
  readonly meta: PayloadMeta;
}): OperationInput {
  const { price } = c;
  return {
    id: c.id,
    kind: 'bonus-operation',
    subtype: c.subtype,
    customerId: c.customerId,
    localDate: c.localDate,
    ...(price.type === 'bonuses' ? { bonuses: { redeemed: price.amount } } : {}),
    accounts:
      price.type === 'special-account' && c.accountId
        ? [
            {
              accountId: c.accountId,
              direction: 'debit',
              amount: price.amount,
              currency: price.currency ?? null,
            },
          ]
        : [],
    coupons: c.code ? [{ code: c.code, action: 'emit' }] : [],
    outbox: outbox('coupons_sell', c.body, c.meta, c.answered),
  };
}
