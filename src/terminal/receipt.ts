// The customer's receipt from a sale, built in this one module as a ReceiptDocument
// (src/contract/receipt.ts): store and POS from the cached records, the terminal, the time in
// the POS's zone, the cashier (the check's seller), lines with each rule's discount and bonuses
// by name, services, taxes by rate, payments with the account, vehicle and odometer they name,
// the card slips from the card journal, cash given and change, bonuses earned, spent and the
// balance after the sale, coupons redeemed and emitted, the feedback invitation, and the offline
// note. Amounts are formatted exactly by src/money; nothing here is a float sum.
import type { CouponSaleResult, CustomerSummary } from '../contract/commands.js';
import type { EngineCheckResult } from '../contract/engine.js';
import { localMinute, zoneOf } from '../contract/local-time.js';
import type { ReceiptDocument } from '../contract/receipt.js';
import { looseShared } from '../contract/shared.js';
import { dec, formatMoney, fromMinor, toFixed, type Dec } from '../money/index.js';
import type { Cache } from '../store/cache.js';
import type { CardOperation } from '../store/card-journal.js';
import type { CardSlipRecord } from '../contract/stored.js';

/** What the receipt is made from: the sold check and what the till knows of its sale. */
export interface SaleFacts {
  /** The check as sold, with its tender (`payment_type`, `payment_id`, `payments`). */
  check: EngineCheckResult;
  offline: boolean;
  /** Cash handed over and the change, when entered. */
  cash: { given: number; change: number } | null;
  /** The card operations of the sale (the card journal's, by transaction id), with their slips. */
  cards: readonly PaidByCard[];
  /** When it was sold (epoch ms). */
  soldAt: number;
  /** The customer after the sale (balances); null when not known (a late reprint). */
  customer: CustomerSummary | null;
}

/** A card operation and what the unit reported for its slip (kept as `card-slip`). */
export interface PaidByCard {
  op: CardOperation;
  slip: CardSlipRecord | null;
}

/** Where the receipt's context comes from. */
export interface ReceiptContext {
  cache: Cache;
  terminal: { id: string; name?: string | undefined };
}

type Item = NonNullable<EngineCheckResult['check_items']>[number];
type Rule = NonNullable<EngineCheckResult['implemented_rules']>[number];

/** Amount, bonus and price digits of a check. */
interface Digits {
  amount: number;
  bonuses: number;
}

const PAYMENT_TITLES: Record<string, string> = {
  cash: 'Cash',
  'bank-card': 'Card',
  'special-account': 'Account',
  'corporate-special-account': 'Fleet account',
};

const money = (v: number | string | Dec | null | undefined, digits: number) =>
  formatMoney(typeof v === 'object' && v !== null ? v : dec(v ?? 0), digits);

const positive = (v: number | null | undefined): v is number => typeof v === 'number' && v > 0;

/** A price at its own digits, never fewer than it has (1.789 stays 1.789). */
function priceText(price: number | undefined, digits: number): string {
  const d = dec(price ?? 0);
  return formatMoney(d, Math.max(digits, d.scale));
}

/** The sale's receipt (not a copy: `receipt-reprint` marks it). */
export function receiptOf(f: SaleFacts, ctx: ReceiptContext): ReceiptDocument {
  const check = f.check;
  const digits = {
    amount: check.amount_decimal_digits ?? 2,
    bonuses: check.bonuses_decimal_digits ?? 2,
  };
  const rules = appliedRules(check.implemented_rules ?? []);
  const cashier = check.business_staff?.name;
  const customer = f.customer?.name;
  return {
    copy: false,
    ...headerOf(check.pos?.id, f.soldAt, ctx),
    ...(cashier ? { cashier } : {}),
    ...(customer ? { customer } : {}),
    items: (check.check_items ?? []).map((it, i) => lineOf(it, i, rules, digits)),
    services: (check.check_services ?? []).map((s) => ({
      title: s.title ?? s.code,
      amount: money(s.amount, s.decimal_digits ?? digits.amount),
    })),
    discounts: rules.discount.map((r) => ({
      rule: r.title,
      amount: money(r.amount, digits.amount),
    })),
    ...(positive(check.discount_amount)
      ? { discount_total: money(check.discount_amount, digits.amount) }
      : {}),
    total: money(check.amount_to_pay, digits.amount),
    taxes: taxesOf(check),
    payments: paymentsOf(check, ctx.cache, digits.amount),
    card_slips: slipsOf(f.cards, digits.amount),
    ...(f.cash
      ? {
          cash: {
            given: money(f.cash.given, digits.amount),
            change: money(f.cash.change, digits.amount),
          },
        }
      : {}),
    ...bonusesOf(check, f.customer, digits),
    balances: balancesOf(f.customer, check.special_accounts_decimal_digits ?? digits.amount),
    coupons_redeemed: (check.redeemed_coupons ?? [])
      .filter((c) => c.valid !== false)
      .map((c) => ({ code: c.code, ...(c.title ? { title: c.title } : {}) })),
    coupons_emitted: emittedOf(check, ctx.cache),
    transaction_id: check.transaction_id ?? '',
    offline: f.offline,
    ...feedbackOf(check, ctx.cache),
    footer: [],
    drawer: paidInCash(check),
  };
}

/** A coupon sold at the till (`coupon-sell`) and what its slip names. */
export interface CouponSaleFacts {
  sale: CouponSaleResult;
  /** The batch's title (the coupon's, when it was emitted). */
  title: string;
  /** The account it was paid from, by title (price type special-account). */
  accountTitle: string | undefined;
  customer: string | undefined;
  soldAt: number;
}

/**
 * A coupon sale's slip, in the receipt's layout: the coupon as the one line, paid with bonuses
 * or from the account, the balance it left, and the coupon emitted (its code as a barcode or
 * QR, its expiry), or the note that its code follows when the sale went out offline.
 */
export function couponSlipOf(f: CouponSaleFacts, ctx: ReceiptContext): ReceiptDocument {
  const { sale } = f;
  const price = money(sale.price.amount, 2);
  const paidWith = sale.price.type === 'bonuses' ? 'Bonuses' : (f.accountTitle ?? 'Account');
  const unit = sale.price.type === 'bonuses' ? '' : ` ${sale.price.currency ?? ''}`.trimEnd();
  const coupon = sale.coupon;
  return {
    copy: false,
    ...headerOf(undefined, f.soldAt, ctx),
    ...(sale.staff.name ? { cashier: sale.staff.name } : {}),
    ...(f.customer ? { customer: f.customer } : {}),
    items: [{ title: f.title, quantity: '1', price, amount: price, discounts: [], bonuses: [] }],
    services: [],
    discounts: [],
    total: `${price}${unit}`,
    taxes: [],
    payments: [{ title: paidWith, amount: price, details: [] }],
    card_slips: [],
    ...(sale.price.type === 'bonuses'
      ? { bonuses: { spent: price, balance: money(sale.balance, 2) } }
      : {}),
    balances:
      sale.price.type === 'bonuses' ? [] : [{ title: paidWith, value: money(sale.balance, 2) }],
    coupons_redeemed: [],
    coupons_emitted: [
      {
        code: coupon?.code ?? null,
        title: coupon?.title ?? f.title,
        ...(coupon?.expire_date ? { expire: coupon.expire_date } : {}),
      },
    ],
    transaction_id: sale.transaction_id,
    offline: sale.sync === 'queued',
    footer: [],
    drawer: false,
  };
}

/** Store and POS with the POS's address, the terminal, the time in the POS's zone. */
function headerOf(checkPosId: string | undefined, soldAt: number, ctx: ReceiptContext) {
  const { cache } = ctx;
  const posId = checkPosId ?? cache.all('pos')[0]?.id;
  const pos = posId ? cache.get('pos', posId) : null;
  const business = cache.all('business_settings')[0];
  const loyalty = cache.all('loyalty')[0];
  const store = textOf(business?.public_title) ?? textOf(loyalty?.title);
  const zone = zoneOf(pos, business);
  const header = [store, pos?.public_title ?? pos?.title, pos?.addresses].filter(
    (x): x is string => typeof x === 'string' && x !== '',
  );
  return {
    header,
    terminal: ctx.terminal.name ? `${ctx.terminal.name} (${ctx.terminal.id})` : ctx.terminal.id,
    time: `${localMinute(soldAt, zone)} ${zone}`,
  };
}

/** A record's text field, or the first text of a multi-language object. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v !== 'object' || v === null) return undefined;
  return Object.values(v).find((x): x is string => typeof x === 'string' && x !== '');
}

interface AppliedRule {
  title: string;
  amount: number;
  lines: readonly number[];
}

/** The discount and bonus rules that acted, with their names, amounts and lines. */
function appliedRules(all: readonly Rule[]): { discount: AppliedRule[]; bonuses: AppliedRule[] } {
  const acted = (type: string) =>
    all.flatMap((r): AppliedRule[] => {
      const d = r.implementation_data;
      if (r.action_type !== type || !d?.applied || !positive(d.amount)) return [];
      return [{ title: r.title ?? 'Rule', amount: d.amount, lines: d.lines ?? [] }];
    });
  return { discount: acted('discount'), bonuses: acted('bonuses') };
}

/**
 * A rule's part of line `i`: the line's whole discount (or bonuses) when that rule alone acted
 * on it; with several rules on the line the engine does not split the line's figure by rule,
 * so each is named and the line's total follows.
 */
function partsOf(
  rules: readonly AppliedRule[],
  i: number,
  total: number | undefined,
  d: number,
  unnamed: string,
): { parts: Array<{ rule: string; amount: string | null }>; total?: string } {
  if (!positive(total)) return { parts: [] };
  const on = rules.filter((r) => r.lines.includes(i));
  if (on.length <= 1)
    return { parts: [{ rule: on[0]?.title ?? unnamed, amount: money(total, d) }] };
  return { parts: on.map((r) => ({ rule: r.title, amount: null })), total: money(total, d) };
}

function lineOf(
  it: Item,
  i: number,
  rules: { discount: AppliedRule[]; bonuses: AppliedRule[] },
  digits: Digits,
): ReceiptDocument['items'][number] {
  const discounts = partsOf(rules.discount, i, it.discount_amount, digits.amount, 'Discount');
  const bd = it.bonuses_decimal_digits ?? digits.bonuses;
  const bonuses = partsOf(rules.bonuses, i, it.bonuses_added, bd, 'Bonuses');
  return {
    title: it.title ?? it.code,
    quantity: toFixed(dec(it.quantity)),
    ...(it.unit ? { unit: it.unit } : {}),
    price: priceText(it.price, it.price_decimal_digits ?? digits.amount),
    amount: money(it.amount, it.amount_decimal_digits ?? digits.amount),
    discounts: discounts.parts,
    ...(discounts.total ? { discount_total: discounts.total } : {}),
    bonuses: bonuses.parts,
    ...(bonuses.total ? { bonuses_total: bonuses.total } : {}),
  };
}

/** VAT and sales taxes by code, with the rate the lines carried for that code. */
function taxesOf(check: EngineCheckResult): ReceiptDocument['taxes'] {
  const rates = new Map<string, number>();
  for (const it of check.check_items ?? [])
    for (const t of it.taxes ?? []) rates.set(t.code, t.rate);
  const taxes = check.calculated_taxes;
  const rows = [
    ...(taxes?.base ?? []).map((t) => ({ t, included: true })),
    ...(taxes?.sales ?? []).map((t) => ({ t, included: false })),
  ];
  return rows.map(({ t, included }) => {
    const rate = t.value_code === undefined ? undefined : rates.get(t.value_code);
    return {
      title: t.value_title ?? t.value_code ?? (included ? 'VAT' : 'Sales tax'),
      ...(rate === undefined ? {} : { rate: toFixed(dec(rate)) }),
      included,
      amount: money(t.value, t.decimal_digits ?? check.amount_decimal_digits ?? 2),
      exempt: t.exempt === true,
    };
  });
}

/** The tender: a split's parts, else the one payment type for the whole amount. */
function paymentsOf(
  check: EngineCheckResult,
  cache: Cache,
  d: number,
): ReceiptDocument['payments'] {
  const split = check.payments ?? [];
  const parts =
    split.length > 0
      ? split.map((p) => ({ type: p.type as string, amount: p.amount }))
      : [{ type: check.payment_type ?? 'cash', amount: check.amount_to_pay ?? 0 }];
  return parts.map((p) => ({
    title: PAYMENT_TITLES[p.type] ?? p.type,
    amount: money(p.amount, d),
    details:
      p.type === 'special-account' || p.type === 'corporate-special-account'
        ? accountDetails(check, cache)
        : [],
  }));
}

/** An account payment names its account, and a fleet's the vehicle and the odometer. */
function accountDetails(check: EngineCheckResult, cache: Cache): string[] {
  const out: string[] = [];
  const account = accountTitle(check, cache);
  if (account) out.push(account);
  const tag = check.corporate_vehicle?.vehicle_id ?? check.vehicle_id;
  if (tag) {
    const v = cache.vehicleByTag(tag);
    out.push(`Vehicle ${tag}${v?.description ? ` (${v.description})` : ''}`);
  }
  if (check.odometer !== undefined) {
    // As read: up to two decimals, none added.
    const reading = dec(check.odometer);
    out.push(`Odometer ${formatMoney(reading, reading.scale)} ${check.odometer_unit ?? 'km'}`);
  }
  return out;
}

/** The account's title: the check's, the cached account's, or a fleet access's account. */
function accountTitle(check: EngineCheckResult, cache: Cache): string | undefined {
  const debit = check.special_accounts_charges?.find((c) => c.direction === 'debit');
  const id = debit?.special_account_id ?? check.payment_id;
  if (check.special_account?.title) return check.special_account.title;
  if (!id) return undefined;
  const own = textOf(cache.get('special_account', id)?.title);
  if (own) return own;
  const access = cache.get('corporate_access', id);
  return textOf(access?.corporate_customer_special_account?.special_account?.title);
}

/**
 * The card operations that paid: approved purchases and completions, the PAN masked, with the
 * authorisation code and the unit's terminal id when the unit reported them.
 */
function slipsOf(cards: readonly PaidByCard[], d: number): ReceiptDocument['card_slips'] {
  return cards
    .filter(
      ({ op: c }) =>
        (c.operationType === 'purchase' || c.operationType === 'completion') &&
        c.status === 'success',
    )
    .map(({ op: c, slip }) => ({
      title: 'Card payment',
      amount: formatMoney(fromMinor(c.amountCents, 2), d),
      ...(c.panMasked ? { pan: c.panMasked } : {}),
      ...(slip?.auth_code ? { auth_code: slip.auth_code } : {}),
      ...(slip?.terminal_id ? { terminal_id: slip.terminal_id } : {}),
      ...(c.receiptNo !== null ? { receipt_no: String(c.receiptNo) } : {}),
      ...(c.traceNo !== null ? { trace_no: String(c.traceNo) } : {}),
      result: c.resultCode ? `Approved (${c.resultCode})` : 'Approved',
    }));
}

/** Bonuses spent and earned on the check, and what the customer has after it. */
function bonusesOf(check: EngineCheckResult, c: CustomerSummary | null, d: Digits) {
  const spent = check.bonuses_redeemed_amount;
  const earned = check.bonuses_added_amount;
  const balance = c && check.customer_id ? c.bonuses.available : undefined;
  if (!positive(spent) && !positive(earned) && balance === undefined) return {};
  return {
    bonuses: {
      ...(positive(spent) ? { spent: money(spent, d.bonuses) } : {}),
      ...(positive(earned) ? { earned: money(earned, d.bonuses) } : {}),
      ...(balance !== undefined ? { balance: money(balance, d.bonuses) } : {}),
    },
  };
}

/** The customer's accounts with what can be spent now, at the check's account digits. */
function balancesOf(c: CustomerSummary | null, digits: number): ReceiptDocument['balances'] {
  return (c?.special_accounts ?? []).flatMap((a) =>
    a.available === null
      ? []
      : [
          {
            title: a.title ?? 'Account',
            value: `${money(a.available, digits)}${a.currency ? ` ${a.currency}` : ''}`,
          },
        ],
  );
}

/**
 * The feedback invitation: the check's `customer_feedback_settings` (the central service's
 * answer), else the business's (the cached business settings); only when active.
 */
function feedbackOf(check: EngineCheckResult, cache: Cache) {
  const business = cache.all('business_settings')[0];
  const parsed = looseShared.CheckCustomerFeedbackSettings.safeParse(
    check.customer_feedback_settings ?? business?.['customer_feedback_settings'],
  );
  const s = parsed.success ? parsed.data : undefined;
  const source = s?.feedback_source;
  const url = source?.urls?.short_url ?? source?.urls?.base_url;
  const print = s?.print_feedback_on_check ?? 'none';
  if (s?.active !== 1 || !url || print === 'none') return {};
  const message = s.print_feedback_on_check_message_text ?? source?.invitation_text;
  return { feedback: { print, url, ...(message ? { message } : {}) } };
}

/** Emitted coupons with their batch's title when the coupon has none, and their expiry. */
function emittedOf(check: EngineCheckResult, cache: Cache): ReceiptDocument['coupons_emitted'] {
  return (check.emitted_coupons ?? []).map((c) => {
    const batch = c.batch?.code ? cache.couponBatchByCode(c.batch.code) : null;
    const title = c.title ?? c.batch?.public_title ?? textOf(batch?.public_title);
    return {
      code: c.code,
      ...(title ? { title } : {}),
      ...(c.expire_date ? { expire: c.expire_date } : {}),
    };
  });
}

/** Whether cash was tendered: a cash check, or a split with a cash part. */
function paidInCash(check: EngineCheckResult): boolean {
  const split = check.payments ?? [];
  if (split.length > 0) return split.some((p) => p.type === 'cash' && positive(p.amount));
  return (check.payment_type ?? 'cash') === 'cash' && positive(check.amount_to_pay);
}
