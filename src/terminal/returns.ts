// Cancelling a processed check and refunding some of its lines (engine.md 15): computed from
// the check as this terminal stored it, never recalculated with today's rules. The money goes
// back the way it came (a card payment is reversed or refunded on the unit first; a failure
// there records nothing), and the cancellation or refund, its bonus, account and coupon
// effects and its outbox row commit in one transaction. Bonuses a write-off could not take
// are owed (an attention item), never silently lost.
import type {
  CommandOutput,
  ErrorResponse,
  HandlerInput,
  SaleSync,
  SignedInStaff,
  Warning,
} from '../contract/commands.js';
import { isAccountType, TransactionPaymentType } from '../contract/enums.js';
import type { EngineCheckResult, EngineProcessedCheck } from '../contract/engine.js';
import { add, dec, fromMinor, gt, min, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import { calculate, remainderOf } from '../engine/index.js';
import type { JournalEntry } from '../devices/payment-journal.js';
import { paymentRecordOf, type CardPayments } from './card-payments.js';
import { businessStaffOf } from './business-staff.js';
import { engineRefusal, saleSyncOf } from './checkout.js';
import { posToday } from './pos-date.js';
import { preparedRules } from './sale-service.js';
import { refuse } from './command-map.js';
import type { OperationInput } from '../store/ledger.js';
import { StoreError } from '../store/errors.js';
import type { RecordedRefund } from '../store/refunds.js';
import { InFlight, requestHash } from './idempotency.js';
import {
  accountsOf,
  cancellationOperation,
  refundOperation,
  type PayloadMeta,
  type ReturnOp,
  payloadMetaOf,
} from './ledger-ops.js';
import type { TerminalPorts } from './ports.js';
import { takenBack } from './taken-back.js';

/** A card charge of a sale and what it has not given back yet. */
interface CardCharge {
  readonly entry: JournalEntry;
  left: Dec;
}

/** A stored sale a return gives back from, and its customer. */
interface Sale {
  readonly original: EngineProcessedCheck;
  readonly customerId: string | null;
}

/** A sale being refunded, with the refunds recorded against it before this one. */
interface RefundedSale extends Sale {
  readonly earlier: readonly RecordedRefund[];
}

/** A return computed from the stored check: what goes back and the bonuses left owed. */
interface Computed {
  readonly back: EngineCheckResult;
  readonly owed: number;
  readonly warnings: Warning[];
}

/** The card operations that gave a return's money back, under the return's id. */
interface CardsBack {
  readonly opId: string;
  readonly settled: JournalEntry[];
}

/** A refund's money given back: its card operations and every payment it records. */
interface Repaid extends CardsBack {
  readonly payments: ReturnOp['payments'];
}

/** Which stored record of a sale no longer reads: its check, a refund's, the kept answer. */
type UnreadableRecord = 'sale' | 'refund' | 'answer';

/** What a cashier is told of each, naming the sale. */
const UNREADABLE: Record<UnreadableRecord, (saleId: string) => string> = {
  sale: (id) =>
    `sale ${id} is recorded, but its stored check no longer reads: nothing can be given back here; do not sell it again, call support`,
  refund: (id) =>
    `sale ${id} is recorded, but a stored refund of it no longer reads: nothing can be given back here; do not sell it again, call support`,
  answer: (id) =>
    `this return of sale ${id} is recorded, but its kept answer no longer reads: it was not done again; see sale-status, or call support`,
};

/** How a return is booked: its subtype and the local date at the sale's POS. */
interface Booking {
  readonly subtype: 'online' | 'offline';
  readonly localDate: string;
}

/** Refunds give back to the last card charged first (docs/terminal.md, "Bank cards"). */
const lastFirst = <T>(charges: readonly T[]): T[] => [...charges].reverse();

/**
 * The driver's access a corporate sale was charged through (its payment_id, as the sale
 * recorded it): what it gives back is credited through the same access, so the driver's
 * usage is given back too.
 */
function accessOf(original: EngineProcessedCheck): string | undefined {
  return original.payment_type === 'corporate-special-account'
    ? (original.payment_id ?? undefined)
    : undefined;
}

export class ReturnsService {
  private readonly p: TerminalPorts;
  private readonly cards: CardPayments;

  constructor(p: TerminalPorts, cards: CardPayments) {
    this.p = p;
    this.cards = cards;
  }

  private subtype(): 'online' | 'offline' {
    return this.p.sync.link.current === 'offline' ? 'offline' : 'online';
  }

  /** What every outbox payload carries besides its body. */
  private meta(): PayloadMeta {
    return payloadMetaOf(this.p);
  }

  /**
   * The card charges of a sale (purchases, or the completion of a pump's pre-authorisation),
   * each with what it has not given back yet: its amount less the refunds made onto it by the
   * given refunds. A charge reversed before the sale took (refused, or a kill's, then retried)
   * paid nothing. A refund names the charge it gave back to by its receipt; one that names
   * none (made before refunds did) counts against the last charge first, as refunds choose.
   */
  private cardCharges(saleId: string, refundIds: readonly string[]): CardCharge[] {
    const charges = this.cards
      .forTransaction(saleId)
      .filter(
        (e) =>
          (e.operation === 'purchase' || e.operation === 'completion') &&
          e.status === 'success' &&
          !this.cards.reversed(e.id),
      )
      .map((entry) => ({ entry, left: fromMinor(entry.amount_cents, 2) }));
    let unnamed = ZERO;
    for (const id of refundIds)
      for (const e of this.cards.forTransaction(id)) {
        if (e.operation !== 'refund' || e.status !== 'success') continue;
        const onto = charges.find(
          (c) => e.original_receipt !== null && c.entry.receipt_no === e.original_receipt,
        );
        if (onto) onto.left = sub(onto.left, fromMinor(e.amount_cents, 2));
        else unnamed = add(unnamed, fromMinor(e.amount_cents, 2));
      }
    for (const c of lastFirst(charges)) {
      const take = min(c.left, unnamed);
      c.left = sub(c.left, take);
      unnamed = sub(unnamed, take);
    }
    return charges.filter((c) => gt(c.left, ZERO));
  }

  /**
   * Gives `amount` back to the sale's cards, the last card charged first, one refund per card
   * for its own part (the unit credits the card presented; the journal names the charge by
   * its receipt). Refunds a kill lost under this refund's id are adopted, per card.
   */
  private async refundToCards(
    charges: readonly CardCharge[],
    amount: Dec,
    refundId: string,
  ): Promise<{ ok: true; settled: JournalEntry[] } | { ok: false; error: ErrorResponse }> {
    const adopted = this.cards.refundsOf(refundId);
    const named = (c: CardCharge) =>
      adopted.filter(
        (e) => c.entry.receipt_no !== null && e.original_receipt === c.entry.receipt_no,
      );
    // Refunds a kill lost that name no charge (made before refunds named one) count last first.
    let unnamed = adopted
      .filter((e) => !charges.some((c) => named(c).includes(e)))
      .reduce((sum, e) => add(sum, fromMinor(e.amount_cents, 2)), ZERO);
    // Every adopted refund is this refund's money, whichever card it went to.
    const settled = [...adopted];
    let rest = amount;
    for (const c of lastFirst(charges)) {
      if (!gt(rest, ZERO)) break;
      const part = min(c.left, rest);
      rest = sub(rest, part);
      let missing = named(c).reduce((left, e) => sub(left, fromMinor(e.amount_cents, 2)), part);
      const fromUnnamed = min(unnamed, gt(missing, ZERO) ? missing : ZERO);
      unnamed = sub(unnamed, fromUnnamed);
      missing = sub(missing, fromUnnamed);
      if (!gt(missing, ZERO)) continue;
      const r = await this.cards.run('refund', toNumber(missing), refundId, c.entry.receipt_no);
      if (!r.ok) return r;
      settled.push(r.entry);
    }
    return { ok: true, settled };
  }

  /** The account money a return gives back, through the access the sale was charged through. */
  private accountsBack(original: EngineProcessedCheck, back: EngineCheckResult) {
    return accountsOf(this.p.store.cache, back.special_accounts_charges ?? [], {
      back: true,
      via: accessOf(original),
    });
  }

  private noteOwed(customerId: string | null, opId: string, owed: number): void {
    if (!customerId || owed <= 0) return;
    this.p.store.attention.note(
      {
        id: this.p.ids.newId(),
        kind: 'bonuses-owed',
        ref: opId,
        transactionId: opId,
        message: `the customer owes ${owed} bonuses: the write-off exceeded the balance`,
        details: { customer_id: customerId, bonuses: owed },
      },
      this.p.clock.now(),
    );
  }

  /**
   * The refunds recorded against a sale, or `sale-unreadable` naming the sale when one of
   * them no longer reads (the store refuses such a row as `invalid-record`).
   */
  private refundsOf(saleId: string, path: string): readonly RecordedRefund[] | ErrorResponse {
    try {
      return this.p.store.refunds.of(saleId);
    } catch (e) {
      if (!(e instanceof StoreError) || e.code !== 'invalid-record') throw e;
      return this.unreadable(saleId, path, 'refund', e.message);
    }
  }

  /**
   * A return of a recorded sale one of whose stored records (the sale, a refund of it, the
   * return's kept answer) no longer reads back through its schema: a refusal naming the sale,
   * with nothing given back, never 500 (docs/terminal.md). The log keeps what failed to read.
   */
  private unreadable(
    saleId: string,
    path: string,
    record: UnreadableRecord,
    problem: string,
  ): ErrorResponse {
    this.p.log.warn('a stored record of a sale no longer reads', {
      transaction_id: saleId,
      record,
      problem,
    });
    return refuse('sale-unreadable', UNREADABLE[record](saleId), path, {
      transaction_id: saleId,
      record,
    });
  }

  private readonly inFlight = new InFlight();

  cancel(
    input: HandlerInput<'sale-cancel'>,
    by: SignedInStaff | null = null,
  ): Promise<CommandOutput<'sale-cancel'> | ErrorResponse> {
    const hash = requestHash(input);
    return this.inFlight.run(
      `cancel:${input.transaction_id}`,
      hash,
      () =>
        refuse(
          'idempotency-conflict',
          'this sale is being cancelled with another request',
          'transaction_id',
        ),
      () => this.cancelOnce(input, hash, by),
    );
  }

  refund(
    input: HandlerInput<'sale-refund'>,
    by: SignedInStaff | null = null,
  ): Promise<CommandOutput<'sale-refund'> | ErrorResponse> {
    const hash = requestHash(input);
    return this.inFlight.run(
      `refund:${input.transaction_id}`,
      hash,
      () =>
        refuse(
          'idempotency-conflict',
          'this transaction_id is being used for another refund',
          'transaction_id',
        ),
      () => this.refundOnce(input, hash, by),
    );
  }

  private async cancelOnce(
    input: HandlerInput<'sale-cancel'>,
    hash: string,
    by: SignedInStaff | null,
  ): Promise<CommandOutput<'sale-cancel'> | ErrorResponse> {
    const id = input.transaction_id;
    const kept = this.keptCancel(id, hash);
    if (kept) return kept;
    const sale = this.cancellable(id);
    if ('error' in sale) return sale;
    const computed = this.computeCancel(id, by);
    if ('error' in computed) return computed;
    await this.saleSentFirst(id);
    const cards = await this.reverseCards(id);
    if ('error' in cards) return cards;
    const at = this.bookedAt(sale.original);
    const answer = this.recordCancel({ input, hash, by, sale, computed, cards, at });
    this.p.sync.kick();
    this.p.log.info('sale cancelled', {
      transaction_id: id,
      cancellation_id: cards.opId,
      subtype: at.subtype,
      owed: computed.owed,
    });
    return answer;
  }

  /** The answer kept for this cancel (same request), a conflict (another), or null (none). */
  private keptCancel(
    id: string,
    hash: string,
  ): CommandOutput<'sale-cancel'> | ErrorResponse | null {
    const kept = this.p.store.commandResults.read('sale-cancel', id);
    if (!kept) return null;
    if (kept.requestHash !== hash)
      return refuse(
        'idempotency-conflict',
        'this sale was cancelled with another request',
        'transaction_id',
      );
    if (!kept.read.ok) return this.unreadable(id, 'transaction_id', 'answer', kept.read.problem);
    return kept.read.value;
  }

  /** The stored sale, when it may be cancelled whole: a sale, not cancelled, not refunded. */
  private cancellable(id: string): Sale | ErrorResponse {
    const { ledger } = this.p.store;
    const stored = ledger.readCheck(id);
    const status = ledger.status(id);
    if (!stored || !status) return saleNotFound('transaction_id');
    if (!stored.document.ok)
      return this.unreadable(id, 'transaction_id', 'sale', stored.document.problem);
    const original = stored.document.value;
    if (original.transaction_type === 'refund')
      return refuse(
        'not-a-sale',
        'a refund is not cancelled; sell again instead',
        'transaction_id',
      );
    if (stored.cancelledBy !== null)
      return refuse('already-cancelled', 'this check is already cancelled', 'transaction_id');
    const refunds = this.refundsOf(id, 'transaction_id');
    if ('error' in refunds) return refunds;
    if (refunds.length > 0)
      return refuse(
        'sale-refunded',
        'some lines were refunded already: refund the rest instead',
        'transaction_id',
      );
    return { original, customerId: status.customerId };
  }

  /** The whole sale given back, computed from its stored check. */
  private computeCancel(id: string, by: SignedInStaff | null): Computed | ErrorResponse {
    const ctx = this.p.store.assembleRefund({ transactionId: id });
    if (!ctx) return saleNotFound('transaction_id');
    const result = calculate(ctx.context, preparedRules(ctx.rules));
    if ('error' in result) return engineRefusal(result.error);
    return {
      // The cancel is the signed-in staff member's, not the seller's (the stored sale keeps its).
      back: { ...result.check, ...businessStaffOf(by) },
      owed: result.owed?.bonuses ?? 0,
      warnings: result.warnings as Warning[],
    };
  }

  /** The sale first, if it is still on its way: a cancel must not overtake it. */
  private async saleSentFirst(id: string): Promise<void> {
    const saleRow = this.p.store.outbox.byTransaction(id);
    if (saleRow && saleRow.status !== 'done' && saleRow.status !== 'rejected')
      await this.p.sync.push().catch(() => undefined);
  }

  /**
   * Each card charge of the sale reversed on its own receipt, for its own amount (no refund
   * came before a cancel: the whole charge is standing). A cancel a kill lost after reversing
   * cards: its reversals (and its id) are adopted.
   */
  private async reverseCards(id: string): Promise<CardsBack | ErrorResponse> {
    await this.cards.settled;
    const adopted = this.cards.unrecordedReversals(id);
    const opId = adopted[0]?.transaction_id ?? this.p.ids.newId();
    const settled: JournalEntry[] = [...adopted];
    for (const c of this.cardCharges(id, [])) {
      const r = await this.cards.run('cancel', toNumber(c.left), opId, c.entry.receipt_no);
      if (!r.ok) return r.error;
      settled.push(r.entry);
    }
    return { opId, settled };
  }

  /** The cancel, its card reversals and its kept answer, in one transaction. */
  private recordCancel(c: {
    input: HandlerInput<'sale-cancel'>;
    hash: string;
    by: SignedInStaff | null;
    sale: Sale;
    computed: Computed;
    cards: CardsBack;
    at: Booking;
  }): CommandOutput<'sale-cancel'> {
    const { original, customerId } = c.sale;
    const { back, owed, warnings } = c.computed;
    const id = c.input.transaction_id;
    const paid = original.payments?.length
      ? original.payments.map((p) => ({ type: p.type, amount: p.amount }))
      : [{ type: original.payment_type ?? 'cash', amount: original.amount_to_pay ?? 0 }];
    return this.commitReturn({
      command: 'sale-cancel',
      key: id,
      hash: c.hash,
      cards: c.cards,
      at: c.at,
      customerId,
      owed,
      op: () =>
        cancellationOperation({
          id: c.cards.opId,
          transactionId: id,
          comment: c.input.comment ?? null,
          by: businessStaffOf(c.by),
          ...c.at,
          customerId,
          back,
          owed,
          payments: paid,
          accounts: this.accountsBack(original, back),
          meta: this.meta(),
        }),
      answer: (sync) => ({
        transaction_id: id,
        check: back,
        warnings,
        payments: c.cards.settled.map(paymentRecordOf),
        paid_back: paidBack(paid),
        ...(owed > 0 ? { owed: { bonuses: owed } } : {}),
        sync,
      }),
    });
  }

  private async refundOnce(
    input: HandlerInput<'sale-refund'>,
    hash: string,
    by: SignedInStaff | null,
  ): Promise<CommandOutput<'sale-refund'> | ErrorResponse> {
    const id = input.transaction_id;
    const kept = this.keptRefund(input, hash);
    if (kept) return kept;
    const sale = this.refundable(input);
    if ('error' in sale) return sale;
    const computed = this.computeRefund(input, sale, by);
    if ('error' in computed) return computed;
    const toPayBack = dec(computed.back.amount_to_pay ?? 0);
    const paid = await this.payBack(input, sale, toPayBack);
    if ('error' in paid) return paid;
    const answer = this.recordRefund({ input, hash, by, sale, computed, paid });
    this.p.sync.kick();
    this.p.log.info('sale refunded', {
      transaction_id: id,
      original_transaction_id: input.original_transaction_id,
      amount: toNumber(toPayBack),
      owed: computed.owed,
    });
    return answer;
  }

  /**
   * The answer kept for this refund (same request, with its sync now), a conflict (another
   * request, or an id of another operation), or null (none).
   */
  private keptRefund(
    input: HandlerInput<'sale-refund'>,
    hash: string,
  ): CommandOutput<'sale-refund'> | ErrorResponse | null {
    const { store } = this.p;
    const id = input.transaction_id;
    const kept = store.commandResults.read('sale-refund', id);
    if (kept) {
      if (kept.requestHash !== hash)
        return refuse(
          'idempotency-conflict',
          'this transaction_id was used for another refund',
          'transaction_id',
        );
      // Same request, so the same sale: the one named.
      if (!kept.read.ok)
        return this.unreadable(
          input.original_transaction_id,
          'original_transaction_id',
          'answer',
          kept.read.problem,
        );
      return { ...kept.read.value, sync: saleSyncOf(store.outbox.byTransaction(id)) };
    }
    if (store.ledger.status(id))
      return refuse(
        'idempotency-conflict',
        'this transaction_id names another operation',
        'transaction_id',
      );
    return null;
  }

  /**
   * The stored sale and its earlier refunds, when these lines may be refunded: a sale, not
   * cancelled, each line with as much left as is asked.
   */
  private refundable(input: HandlerInput<'sale-refund'>): RefundedSale | ErrorResponse {
    const { store } = this.p;
    const originalId = input.original_transaction_id;
    const stored = store.ledger.readCheck(originalId);
    if (!stored) return saleNotFound('original_transaction_id');
    if (!stored.document.ok)
      return this.unreadable(
        originalId,
        'original_transaction_id',
        'sale',
        stored.document.problem,
      );
    const original = stored.document.value;
    if (original.transaction_type === 'refund')
      return refuse('not-a-sale', 'a refund is not refunded', 'original_transaction_id');
    if (stored.cancelledBy !== null)
      return refuse('already-cancelled', 'this check is cancelled', 'original_transaction_id');
    const earlier = this.refundsOf(originalId, 'original_transaction_id');
    if ('error' in earlier) return earlier;
    const over = overRefunded(input.lines, original, earlier);
    if (over) return over;
    const customerId = store.ledger.status(originalId)?.customerId ?? null;
    return { original, customerId, earlier };
  }

  /**
   * The lines given back, computed from the stored check. Refunded in steps: each step
   * refunds from what the earlier ones left (engine.md 15), so the last step returns exactly
   * the rest and the steps add up to a cancel.
   */
  private computeRefund(
    input: HandlerInput<'sale-refund'>,
    sale: RefundedSale,
    by: SignedInStaff | null,
  ): Computed | ErrorResponse {
    const originalId = input.original_transaction_id;
    const assembled = this.p.store.assembleRefund({
      transactionId: originalId,
      lines: input.lines,
    });
    if (!assembled) return saleNotFound('original_transaction_id');
    const context = {
      ...assembled.context,
      original: remainderOf(sale.original, sale.earlier.map(stepOf)),
    };
    const result = calculate(context, preparedRules(assembled.rules));
    if ('error' in result)
      return engineRefusal(result.error, result.error.path.replace(/^refund_lines/, 'lines'));
    const back: EngineCheckResult = {
      ...result.check,
      transaction_id: input.transaction_id,
      preliminary_transaction_id: originalId,
      ...(input.comment ? { comment: input.comment } : {}),
      ...businessStaffOf(by),
      external_additional_info: {
        ...(result.check.external_additional_info ?? {}),
        refund_lines: input.lines,
      },
    };
    return { back, owed: result.owed?.bonuses ?? 0, warnings: result.warnings as Warning[] };
  }

  /**
   * Card money back to the cards (as far as they paid), the rest in cash (or to the account
   * the sale was paid from): what was settled on the unit and the refund's payments.
   */
  private async payBack(
    input: HandlerInput<'sale-refund'>,
    sale: RefundedSale,
    toPayBack: Dec,
  ): Promise<Repaid | ErrorResponse> {
    await this.cards.settled;
    const charges = this.cardCharges(
      input.original_transaction_id,
      sale.earlier.map((r) => r.id),
    );
    const cardLeft = charges.reduce((sum, c) => add(sum, c.left), ZERO);
    const toCard = min(cardLeft, toPayBack);
    const id = input.transaction_id;
    const refunded = await this.refundToCards(charges, toCard, id);
    if (!refunded.ok) return refunded.error;
    const { settled } = refunded;
    const cash = sub(toPayBack, toCard);
    const payType = isAccountType(sale.original.payment_type) ? sale.original.payment_type : 'cash';
    const payments = [
      // Each card's refund is its own payment, as each card part of a sale is.
      ...settled.map((e) => ({
        type: 'bank-card',
        id: e.id,
        amount: toNumber(fromMinor(e.amount_cents, 2)),
      })),
      ...(gt(cash, ZERO) ? [{ type: payType, amount: toNumber(cash) }] : []),
    ];
    return { opId: id, settled, payments };
  }

  /** The refund, its card refunds and its kept answer, in one transaction. */
  private recordRefund(r: {
    input: HandlerInput<'sale-refund'>;
    hash: string;
    by: SignedInStaff | null;
    sale: RefundedSale;
    computed: Computed;
    paid: Repaid;
  }): CommandOutput<'sale-refund'> {
    const { input, sale, paid } = r;
    const { back, owed, warnings } = r.computed;
    const id = input.transaction_id;
    const originalId = input.original_transaction_id;
    const body: Record<string, unknown> = {
      transaction_id: id,
      original_transaction_id: originalId,
      lines: input.lines,
      ...(input.comment ? { comment: input.comment } : {}),
      ...businessStaffOf(r.by),
    };
    const at = this.bookedAt(sale.original);
    return this.commitReturn({
      command: 'sale-refund',
      key: id,
      hash: r.hash,
      cards: paid,
      at,
      customerId: sale.customerId,
      owed,
      op: () =>
        refundOperation({
          id,
          originalTransactionId: originalId,
          posId: sale.original.pos?.id ?? null,
          ...at,
          customerId: sale.customerId,
          back,
          owed,
          payments: paid.payments,
          accounts: this.accountsBack(sale.original, back),
          body,
          meta: this.meta(),
        }),
      answer: (sync) => ({
        transaction_id: id,
        original_transaction_id: originalId,
        check: back,
        warnings,
        payments: paid.settled.map(paymentRecordOf),
        paid_back: paidBack(paid.payments),
        ...(owed > 0 ? { owed: { bonuses: owed } } : {}),
        sync,
      }),
    });
  }

  /** How a return is booked: online or offline now, on today's date at the sale's POS. */
  private bookedAt(original: EngineProcessedCheck): Booking {
    return {
      subtype: this.subtype(),
      localDate: posToday(this.p.store.cache, this.p.clock.now(), original.pos?.id),
    };
  }

  /**
   * Records a cancel or a refund with the card operations that gave its money back (reported
   * with it: both commit or neither) and the bonuses it leaves owed, and keeps its answer in
   * the same transaction: a kill cannot leave it recorded without its answer, where a retry
   * would be answered `already-cancelled`, or refused as another operation.
   */
  private commitReturn<N extends 'sale-cancel' | 'sale-refund'>(c: {
    command: N;
    key: string;
    hash: string;
    cards: CardsBack;
    at: Booking;
    customerId: string | null;
    owed: number;
    op: () => OperationInput;
    answer: (sync: SaleSync) => CommandOutput<N>;
  }): CommandOutput<N> {
    const { store, clock } = this.p;
    const { opId, settled } = c.cards;
    return store.write((): CommandOutput<N> => {
      store.record(c.op());
      this.cards.report(settled, opId, c.at.subtype, c.at.localDate);
      this.noteOwed(c.customerId, opId, c.owed);
      const kept = c.answer(saleSyncOf(store.outbox.byTransaction(opId)));
      store.commandResults.put(c.command, c.key, c.hash, kept, clock.now());
      return kept;
    });
  }
}

/** The refusal of a return whose sale this terminal did not record. */
function saleNotFound(path: string): ErrorResponse {
  return refuse('sale-not-found', 'this terminal has no processed check with this id', path);
}

/** An earlier refund as a step of the sale's remainder: the lines it took and its check. */
function stepOf(r: RecordedRefund) {
  return {
    lines: (r.document.external_additional_info?.refund_lines ?? []).map((l) => l.index),
    check: r.document,
  };
}

/** The refusal of the first asked line the sale lacks, or has less left of than asked. */
function overRefunded(
  lines: HandlerInput<'sale-refund'>['lines'],
  original: EngineProcessedCheck,
  earlier: readonly RecordedRefund[],
): ErrorResponse | null {
  const taken = takenBack(earlier);
  for (const [j, l] of lines.entries()) {
    const line = original.check_items?.[l.index];
    if (!line)
      return refuse(
        'invalid-input',
        `the original check has no line ${l.index}`,
        `lines[${j}].index`,
      );
    const left = sub(dec(line.quantity), taken.get(l.index)?.quantity ?? ZERO);
    if (gt(dec(l.quantity), left))
      return refuse(
        'refund-exceeds-sale',
        `line ${l.index} has only ${toNumber(left)} left to refund`,
        `lines[${j}].quantity`,
        { left: toNumber(left) },
      );
  }
  return null;
}

/** The answer's account of how the money went back: the return's payment parts, in order. */
function paidBack(
  parts: readonly { type: string; amount: number | string }[],
): CommandOutput<'sale-refund'>['paid_back'] {
  return parts.flatMap((p) => {
    const type = TransactionPaymentType.safeParse(p.type);
    const amount = dec(p.amount);
    return type.success && gt(amount, ZERO) ? [{ type: type.data, amount: toNumber(amount) }] : [];
  });
}
