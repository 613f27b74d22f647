// `coupon-sell` (docs/terminal.md, "Loyalty at the till"): a coupon or certificate of a batch
// sold to the identified customer at the batch's price (`customers_price_*`), paid with their
// bonuses or from their account. The price is the cached batch's, never the caller's. The
// central service makes the coupon (its code and expiry), so the sale goes online first under
// the client-made transaction_id; known offline it is refused. An attempt without an answer
// is recorded and queued under the same key: the outbox delivers it exactly once (the central
// service answers a key it already applied from its table), and the price stays held. The
// attempt is written (key, request hash, the sale) and committed before the request leaves:
// one a killed till never recorded is queued the same way at the next start, or by a resend
// of its key, never refused from the till's figures (which may show its own debit by then).
import {
  CouponBatchPrice,
  type CommandOutput,
  type CouponBatchOnSale,
  type ErrorResponse,
  type HandlerInput,
} from '../contract/commands.js';
import { CouponSoldInbound, type CouponSold } from '../contract/central-api.js';
import { dec, gt, toNumber, type Dec } from '../money/index.js';
import type { CachedCustomer } from '../store/cache.js';
import type { CouponAttemptSale } from '../store/coupon-attempts.js';
import type { BonusOperationService } from './bonus-operations.js';
import { refuse } from './command-map.js';
import type { IdentifyService } from './identify.js';
import { InFlight, requestHash } from './idempotency.js';
import { couponSaleOperation, type Answered, payloadMetaOf } from './ledger-ops.js';
import { posToday } from './pos-date.js';
import type { CouponSaleFacts } from './receipt.js';
import type { TerminalPorts } from './ports.js';
import { staffRefOf } from './business-staff.js';
import { iso, type Workflow } from './workflow.js';

type Input = HandlerInput<'coupon-sell'>;
type Output = CommandOutput<'coupon-sell'>;
type Price = Output['price'];

const conflict = (): ErrorResponse =>
  refuse(
    'idempotency-conflict',
    'this transaction_id was used for another coupon sale; make a new one',
    'transaction_id',
  );

/** What a sale is about to do, once its price and means of payment are settled. */
interface Plan {
  readonly customer: CachedCustomer;
  readonly price: Price;
  readonly accountId: string | null;
  readonly title: string;
  readonly body: Record<string, unknown>;
}

export class CouponSaleService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;
  private readonly identify: IdentifyService;
  private readonly bonusOps: BonusOperationService;
  private readonly inFlight = new InFlight();
  private readonly printSlip: (facts: CouponSaleFacts) => Promise<boolean>;

  constructor(
    p: TerminalPorts,
    wf: Workflow,
    identify: IdentifyService,
    bonusOps: BonusOperationService,
    printSlip: (facts: CouponSaleFacts) => Promise<boolean>,
  ) {
    this.p = p;
    this.printSlip = printSlip;
    this.wf = wf;
    this.identify = identify;
    this.bonusOps = bonusOps;
  }

  sell(i: Input): Promise<Output | ErrorResponse> {
    const hash = requestHash(i);
    return this.inFlight.run(i.transaction_id, hash, conflict, () => this.once(i, hash));
  }

  private async once(i: Input, hash: string): Promise<Output | ErrorResponse> {
    const { store, sync, config, clock } = this.p;
    const kept = store.commandResults.get('coupon-sell', i.transaction_id);
    if (kept) return kept.requestHash === hash ? this.delivered(kept.response) : conflict();
    // Sent before and never recorded: the money may have left already, so the till's figures
    // decide nothing; queued under the same key, the central service answers it once.
    const open = store.couponAttempts.get(i.transaction_id);
    if (open) {
      if (open.requestHash !== hash) return conflict();
      const out = this.record(i.transaction_id, hash, open.sale, null);
      sync.kick();
      return this.printed(out, open.sale);
    }
    const plan = this.plan(i);
    if ('error' in plan) return plan;
    if (sync.link.current === 'offline')
      return refuse(
        'central-unreachable',
        'selling a coupon needs the central service, which makes its code: try again when the till is online',
        '(root)',
      );
    const sale = saleOf(i, plan, staffRefOf(this.wf.staff!));
    // Durable before the request leaves: a till killed before the answer is recorded finds
    // this at its next start (recoverAttempts) or on a resend of the key, and queues it.
    store.couponAttempts.begin(i.transaction_id, hash, sale, clock.now());
    const online = await sync.client.write('couponsSell', plan.body, i.transaction_id, {
      deadlineMs: config.central.timeouts.online_deadline_ms,
    });
    if (online.ok)
      return this.printed(this.record(i.transaction_id, hash, sale, online.value), sale);
    const f = online.failure;
    if (f.kind === 'http' && !f.retryable) {
      // A definite answer: the central service applied nothing.
      store.couponAttempts.end(i.transaction_id);
      return refuse(f.code, `the central service refused it: ${f.message}`, f.path ?? '(root)');
    }
    // No answer: it may have been applied. Queued under the same key, delivered once.
    const out = this.record(i.transaction_id, hash, sale, null);
    sync.kick();
    return this.printed(out, sale);
  }

  /**
   * Coupon sales a killed run sent and never recorded: each is recorded queued under its key
   * from the sale kept with the attempt (the price held, `coupon: null`), so the outbox
   * delivers it once and the central service, which may have applied it, and the till agree;
   * a resend of the key answers that record. Run at start, before any command.
   */
  recoverAttempts(): { queued: number } {
    const { store } = this.p;
    let queued = 0;
    for (const a of store.couponAttempts.open()) {
      if (store.commandResults.has('coupon-sell', a.transactionId)) {
        store.couponAttempts.end(a.transactionId);
        continue;
      }
      this.record(a.transactionId, a.requestHash, a.sale, null);
      queued++;
    }
    if (queued > 0) this.p.sync.kick();
    return { queued };
  }

  /** The slip printed for the customer once, after the record (a repeat prints nothing). */
  private async printed(out: Output, sale: CouponAttemptSale): Promise<Output> {
    const customer = this.p.store.cache.customerById(sale.customer_id);
    const c = customer ? this.identify.summary(customer) : null;
    await this.printSlip({
      sale: out,
      title: sale.title,
      accountTitle: c?.special_accounts.find((a) => a.id === sale.special_account_id)?.title,
      customer: c?.name,
      soldAt: this.p.clock.now(),
    });
    return out;
  }

  /**
   * A queued sale asked again: once the outbox delivered it, the central service's answer
   * gives the coupon to print (the kept answer stays as given).
   */
  private delivered(kept: Output): Output {
    if (kept.coupon !== null) return kept;
    const row = this.p.store.outbox.byTransaction(kept.transaction_id);
    const sold = row?.status === 'done' ? CouponSoldInbound.safeParse(row.response) : null;
    if (!sold?.success) return kept;
    const c = sold.data.coupon;
    return {
      ...kept,
      coupon: {
        id: c.id,
        code: c.code,
        ...(c.title ? { title: c.title } : {}),
        ...(c.expire_date ? { expire_date: c.expire_date } : {}),
      },
      balance: sold.data.balance,
      sync: 'done',
    };
  }

  /** The batches the till sells (`coupon-batches`): those with a price, by title. */
  onSale(): CommandOutput<'coupon-batches'> {
    const batches: CouponBatchOnSale[] = [];
    for (const cached of this.p.store.cache.all('coupon_batch')) {
      const b = onSaleOf(cached);
      if (!b.price) continue;
      batches.push({
        id: b.id,
        title: b.title,
        ...(b.description ? { description: b.description } : {}),
        price: b.price,
        special_account_id: b.accountId,
        ...(b.accountTitle ? { special_account_title: b.accountTitle } : {}),
      });
    }
    batches.sort((a, b) => a.title.localeCompare(b.title));
    return { batches };
  }

  /** The batch's price, who pays and from what, checked against what the till knows. */
  private plan(i: Input): Plan | ErrorResponse {
    const { store } = this.p;
    const customer = store.cache.customerById(i.customer_id);
    if (!customer)
      return refuse(
        'customer-not-found',
        'this customer is not known here: identify them first (card, phone or QR code)',
        'customer_id',
      );
    const cached = store.cache.get('coupon_batch', i.batch_id);
    if (!cached) return refuse('batch-not-found', 'no such coupon batch', 'batch_id');
    const batch = onSaleOf(cached);
    if (!batch.price)
      return refuse(
        'not-for-sale',
        `${batch.title} has no price: it is not sold at the till`,
        'batch_id',
      );
    const { title, price } = batch;
    const { type, amount, currency } = price;
    const accountId =
      type === 'special-account'
        ? (i.special_account_id ??
          batch.accountId ??
          this.moneyAccountOf(customer, currency) ??
          null)
        : null;
    if (type === 'bonuses' && i.special_account_id !== undefined)
      return refuse(
        'invalid-input',
        `${title} is paid with bonuses, not from an account`,
        'special_account_id',
      );
    const short = this.shortfall(customer, price, accountId, title);
    if (short) return short;
    return {
      customer,
      price,
      accountId,
      title,
      body: {
        transaction_id: i.transaction_id,
        terminal_id: this.p.terminalId,
        customer_id: i.customer_id,
        batch_id: i.batch_id,
        price_type: type,
        amount,
        ...(currency ? { currency } : {}),
        ...(accountId ? { special_account_id: accountId } : {}),
      },
    };
  }

  /** The customer's own money account in the price's currency, when one is not named. */
  private moneyAccountOf(c: CachedCustomer, currency: string | undefined): string | undefined {
    return this.identify
      .summary(c)
      .special_accounts.find(
        (a) =>
          a.payment_type === 'special-account' &&
          a.type === 'money' &&
          (!currency || !a.currency || a.currency === currency),
      )?.id;
  }

  /** The customer's account `accountId` as the till shows it, if it pays for things. */
  private accountOf(c: CachedCustomer, accountId: string | null) {
    return this.identify
      .summary(c)
      .special_accounts.find((x) => x.id === accountId && x.payment_type === 'special-account');
  }

  /** What the customer can pay with now, as the till knows it (cache less its holds). */
  private available(c: CachedCustomer, price: Price, accountId: string | null): Dec | null {
    if (price.type === 'bonuses') return this.bonusOps.regularNow(c);
    const a = this.accountOf(c, accountId);
    return a?.available == null ? null : dec(a.available);
  }

  private shortfall(
    c: CachedCustomer,
    price: Price,
    accountId: string | null,
    title: string,
  ): ErrorResponse | null {
    let left: Dec | null;
    if (price.type === 'bonuses') left = this.bonusOps.regularNow(c);
    else {
      const a = this.accountOf(c, accountId);
      if (!a)
        return refuse(
          'account-not-found',
          'the customer has no such account to pay from',
          'special_account_id',
        );
      left = a.available === null ? null : dec(a.available);
    }
    if (left === null || !gt(dec(price.amount), left)) return null;
    const what = price.type === 'bonuses' ? 'bonuses' : (price.currency ?? '');
    return refuse(
      'insufficient-funds',
      `${title} costs ${price.amount} ${what}, the customer has ${toNumber(left)} ${what}`.replace(
        / +/g,
        ' ',
      ),
      price.type === 'bonuses' ? 'customer_id' : 'special_account_id',
      { price: price.amount, available: toNumber(left) },
    );
  }

  /**
   * The sale recorded with its answer (`sold`) or queued (null), its attempt ended and the
   * answer kept in the same transaction.
   */
  private record(
    id: string,
    hash: string,
    sale: CouponAttemptSale,
    sold: CouponSold | null,
  ): Output {
    const { store, clock } = this.p;
    const now = clock.now();
    const answered: Answered = sold ? { status: 'done', response: sold } : { status: 'queued' };
    const price: Price = sale.price;
    return store.write(() => {
      store.record(
        couponSaleOperation({
          id,
          subtype: sold ? 'online' : 'offline',
          localDate: posToday(store.cache, now),
          customerId: sale.customer_id,
          price,
          accountId: sale.special_account_id,
          code: sold?.coupon.code ?? null,
          body: sale.body,
          answered,
          meta: payloadMetaOf(this.p, now),
        }),
      );
      store.couponAttempts.end(id);
      const customer = store.cache.customerById(sale.customer_id);
      const left =
        sold?.balance ??
        (customer ? this.available(customer, price, sale.special_account_id) : null);
      const out: Output = {
        transaction_id: id,
        customer_id: sale.customer_id,
        batch_id: sale.batch_id,
        price,
        special_account_id: sale.special_account_id,
        coupon: sold
          ? {
              id: sold.coupon.id,
              code: sold.coupon.code,
              title: sold.coupon.title ?? sale.title,
              ...(sold.coupon.expire_date ? { expire_date: sold.coupon.expire_date } : {}),
            }
          : null,
        balance: typeof left === 'number' ? left : left === null ? 0 : toNumber(left),
        subtype: sold ? 'online' : 'offline',
        sync: sold ? 'done' : 'queued',
        staff: sale.staff,
        recorded_at: iso(now)!,
      };
      store.commandResults.put('coupon-sell', id, hash, out, now);
      this.p.log.info('coupon sold', { batch_id: sale.batch_id, sync: out.sync });
      return out;
    });
  }
}

/** What an attempt keeps of a planned sale: enough to record it queued later. */
function saleOf(i: Input, plan: Plan, staff: CouponAttemptSale['staff']): CouponAttemptSale {
  return {
    customer_id: i.customer_id,
    batch_id: i.batch_id,
    price: plan.price,
    special_account_id: plan.accountId,
    title: plan.title,
    body: plan.body,
    staff,
  };
}

/** A cached batch read through its price's schema: its title and price, if it has one. */
function onSaleOf(cached: { id: string }) {
  // The feed's checks typed these fields; a batch that still does not read has no price.
  const read = CouponBatchPrice.safeParse(cached);
  const b = read.success ? read.data : { id: cached.id };
  const type = b.customers_price_type;
  const amount = b.customers_price_amount;
  const currency = b.customers_price_currency ?? undefined;
  const price: Price | null =
    (type === 'bonuses' || type === 'special-account') && typeof amount === 'number'
      ? { type, amount, ...(currency ? { currency } : {}) }
      : null;
  return {
    id: b.id,
    title: b.public_title ?? 'the coupon',
    description: b.public_description,
    price,
    accountId: type === 'special-account' ? (b.customers_price_special_account_id ?? null) : null,
    accountTitle: b.customers_price_special_account_title ?? undefined,
  };
}
