// The sale: live calculation on every change (the engine over the local store, never waiting
// for the link), then processing: the card is charged first when the customer pays by card
// (a declined card commits nothing), the sale goes through the sync layer's sale service
// (online first when it spends, else queued; stand-in within the limits), the card operation
// is tied to the sale and reported, and the receipt is printed. A sale the sale service
// refuses after the card was charged is reversed on the card at once.
import {
  commands,
  isErrorResponse,
  type CommandOutput,
  type ErrorResponse,
  type HandlerInput,
  type SaleSync,
  type SignedInStaff,
  type Warning,
} from '../contract/commands.js';
import type { EngineCheck, EngineCheckResult, EngineError } from '../contract/engine.js';
import { isAccountType } from '../contract/enums.js';
import { KeptRefusal, type FuelAuthorisation } from '../contract/stored.js';
import {
  add,
  dec,
  eq,
  fromMinor,
  gt,
  lt,
  round,
  sub,
  toFixed as toFixedText,
  toNumber,
  ZERO,
  type Dec,
} from '../money/index.js';
import type { OutboxRow } from '../store/outbox.js';
import type { PumpFill } from '../store/pump-fills.js';
import {
  computeSale,
  transactionVoided,
  type LocalSale,
  type SaleService,
  type Sold,
} from './sale-service.js';
import type { PinLocked } from './pin-attempts.js';
import type { JournalEntry } from '../devices/payment-journal.js';
import { paymentRecordOf, type CardPayments, type PaymentRecord } from './card-payments.js';
import { refuse } from './command-map.js';
import { InFlight, requestHash } from './idempotency.js';
import type { TerminalPorts } from './ports.js';
import type { PrintSale } from './receipt-service.js';
import {
  cappedSpend,
  keptFromAuthorisation,
  linesDiffer,
  sameCustomer,
  withAuthorisedPrice,
} from './completion.js';
import {
  completionDispensed,
  FillDesk,
  fillLine,
  fillNotUnpaid,
  unpaidFills,
  type PrepayAtPump,
} from './fill-lines.js';
import { cappedPrepay } from './prepay-cap.js';
import { amountDisagrees } from './line-amounts.js';
import { withPresentedCustomer } from './presented-customer.js';
import { businessStaffOf } from './business-staff.js';
import { CatalogService } from './catalog.js';
import { catalogLines, type ManualLine } from './catalog-lines.js';
import { withTender } from './tendered-check.js';

type CheckIn = HandlerInput<'check-calc'>['check'];
type SaleAnswer = CommandOutput<'sale-process'>;

/** A fill of the sale sold by another one between its check and its record (fillsSold). */
class FillTakenMeanwhile extends Error {
  readonly refused: ErrorResponse;
  constructor(refused: ErrorResponse) {
    super(refused.error.message);
    this.refused = refused;
  }
}

/** The sale service's outcome, or the refusal of a fill taken meanwhile (any other throw). */
function takenMeanwhile(e: unknown): { refused: ErrorResponse } {
  if (e instanceof FillTakenMeanwhile) return { refused: e.refused };
  throw e;
}

/**
 * The lines entered by hand and why, kept with the check in `external_additional_info`
 * (`manual_lines`, the terminal's key), so the record and the central service see them.
 */
function withManualLines(
  info: CheckIn['external_additional_info'],
  manual: readonly ManualLine[],
): Pick<EngineCheck, 'external_additional_info'> {
  if (manual.length === 0) return {};
  return { external_additional_info: { ...info, manual_lines: manual } };
}

/** The engine's refusal as the command's error: its code, message, path and details. */
export function engineRefusal(error: EngineError | PinLocked, path = error.path): ErrorResponse {
  return refuse(error.code, error.message, path, error.details);
}

/** The sync state of one transaction's outbox row, as the contract shows it. */
export function saleSyncOf(row: OutboxRow | null): SaleSync {
  if (!row) return { state: 'queued', attempts: 0, next_attempt_at: null, error: null };
  let error: SaleSync['error'] = null;
  if (row.status === 'rejected') {
    const r = KeptRefusal.parse(row.response);
    error = {
      code: r.error?.code ?? 'rejected',
      message: r.error?.message ?? 'the central service refused this operation',
      path: r.error?.path ?? '(root)',
    };
  } else if (row.lastError) {
    const at = row.lastError.indexOf(': ');
    error = {
      code: at > 0 ? row.lastError.slice(0, at) : 'sync-failed',
      message: at > 0 ? row.lastError.slice(at + 2) : row.lastError,
      path: '(root)',
    };
  }
  return {
    state: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'queued' ? new Date(row.nextAttemptAt).toISOString() : null,
    error,
  };
}

/** Drops the PIN (and anything unknown to the loose output schema stays as data). */
function publicCheck(check: EngineCheckResult): EngineCheckResult {
  const { special_account_pin: _pin, ...rest } = check as EngineCheckResult & {
    special_account_pin?: unknown;
  };
  return rest as EngineCheckResult;
}

/**
 * An account pays the whole check, so `payments` with an account payment type may only say
 * so again: one item of that type for exactly `amount_to_pay` (what a UI that always sends
 * `payments` sends). It is folded into `payment_id` and the list dropped; anything else is a
 * split, which is cash and bank card only.
 */
function wholeAccountPayment(
  check: EngineCheck,
  toPay: ReturnType<typeof dec>,
): EngineCheck | ErrorResponse {
  const split = check.payments ?? [];
  const only = split.length === 1 ? split[0] : undefined;
  if (only === undefined || only.type !== check.payment_type)
    return refuse(
      'split-not-allowed',
      'an account pays the whole check; split between cash and card only',
      'check.payments',
    );
  if (!eq(dec(only.amount), toPay))
    return refuse(
      'payments-mismatch',
      `the account payment is ${only.amount}, the check ${toNumber(toPay)}`,
      'check.payments[0].amount',
      { amount_to_pay: toNumber(toPay), payments: only.amount },
    );
  const itemId = only.payment_id;
  if (itemId !== undefined && check.payment_id != null && itemId !== check.payment_id)
    return refuse(
      'payments-mismatch',
      'the account payment names another account than the check',
      'check.payments[0].payment_id',
    );
  const { payments: _payments, ...rest } = check;
  const paymentId = check.payment_id ?? itemId;
  return paymentId === undefined ? rest : { ...rest, payment_id: paymentId };
}

/** How a frozen check is paid: the check as sent, and the card parts to charge. */
interface Tender {
  check: EngineCheck;
  toPay: Dec;
  /** Each card part: its index in `payments` (-1: the whole check) and amount. */
  cardParts: Array<{ i: number; amount: number }>;
}

/** A tender charged: the check naming its card operations, and what the unit approved. */
interface Charged {
  sale: EngineCheck;
  charged: JournalEntry[];
  toPay: Dec;
}

/**
 * The tender for a frozen amount: an account pays the whole check; a split is cash and card
 * parts adding up to the amount exactly; a completion's card is its pre-authorisation.
 */
function tenderOf(check: EngineCheck, toPay: Dec, completion: boolean): Tender | ErrorResponse {
  let sale = check;
  let split = check.payments ?? [];
  if (split.length > 0 && isAccountType(check.payment_type)) {
    const whole = wholeAccountPayment(check, toPay);
    if ('error' in whole) return whole;
    sale = whole;
    split = [];
  }
  for (const [i, p] of split.entries()) {
    if (p.type !== 'cash' && p.type !== 'bank-card')
      return refuse(
        'split-not-allowed',
        'a split payment is cash or bank card',
        `check.payments[${i}].type`,
      );
  }
  const total = split.reduce((t, p) => add(t, dec(p.amount)), ZERO);
  if (split.length > 0 && !eq(total, toPay))
    return refuse(
      'payments-mismatch',
      `the payments add up to ${toNumber(total)}, the check to ${toNumber(toPay)}`,
      'check.payments',
      { amount_to_pay: toNumber(toPay), payments: toNumber(total) },
    );
  const cardParts = completion
    ? []
    : split.length > 0
      ? split.flatMap((p, i) => (p.type === 'bank-card' ? [{ i, amount: p.amount }] : []))
      : sale.payment_type === 'bank-card'
        ? [{ i: -1, amount: toNumber(toPay) }]
        : [];
  return { check: sale, toPay, cardParts };
}

/** The cash to give back of a fuel prepay, as a warning; null when nothing is due. */
function changeDue(prepaid: number, processed: EngineCheckResult): Warning | null {
  const change = sub(dec(prepaid), dec(processed.amount_to_pay ?? 0));
  return gt(change, ZERO)
    ? {
        code: 'change-due',
        message: `give back ${toNumber(change)} of the ${prepaid} prepaid in cash`,
        path: 'check.amount_to_pay',
      }
    : null;
}

/** Cash handed over and the change given back (exact decimals). */
interface CashTender {
  given: Dec;
  change: Dec;
}

/** The part of a tender paid in cash: the cash parts of a split, else a cash check's amount. */
function cashPart(check: EngineCheck, toPay: Dec): Dec {
  const split = check.payments ?? [];
  if (split.length > 0)
    return split.filter((p) => p.type === 'cash').reduce((t, p) => add(t, dec(p.amount)), ZERO);
  const type = check.payment_type ?? 'cash';
  return type === 'cash' ? toPay : ZERO;
}

/**
 * The cash the customer handed over against the cash part: never less (`cash-short`), and
 * only when there is a cash part; the change is what is over. Null when none was entered.
 */
function cashTenderOf(given: number | undefined, due: Dec): CashTender | ErrorResponse | null {
  if (given === undefined) return null;
  if (!gt(due, ZERO))
    return refuse('cash-not-due', 'nothing of this sale is paid in cash', 'cash_given');
  const g = dec(given);
  if (lt(g, due))
    return refuse(
      'cash-short',
      `the cash given (${given}) is less than the ${toNumber(due)} to pay in cash`,
      'cash_given',
      { cash_due: toNumber(due), cash_given: given },
    );
  return { given: g, change: sub(g, due) };
}

const cashOut = (c: CashTender) => ({ given: toNumber(c.given), change: toNumber(c.change) });

/** What settling and answering a recorded sale need. */
interface AfterSale {
  id: string;
  hash: string;
  paid: Charged;
  warnings: Warning[];
  fuel: Authorisation | null;
  cash: CashTender | null;
}

/** What a sale settles besides its money: a prepay completed, cash tendered, fills sold. */
type SaleExtras = Pick<AfterSale, 'fuel' | 'cash'> & {
  fills: PumpFill[];
  by: string;
  /** A pump that held the completed prepay and can no longer deliver on it: let go with the sale. */
  staleHold: number | null;
};

/** The check as the engine gets it, and the pump fills it sells (its last `pumpLines` lines). */
interface Completed {
  check: EngineCheck;
  fills: PumpFill[];
  pumpLines: number;
}

/** A pump authorised before fuelling (engine.md 12): what the completion books against. */
type Authorisation = FuelAuthorisation;

export class CheckoutService {
  private readonly p: TerminalPorts;
  private readonly cards: CardPayments;
  private readonly sales: SaleService;
  /** Prints a recorded sale's receipt (receipt-service.ts). */
  private readonly printSale: PrintSale;
  private readonly catalog: CatalogService;
  private readonly pumps: FillDesk;

  constructor(
    p: TerminalPorts,
    cards: CardPayments,
    sales: SaleService,
    printSale: PrintSale = () => Promise.resolve(false),
    catalog: CatalogService = new CatalogService(p),
    pumps: FillDesk = new FillDesk(),
  ) {
    this.p = p;
    this.cards = cards;
    this.sales = sales;
    this.printSale = printSale;
    this.catalog = catalog;
    this.pumps = pumps;
  }

  private posRecord(check: CheckIn): (Record<string, unknown> & { id: string }) | null {
    return this.catalog.pos(check.pos?.id);
  }

  /**
   * The check as the engine and the sale service get it: POS, loyalty and presets filled, and
   * the seller is the signed-in staff member. The request shape (check-request.ts) refuses
   * every field the terminal owns, so what the caller sent carries none of them.
   */
  private complete(check: CheckIn, by: SignedInStaff | null): Completed | { error: ErrorResponse } {
    const pos = this.posRecord(check);
    if (check.pos && !pos)
      return {
        error: refuse('unknown-pos', 'this till does not sell in that POS', 'check.pos.id'),
      };
    const loyaltyId =
      (pos?.loyalty_id as string | undefined) ?? this.p.store.cache.all('loyalty')[0]?.id;
    // Lines take the catalogue's figures; the POS's enter mode decides what else may sell.
    const completion = check.transaction_type === 'completion';
    const cat = this.catalog.catalog(pos);
    const lines = catalogLines(check.check_items ?? [], cat, completion);
    if ('error' in lines) return lines;
    // A postpay fill is a line at the pump's figures; a prepay's is its completion's (below).
    if (check.fills && check.transaction_type === 'preauthorization')
      return {
        error: refuse(
          'invalid-input',
          'a prepay is paid before the pump runs: no fill yet',
          'check.fills',
        ),
      };
    const fills = unpaidFills(check.fills ?? [], this.p.store.pumpFills, completion);
    if ('error' in fills) return fills;
    const fillLines = completion ? [] : fills.fills.map((f) => fillLine(f, cat.byCode(f.grade)));
    const items = [...lines.items, ...fillLines];
    // A tank listed on the check is there to record the dip the attendant measured in it.
    const missing = (check.tanks ?? []).findIndex((t) => t.physical_dip_amount === undefined);
    if (missing >= 0)
      return {
        error: refuse(
          'tank-dip-required',
          'enter the measured dip of this tank',
          `check.tanks[${missing}].physical_dip_amount`,
        ),
      };
    const { fills: _named, ...sent } = check;
    const out: EngineCheck = {
      ...(sent as EngineCheck),
      ...(items.length > 0 || check.check_items ? { check_items: items } : {}),
      ...withManualLines(check.external_additional_info, lines.manual),
      ...(pos ? { pos: { id: pos.id } } : {}),
      ...(loyaltyId ? { loyalty: { id: loyaltyId } } : {}),
      ...businessStaffOf(by),
    };
    // Spending a customer's value needs the customer presented, whose card then names the
    // check's customer (presented-customer.ts). A completion spends what its authorisation
    // was granted, checked then, and keeps that customer (completion.ts).
    const pumps = { fills: fills.fills, pumpLines: fillLines.length };
    if (out.transaction_type === 'completion') return { check: out, ...pumps };
    const presented = withPresentedCustomer(out, (id, type) =>
      this.p.store.cache.identify(id, type),
    );
    return 'error' in presented ? presented : { check: presented.check, ...pumps };
  }

  /**
   * A fleet payment's vehicle must be one of the fleet's vehicles the till knows: a typo
   * ("NOPE-9") would book the fuel and the odometer on no vehicle at all.
   */
  private foreignVehicle(check: EngineCheck): ErrorResponse | null {
    if (check.payment_type !== 'corporate-special-account') return null;
    const given = check.vehicle_id ?? check.corporate_vehicle?.vehicle_id;
    if (given === undefined) return null;
    const path =
      check.vehicle_id !== undefined ? 'check.vehicle_id' : 'check.corporate_vehicle.vehicle_id';
    const cache = this.p.store.cache;
    const driver = check.customer_id ? cache.customerById(check.customer_id) : null;
    // The driver's own fleet first: the check's corporate customer is the caller's word.
    const fleet =
      (typeof driver?.corporate_customer_id === 'string' ? driver.corporate_customer_id : null) ??
      check.corporate_customer_id;
    if (!fleet) return null; // no fleet to check against: the engine refuses the account
    if (cache.vehiclesOf(fleet).some((v) => v.vehicle_id === given)) return null;
    return refuse(
      'vehicle-not-found',
      `the fleet has no vehicle ${given}: check the vehicle id`,
      path,
    );
  }

  calc(
    input: HandlerInput<'check-calc'>,
    by: SignedInStaff | null = null,
  ): CommandOutput<'check-calc'> | ErrorResponse {
    const done = this.complete(input.check, by);
    if ('error' in done) return done.error;
    const check = this.completedAsSold(done, input.check.check_items);
    if ('error' in check) return check.error;
    const vehicle = this.foreignVehicle(check.check);
    if (vehicle) return vehicle;
    const result = this.compute(check.check, 'calc', done.pumpLines);
    if (!result.ok) return engineRefusal(result.error);
    return { check: publicCheck(result.local.processed), warnings: result.warnings as Warning[] };
  }

  /**
   * The check a calculation shows: a completion of a prepay this till holds is built as its
   * sale books it (from its fill, the authorised line and price), so check-calc shows the
   * pump's amount and change, not a check with no lines.
   */
  private completedAsSold(
    done: Completed,
    sent: CheckIn['check_items'],
  ): { check: EngineCheck } | { error: ErrorResponse } {
    const ref = done.check.preliminary_transaction_id;
    if (done.check.transaction_type !== 'completion' || !ref) return done;
    const held = this.p.store.commandResults.has('fuel-authorisation', ref);
    if (!held && done.fills.length === 0) return done; // typed figures, as the sale takes them
    const found = this.authorisationFor(done.check, sent, done.fills);
    return 'error' in found ? found : { check: found.check };
  }

  saleSync(transactionId: string): SaleSync {
    return saleSyncOf(this.p.store.outbox.byTransaction(transactionId));
  }

  /**
   * A recorded sale whose stored figures its answer's schema refuses (stored before the bounds
   * existed, docs/contract.md "Bounds"): a refusal that names it and says it is recorded.
   * Never 500, and never "unknown": that would invite selling it a second time.
   */
  private unreadable(id: string): ErrorResponse {
    const st = this.p.store.ledger.status(id);
    const stored = this.p.store.ledger.readCheck(id);
    return refuse(
      'sale-unreadable',
      'this sale is recorded, but its stored figures are beyond what the terminal answers (recorded before the bounds existed): do not sell it again; call support for its receipt',
      'transaction_id',
      {
        transaction_id: id,
        state: 'committed',
        subtype: st?.subtype ?? null,
        cancelled: stored ? stored.cancelledBy !== null : null,
      },
    );
  }

  /** The answer when its schema takes it (as the command map will check), else the note. */
  private readable<T>(
    id: string,
    answer: T,
    schema: { safeParse(v: unknown): { success: boolean } },
  ): T | ErrorResponse {
    return schema.safeParse(answer).success ? answer : this.unreadable(id);
  }

  status(id: string): CommandOutput<'sale-status'> | ErrorResponse {
    const pump = this.cards.pumpStatus(id);
    if (pump) return pump;
    const st = this.p.store.ledger.status(id);
    const stored = this.p.store.ledger.readCheck(id);
    const voided = stored ? null : this.p.store.ledger.voidOf(id);
    if (voided)
      return {
        transaction_id: id,
        state: 'voided',
        void_transaction_id: voided.voidId,
        reason: voided.comment ?? 'void',
      };
    if (!st || st.kind !== 'check' || !stored) {
      const payments = this.cards.forTransaction(id).map(paymentRecordOf);
      return { transaction_id: id, state: 'unknown', ...(payments.length ? { payments } : {}) };
    }
    if (!stored.document.ok) return this.unreadable(id);
    const answer: CommandOutput<'sale-status'> = {
      transaction_id: id,
      state: 'committed',
      subtype: st.subtype,
      cancelled: stored.cancelledBy !== null,
      sync: this.saleSync(id),
      check: publicCheck(stored.document.value),
    };
    return this.readable(id, answer, commands['sale-status'].output);
  }

  /** A sale recorded before (a crash between commit and answer): answered from the ledger. */
  private fromLedger(id: string): SaleAnswer | ErrorResponse | null {
    const st = this.p.store.ledger.status(id);
    const stored = this.p.store.ledger.readCheck(id);
    if (!st || !stored) return null;
    if (!stored.document.ok) return this.unreadable(id);
    const cash = this.p.store.shifts.cashTenderOf(id);
    const answer: SaleAnswer = {
      transaction_id: id,
      subtype: st.subtype,
      check: publicCheck(stored.document.value),
      warnings: [],
      payments: this.cards.forTransaction(id).map(paymentRecordOf),
      sync: this.saleSync(id),
      receipt_printed: false,
      ...(cash
        ? { cash: { given: toNumber(dec(cash.given)), change: toNumber(dec(cash.change)) } }
        : {}),
    };
    return this.readable(id, answer, commands['sale-process'].output);
  }

  private readonly inFlight = new InFlight();

  /** Sells the check; `by` is the signed-in staff member, recorded as its seller. */
  process(
    input: HandlerInput<'sale-process'>,
    by: SignedInStaff | null = null,
  ): Promise<SaleAnswer | ErrorResponse> {
    const hash = requestHash(input);
    return this.inFlight.run(
      input.transaction_id,
      hash,
      () =>
        refuse(
          'idempotency-conflict',
          'this transaction_id is being used for another sale',
          'transaction_id',
        ),
      () => this.processOnce(input, hash, by),
    );
  }

  /**
   * The sale pipeline: validate, compute once in process mode, freeze that check, charge the
   * card for exactly its amount, record and send it. The one computation is passed on to the
   * sale service, never redone; only the central service may answer other figures (online
   * first), and then a person settles the difference (attention list).
   */
  private async processOnce(
    input: HandlerInput<'sale-process'>,
    hash: string,
    by: SignedInStaff | null,
  ): Promise<SaleAnswer | ErrorResponse> {
    const id = input.transaction_id;
    const replayed = this.replay(id, hash);
    if (replayed) return replayed;
    if (this.p.store.ledger.voidOf(id)) {
      const e = transactionVoided(id);
      return refuse(e.code, e.message, e.path ?? 'transaction_id', e.details);
    }
    const done = this.complete({ ...input.check, transaction_id: id }, by);
    if ('error' in done) return done.error;
    // A fill is sold by one sale at a time: a second one waits for nothing, it is refused.
    const claim = this.pumps.claim(done.fills);
    if ('error' in claim) return claim.error;
    try {
      return await this.sellCompleted(input, hash, done, by);
    } finally {
      claim.release();
    }
  }

  /** The pipeline's sale from the completed check on (processOnce). */
  private async sellCompleted(
    input: HandlerInput<'sale-process'>,
    hash: string,
    done: Completed,
    by: SignedInStaff | null,
  ): Promise<SaleAnswer | ErrorResponse> {
    const id = input.transaction_id;
    const vehicle = this.foreignVehicle(done.check);
    if (vehicle) return vehicle;
    let check = await this.withGauge(done.check);
    if (check.transaction_type === 'preauthorization')
      return this.authorise(id, hash, check, input.cash_given);
    let fuel: Authorisation | null = null;
    let staleHold: number | null = null;
    if (check.transaction_type === 'completion') {
      const found = this.authorisationFor(check, input.check.check_items, done.fills);
      if ('error' in found) return found.error;
      fuel = found.authorisation;
      check = found.check;
      staleHold = found.staleHold;
    }
    const { fills, pumpLines } = done;
    let computed = this.compute(check, 'process', pumpLines);
    const capped = fuel && !computed.ok ? cappedSpend(check, computed.error) : null;
    if (capped) [check, computed] = [capped, this.compute(capped, 'process', pumpLines)];
    if (!computed.ok) return engineRefusal(computed.error);
    const frozen = computed.local;
    const other = fuel && sameCustomer(check, frozen.customerId, fuel.check);
    if (other) return other;
    const tender = tenderOf(check, dec(frozen.processed.amount_to_pay ?? 0), fuel !== null);
    if ('error' in tender) return tender;
    const cash = this.cashOf(input.cash_given, tender, fuel);
    if (cash !== null && 'error' in cash) return cash;
    // Written ahead, keyed by the id: a crash after the sale is recorded cannot lose it.
    if (cash)
      this.p.store.shifts.putCashTender(id, toFixedText(cash.given), toFixedText(cash.change));
    const charge = await this.charge(id, tender, fuel);
    if ('error' in charge) {
      this.p.store.shifts.dropCashTender(id);
      return charge;
    }
    const warnings = [...computed.warnings] as Warning[];
    const sold = { fuel, cash, fills, by: by?.id ?? 'integrator', staleHold };
    const answer = await this.record(id, hash, charge, frozen, warnings, sold).catch(
      (e: unknown) => {
        this.dropTenderUnsold(id); // the sale rolled back with its answer
        throw e;
      },
    );
    if ('error' in answer) this.dropTenderUnsold(id);
    return answer;
  }

  /** The cash tender written ahead goes when its sale was not recorded (refused, rolled back). */
  private dropTenderUnsold(id: string): void {
    if (!this.p.store.ledger.status(id)) this.p.store.shifts.dropCashTender(id);
  }

  /**
   * The cash handed over for this sale. A completion's cash was taken when the pump was
   * authorised: its change is the prepaid cash over the amount sold, and nothing is given now.
   */
  private cashOf(
    given: number | undefined,
    tender: Tender,
    fuel: Authorisation | null,
  ): CashTender | ErrorResponse | null {
    if (fuel && fuel.prepaidCash > 0) {
      if (given !== undefined)
        return refuse(
          'cash-not-due',
          'the cash was taken when the pump was authorised',
          'cash_given',
        );
      const prepaid = dec(fuel.prepaidCash);
      const change = sub(prepaid, tender.toPay);
      return { given: prepaid, change: gt(change, ZERO) ? change : ZERO };
    }
    return cashTenderOf(given, cashPart(tender.check, tender.toPay));
  }

  /** A sale recorded before: the kept answer (same body), else rebuilt from the ledger. */
  private replay(id: string, hash: string): SaleAnswer | ErrorResponse | null {
    const { store, clock } = this.p;
    const kept = store.commandResults.read('sale-process', id);
    if (kept) {
      if (kept.requestHash !== hash)
        return refuse(
          'idempotency-conflict',
          'this transaction_id was used for another sale',
          'transaction_id',
        );
      if (!kept.read.ok) return this.unreadable(id);
      const row = store.outbox.byTransaction(id);
      const answer = row ? { ...kept.read.value, sync: saleSyncOf(row) } : kept.read.value;
      return this.readable(id, answer, commands['sale-process'].output);
    }
    const again = this.fromLedger(id);
    if (again && !isErrorResponse(again))
      store.commandResults.put('sale-process', id, hash, again, clock.now());
    return again;
  }

  /** The engine over the local store, the PIN handed over only as "given". */
  private compute(check: EngineCheck, mode: 'calc' | 'process', pumpLines = 0) {
    const { special_account_pin: pin, ...rest } = check as EngineCheck & {
      special_account_pin?: string;
    };
    const computed = computeSale(this.p, rest as EngineCheck, pin, mode);
    const wrong = computed.ok ? amountDisagrees(check, computed.local.processed, pumpLines) : null;
    return wrong ? { ok: false as const, error: wrong } : computed;
  }

  /**
   * Charges the card parts of the tender (or completes the pump's pre-authorisation) for the
   * frozen amounts; a declined card reverses what was charged before it and commits nothing.
   */
  private async charge(
    id: string,
    tender: Tender,
    fuel: Authorisation | null,
  ): Promise<Charged | ErrorResponse> {
    const charged: JournalEntry[] = [];
    let sale = tender.check;
    if (fuel?.card) {
      // The pump's pre-authorisation is booked at what was dispensed (nothing: released).
      const final = toNumber(tender.toPay);
      if (final > 0) {
        const r = await this.cards.chargeOnce('completion', final, id, fuel.card.receipt);
        if (!r.ok) return r.error;
        charged.push(r.entry);
        sale = { ...sale, payment_type: 'bank-card', payment_id: r.entry.id };
      } else if (!this.cards.reversed(fuel.card.paymentId)) {
        const r = await this.cards.run('cancel', fuel.card.amount, id, fuel.card.receipt);
        if (!r.ok) return r.error;
      }
    }
    for (const part of fuel?.card ? [] : tender.cardParts) {
      if (part.amount <= 0) continue;
      // A retry after a kill reuses the charge still standing for this id: never twice.
      const taken = charged.map((e) => e.id);
      const r = await this.cards.chargeOnce('purchase', part.amount, id, null, taken);
      if (!r.ok) {
        await this.reverse(id, charged);
        return r.error;
      }
      charged.push(r.entry);
      sale =
        part.i < 0
          ? { ...sale, payment_id: r.entry.id }
          : {
              ...sale,
              payments: (sale.payments ?? []).map((p, i) =>
                i === part.i ? { ...p, payment_id: r.entry.id } : p,
              ),
            };
    }
    // Charges an earlier attempt of this id made for amounts this one no longer asks.
    await this.reverse(
      id,
      this.cards.strayCharges(
        id,
        charged.map((e) => e.id),
      ),
    );
    return { sale, charged, toPay: tender.toPay };
  }

  /** Reverses card operations of a sale that did not happen; one that fails needs a person. */
  private async reverse(id: string, charged: readonly JournalEntry[]): Promise<void> {
    const { store, clock, log } = this.p;
    for (const e of charged) {
      const back = await this.cards.run(
        'cancel',
        toNumber(fromMinor(e.amount_cents, 2)),
        id,
        e.receipt_no,
      );
      if (back.ok) continue;
      log.error('card reversal failed after a refused sale', {
        transaction_id: id,
        payment_id: e.id,
      });
      store.attention.note(
        {
          id: this.p.ids.newId(),
          kind: 'payment-unresolved',
          ref: e.id,
          transactionId: id,
          message: 'a card payment of a refused sale could not be reversed: check the unit',
          details: { payment_id: e.id },
        },
        clock.now(),
      );
    }
  }

  /**
   * Records the frozen sale through the sale service, ties the card to it, keeps the answer,
   * prints. When nothing left the till (no card charged, no pump pre-authorisation held), the
   * answer is kept in the record's transaction: an answer that cannot be given rolls the sale
   * back. Otherwise the sale commits first and its answer follows (docs/terminal.md). The
   * receipt is printed after the commit either way: a printer never undoes a sale.
   */
  private async record(
    id: string,
    hash: string,
    paid: Charged,
    frozen: LocalSale,
    warnings: Warning[],
    { fuel, cash, fills, by, staleHold }: SaleExtras,
  ): Promise<SaleAnswer | ErrorResponse> {
    const { log } = this.p;
    // The frozen check names the card operations that paid it, as the check sent does.
    const tendered: LocalSale = { ...frozen, processed: withTender(frozen.processed, paid.sale) };
    const after: AfterSale = { id, hash, paid, warnings, fuel, cash };
    const kept: { answer?: SaleAnswer } = {};
    const untouched = paid.charged.length === 0 && !fuel?.card;
    const keep = (sold: Sold) => {
      kept.answer = this.answerOf(after, sold, this.settle(after, sold), false);
    };
    const outcome = await this.sales
      .process({
        check: paid.sale,
        local: tendered,
        ...(untouched ? { keep } : {}),
        // In the sale's transaction: its fills sold, and the pump that can no longer deliver on
        // the prepay it completes let go (the sale, never a calculation or a refusal, does).
        ...(fills.length > 0 || staleHold !== null
          ? {
              withRecord: () => {
                if (staleHold !== null) this.p.store.pumpFills.forget(staleHold);
                if (fills.length > 0) this.fillsSold(id, fills, by);
              },
            }
          : {}),
      })
      .catch(takenMeanwhile);
    if ('refused' in outcome) {
      // a fill sold by another sale since it was checked: nothing recorded, the card goes back
      await this.reverse(id, paid.charged);
      log.error('sale refused: a fill was sold meanwhile', { transaction_id: id });
      return outcome.refused;
    }
    if (!outcome.ok) {
      await this.reverse(id, paid.charged);
      const e = outcome.error;
      log.info('sale refused', { transaction_id: id, code: e.code });
      return refuse(e.code, e.message, e.path ?? '(root)', e.details);
    }
    const print = () =>
      this.print(
        outcome.check,
        paid.sale,
        outcome.subtype === 'offline',
        undefined,
        cash ? cashOut(cash) : undefined,
      );
    log.info('sale processed', {
      transaction_id: id,
      subtype: outcome.subtype,
      sync: outcome.sync,
      amount_to_pay: outcome.check.amount_to_pay ?? 0,
      payment_type: paid.sale.payment_type ?? 'cash',
    });
    if (fills.length > 0) this.pumps.sold(fills);
    // Kept with the record, the answer says receipt_printed false (what a retry answers: a
    // retry prints nothing); this call's answer says whether it printed.
    if (kept.answer) return { ...kept.answer, receipt_printed: await print() };
    const settled = this.settle(after, outcome);
    return this.answerOf(after, outcome, settled, await print());
  }

  /**
   * The fills marked sold by this sale, in its record's transaction: checked unpaid before the
   * sale was computed, a fill sold meanwhile would be a second sale of it. The record is rolled
   * back (only a throw undoes the sale service's transaction) and `record` answers the refusal.
   */
  private fillsSold(id: string, fills: readonly PumpFill[], by: string): void {
    const { store, clock } = this.p;
    for (const [i, f] of fills.entries()) {
      const done = store.pumpFills.resolve(f.id, {
        state: 'sold',
        transactionId: id,
        at: clock.now(),
        by,
      });
      if (!done)
        throw new FillTakenMeanwhile(
          fillNotUnpaid(store.pumpFills.get(f.id) ?? f, `check.fills[${i}]`),
        );
    }
  }

  /**
   * What a recorded sale settles: its card operations tied to it, a server's differing figures
   * noted, the pump's authorisation completed. Its warnings, with the change a prepay gives.
   */
  private settle(s: AfterSale, sold: Sold): Warning[] {
    const { store, clock } = this.p;
    const { id, paid, fuel } = s;
    const processed = sold.check;
    // Booked on the sale's own date, even when midnight passes between the two (docs/terminal.md).
    this.cards.report(paid.charged, id, sold.subtype, sold.local_date);
    if (paid.charged.length > 0 && !eq(dec(processed.amount_to_pay ?? 0), paid.toPay))
      this.amountDiffers(id, paid.toPay, processed);
    if (!fuel) return s.warnings;
    store.commandResults.put('fuel-completion', fuel.id, s.hash, { completion: id }, clock.now());
    const change = fuel.prepaidCash > 0 ? changeDue(fuel.prepaidCash, processed) : null;
    return change ? [...s.warnings, change] : s.warnings;
  }

  /** The sale's answer, checked against its schema and kept (`put` throws when it cannot be). */
  private answerOf(s: AfterSale, sold: Sold, warnings: Warning[], printed: boolean): SaleAnswer {
    const { store, clock } = this.p;
    const { id, paid, cash } = s;
    const answer: SaleAnswer = {
      transaction_id: id,
      subtype: sold.subtype,
      check: publicCheck(sold.check),
      warnings,
      payments: paid.charged.map((e) => paymentRecordOf({ ...e, transaction_id: id })),
      sync: this.saleSync(id),
      receipt_printed: printed,
      ...(cash ? { cash: cashOut(cash) } : {}),
    };
    store.commandResults.put('sale-process', id, s.hash, answer, clock.now());
    return answer;
  }

  /** The server's figures differ from what the card paid: a person settles the difference. */
  private amountDiffers(id: string, paid: Dec, processed: EngineCheckResult): void {
    this.p.store.attention.note(
      {
        id: this.p.ids.newId(),
        kind: 'payment-unresolved',
        ref: `amount:${id}`,
        transactionId: id,
        message: `the card paid ${toNumber(paid)} but the processed check asks ${processed.amount_to_pay ?? 0}`,
      },
      this.p.clock.now(),
    );
  }

  /**
   * Authorises a pump (fuel prepay by amount or by quantity): nothing is sold yet, so nothing
   * reaches the ledger or the central service. A card is pre-authorised for the amount; cash
   * is taken up front; an account's required values (PIN, odometer) are verified now, so the
   * completion need not ask again.
   */
  private async authorise(
    id: string,
    hash: string,
    check: EngineCheck,
    cashGiven: number | undefined,
  ): Promise<SaleAnswer | ErrorResponse> {
    const { store, clock, log } = this.p;
    const mode = isAccountType(check.payment_type) ? 'process' : 'calc';
    let computed = this.compute(check, mode);
    // An account's limits cap the preset instead of refusing the driver (prepay-cap.ts).
    const capped = !computed.ok && mode === 'process' ? cappedPrepay(check, computed.error) : null;
    if (capped) computed = this.compute(capped.check, mode);
    if (!computed.ok) return engineRefusal(computed.error);
    const warnings = [...computed.warnings, ...(capped ? [capped.warning] : [])];
    const result = { check: computed.local.processed, warnings };
    const amount = result.check.amount_to_pay ?? 0;
    const cash = cashTenderOf(cashGiven, cashPart(check, dec(amount)));
    if (cash !== null && 'error' in cash) return cash;
    let card: Authorisation['card'] = null;
    const payments: PaymentRecord[] = [];
    if (check.payment_type === 'bank-card' && amount > 0) {
      const r = await this.cards.chargeOnce('authorize', amount, id);
      if (!r.ok) return r.error;
      card = { paymentId: r.entry.id, receipt: r.entry.receipt_no, amount };
      payments.push(paymentRecordOf(r.entry));
    }
    const authorisation: Authorisation = {
      id,
      check: publicCheck({
        ...result.check,
        transaction_id: id,
        transaction_type: 'preauthorization',
      }),
      card,
      prepaidCash: !check.payment_type || check.payment_type === 'cash' ? amount : 0,
    };
    const answer: SaleAnswer = {
      transaction_id: id,
      subtype: this.p.sync.link.current === 'offline' ? 'offline' : 'online',
      check: authorisation.check,
      warnings: result.warnings as Warning[],
      payments,
      // Nothing is owed to the central service until the completion.
      sync: { state: 'done', attempts: 0, next_attempt_at: null, error: null },
      receipt_printed: false,
      ...(cash ? { cash: cashOut(cash) } : {}),
    };
    // The prepaid cash is in the drawer now (the shift expects it), with the authorisation.
    const shift = store.shifts.current();
    store.write(() => {
      store.commandResults.put('fuel-authorisation', id, hash, authorisation, clock.now());
      if (authorisation.prepaidCash > 0 && shift)
        store.shifts.takeCashPrepay(id, shift.id, String(authorisation.prepaidCash), clock.now());
      store.commandResults.put('sale-process', id, hash, answer, clock.now());
    });
    log.info('pump authorised', {
      transaction_id: id,
      amount,
      payment_type: check.payment_type ?? 'cash',
    });
    return answer;
  }

  /** The authorisation a completion books against, its authorised values filled in. */
  private authorisationFor(
    check: EngineCheck,
    sent: CheckIn['check_items'],
    fills: readonly PumpFill[],
  ):
    | {
        authorisation: Authorisation;
        check: EngineCheck;
        /** A pump that holds the prepay but can no longer deliver on it: the sale lets it go. */
        staleHold: number | null;
      }
    | { error: ErrorResponse } {
    const ref = check.preliminary_transaction_id;
    const kept = ref ? this.p.store.commandResults.get('fuel-authorisation', ref) : null;
    if (!ref || !kept)
      return {
        error: refuse(
          'authorisation-not-found',
          'a completion names the pump authorisation it completes',
          'check.preliminary_transaction_id',
        ),
      };
    if (this.cards.releasedPump(ref))
      return {
        error: refuse(
          'authorisation-released',
          'this authorisation was released: its lifetime is over',
          'check.preliminary_transaction_id',
        ),
      };
    if (this.p.store.commandResults.has('fuel-completion', ref))
      return {
        error: refuse(
          'already-completed',
          'this authorisation was completed',
          'check.preliminary_transaction_id',
        ),
      };
    const open = this.p.store.pumpFills.pumpHolding(ref);
    // a pump that can no longer deliver on it (stopped, found idle) lets its prepay go
    const staleHold = open !== null && !this.pumps.mayDeliver(open) ? open : null;
    if (open !== null && staleHold === null)
      return {
        error: refuse(
          'prepay-pump-open',
          `pump ${open} is still released for this prepay: stop it or wait for its fill`,
          'check.preliminary_transaction_id',
          { pump: open },
        ),
      };
    const a = kept.response;
    const authorised = a.check.check_items ?? [];
    // A prepay a pump ran: the pump's dispensed litres and amount, never the caller's.
    const dispensed = completionDispensed(fills, sent, this.atPump(ref), authorised[0]);
    if (dispensed && 'error' in dispensed) return dispensed;
    const same = keptFromAuthorisation(
      dispensed ? { ...check, check_items: dispensed.items } : check,
      a.check,
    );
    if ('error' in same) return same;
    const differs = linesDiffer(sent, a.check);
    if (differs) return { error: differs };
    const items = (same.check.check_items ?? []).map((it, i) => {
      const was = authorised[i];
      return {
        ...withAuthorisedPrice(it, was),
        // A prepay by amount authorised money: the litres are the pump's, in its own digits
        // (20.00 at 1.789 runs 11.18 l against the 11.179 l the prepay's line holds).
        ...(it.authorized_quantity === undefined &&
        was &&
        was.quantity_recalculate_type === undefined
          ? { authorized_quantity: was.quantity }
          : {}),
        ...(it.authorized_amount === undefined && was?.amount !== undefined
          ? { authorized_amount: was.amount }
          : {}),
      };
    });
    const verified = isAccountType(a.check.payment_type);
    return {
      authorisation: a,
      staleHold,
      check: {
        ...same.check,
        check_items: items,
        preliminary_transaction_type: 'preauthorization',
        ...(verified ? { special_account_required_values_verify: false } : {}),
      },
    };
  }

  /** The pump this till authorised the prepay on, and the fills drawn on it. */
  private atPump(id: string): PrepayAtPump {
    const fills = this.p.store.pumpFills;
    return { id, pump: fills.pumpOfPrepay(id), drawn: fills.fillsOfPrepay(id) };
  }

  /**
   * The tanks on the check (`code` = the tank's number) get the volume before the sale, the
   * latest reading kept (the poller's or a dip, docs/forecourt.md "Tanks and wet stock"), and
   * the gauge's volume now as the volume after. A silent gauge leaves the volume after out
   * (logged); the dip stays the attendant's; a value the caller could not send is never
   * overwritten.
   */
  private async withGauge(check: EngineCheck): Promise<EngineCheck> {
    const tanks = check.tanks ?? [];
    if (tanks.length === 0) return check;
    const kept = this.p.store.tanks.latest();
    const gauge = this.p.devices?.tankGauge;
    let now: Array<{ tank: number; volume: number }> = [];
    if (gauge) {
      try {
        now = (await gauge.inventory('00')).tanks;
      } catch (e) {
        this.p.log.warn('tank gauge not read', { err: e });
      }
    }
    const numberOf = (t: { code?: string | undefined }) => Number(t.code);
    return {
      ...check,
      tanks: tanks.map((t) => {
        const before = kept.find((r) => r.tank === numberOf(t));
        const after = now.find((r) => r.tank === numberOf(t));
        return {
          ...t,
          ...(before && t.product_volume_before === undefined
            ? { product_volume_before: toNumber(dec(before.volume)) }
            : {}),
          ...(after && t.product_volume_after === undefined
            ? { product_volume_after: toNumber(round(dec(after.volume), 3)) }
            : {}),
        };
      }),
    };
  }

  /** Prints the receipt; a printer problem never undoes a sale (logged, answered false). */
  print(
    check: EngineCheckResult,
    sale: EngineCheck,
    offline: boolean,
    _title?: string,
    cash?: { given: number; change: number },
  ): Promise<boolean> {
    return this.printSale({ check, sale, offline, cash: cash ?? null });
  }
}
