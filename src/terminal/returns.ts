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
  SignedInStaff,
  Warning,
} from '../contract/commands.js';
import { isAccountType } from '../contract/enums.js';
import type { EngineCheckResult, EngineProcessedCheck } from '../contract/engine.js';
import { add, dec, fromMinor, gt, min, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import { calculate, remainderOf } from '../engine/index.js';
import type { JournalEntry } from '../devices/payment-journal.js';
import { paymentRecordOf, type CardPayments, type PaymentRecord } from './card-payments.js';
import { businessStaffOf } from './business-staff.js';
import { engineRefusal, saleSyncOf } from './checkout.js';
import { posToday } from './pos-date.js';
import { preparedRules } from './sale-service.js';
import { refuse } from './command-map.js';
import { InFlight, requestHash } from './idempotency.js';
import {
  accountsOf,
  cancellationOperation,
  refundOperation,
  type PayloadMeta,
} from './ledger-ops.js';
import type { TerminalPorts } from './ports.js';

/** A card charge of a sale and what it has not given back yet. */
interface CardCharge {
  readonly entry: JournalEntry;
  left: Dec;
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
    return {
      appVersion: this.p.app.version,
      schemaVersion: this.p.schemaVersion,
      nowMs: this.p.clock.now(),
      clockSuspect: this.p.sync.link.status().clockSuspect,
    };
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
    const { store, clock, log, sync } = this.p;
    const id = input.transaction_id;
    const kept = store.commandResults.get('sale-cancel', id);
    if (kept) {
      if (kept.requestHash !== hash)
        return refuse(
          'idempotency-conflict',
          'this sale was cancelled with another request',
          'transaction_id',
        );
      return kept.response;
    }
    const stored = store.ledger.storedCheck(id);
    const status = store.ledger.status(id);
    if (!stored || !status)
      return refuse(
        'sale-not-found',
        'this terminal has no processed check with this id',
        'transaction_id',
      );
    const original = stored.document;
    if (original.transaction_type === 'refund')
      return refuse(
        'not-a-sale',
        'a refund is not cancelled; sell again instead',
        'transaction_id',
      );
    if (stored.cancelledBy !== null)
      return refuse('already-cancelled', 'this check is already cancelled', 'transaction_id');
    const refunds = store.refunds.of(id);
    if (refunds.length > 0)
      return refuse(
        'sale-refunded',
        'some lines were refunded already: refund the rest instead',
        'transaction_id',
      );

    const ctx = store.assembleRefund({ transactionId: id });
    if (!ctx)
      return refuse(
        'sale-not-found',
        'this terminal has no processed check with this id',
        'transaction_id',
      );
    const result = calculate(ctx.context, preparedRules(ctx.rules));
    if ('error' in result) return engineRefusal(result.error);
    // The cancel is the signed-in staff member's, not the seller's (the stored sale keeps its).
    const back = { ...result.check, ...businessStaffOf(by) };
    const owed = result.owed?.bonuses ?? 0;

    // The sale first, if it is still on its way: a cancel must not overtake it.
    const saleRow = store.outbox.byTransaction(id);
    if (saleRow && saleRow.status !== 'done' && saleRow.status !== 'rejected')
      await sync.push().catch(() => undefined);

    await this.cards.settled;
    // A cancel a kill lost after reversing cards: its reversals (and its id) are adopted.
    const adopted = this.cards.unrecordedReversals(id);
    const opId = adopted[0]?.transaction_id ?? this.p.ids.newId();
    const settled: JournalEntry[] = [...adopted];
    // Each card charge is reversed on its own receipt, for its own amount (no refund came
    // before a cancel: the whole charge is standing).
    for (const c of this.cardCharges(id, [])) {
      const r = await this.cards.run('cancel', toNumber(c.left), opId, c.entry.receipt_no);
      if (!r.ok) return r.error;
      settled.push(r.entry);
    }
    const payments: PaymentRecord[] = settled.map(paymentRecordOf);
    const customerId = status.customerId;
    const paid = original.payments?.length
      ? original.payments.map((p) => ({ type: p.type, amount: p.amount }))
      : [{ type: original.payment_type ?? 'cash', amount: original.amount_to_pay ?? 0 }];
    const subtype = this.subtype();
    const localDate = posToday(this.p.store.cache, this.p.clock.now(), original.pos?.id);
    // The card's reversal is reported with the cancel it belongs to: both commit or neither.
    const answer = store.write((): CommandOutput<'sale-cancel'> => {
      store.record(
        cancellationOperation({
          id: opId,
          transactionId: id,
          comment: input.comment ?? null,
          by: businessStaffOf(by),
          subtype,
          localDate,
          customerId,
          back,
          owed,
          payments: paid,
          accounts: this.accountsBack(original, back),
          meta: this.meta(),
        }),
      );
      this.cards.report(settled, opId, subtype, localDate);
      this.noteOwed(customerId, opId, owed);
      // The answer is kept in the same transaction: a kill cannot leave the cancel recorded
      // without it, where a retry would be answered `already-cancelled`.
      const kept: CommandOutput<'sale-cancel'> = {
        transaction_id: id,
        check: back,
        warnings: result.warnings as Warning[],
        payments,
        ...(owed > 0 ? { owed: { bonuses: owed } } : {}),
        sync: saleSyncOf(store.outbox.byTransaction(opId)),
      };
      store.commandResults.put('sale-cancel', id, hash, kept, clock.now());
      return kept;
    });
    sync.kick();
    log.info('sale cancelled', { transaction_id: id, cancellation_id: opId, subtype, owed });
    return answer;
  }

  private async refundOnce(
    input: HandlerInput<'sale-refund'>,
    hash: string,
    by: SignedInStaff | null,
  ): Promise<CommandOutput<'sale-refund'> | ErrorResponse> {
    const { store, clock, log, sync } = this.p;
    const id = input.transaction_id;
    const kept = store.commandResults.get('sale-refund', id);
    if (kept) {
      if (kept.requestHash !== hash)
        return refuse(
          'idempotency-conflict',
          'this transaction_id was used for another refund',
          'transaction_id',
        );
      return {
        ...kept.response,
        sync: saleSyncOf(store.outbox.byTransaction(id)),
      };
    }
    if (store.ledger.status(id))
      return refuse(
        'idempotency-conflict',
        'this transaction_id names another operation',
        'transaction_id',
      );
    const originalId = input.original_transaction_id;
    const stored = store.ledger.storedCheck(originalId);
    if (!stored)
      return refuse(
        'sale-not-found',
        'this terminal has no processed check with this id',
        'original_transaction_id',
      );
    const original = stored.document;
    if (original.transaction_type === 'refund')
      return refuse('not-a-sale', 'a refund is not refunded', 'original_transaction_id');
    if (stored.cancelledBy !== null)
      return refuse('already-cancelled', 'this check is cancelled', 'original_transaction_id');

    // What earlier refunds took back, per line.
    const earlier = store.refunds.of(originalId);
    const taken = new Map<number, Dec>();
    for (const r of earlier) {
      const lines = r.document.external_additional_info?.refund_lines ?? [];
      for (const l of lines) taken.set(l.index, add(taken.get(l.index) ?? ZERO, dec(l.quantity)));
    }
    for (const [j, l] of input.lines.entries()) {
      const line = original.check_items?.[l.index];
      if (!line)
        return refuse(
          'invalid-input',
          `the original check has no line ${l.index}`,
          `lines[${j}].index`,
        );
      const left = sub(dec(line.quantity), taken.get(l.index) ?? ZERO);
      if (gt(dec(l.quantity), left))
        return refuse(
          'refund-exceeds-sale',
          `line ${l.index} has only ${toNumber(left)} left to refund`,
          `lines[${j}].quantity`,
          {
            left: toNumber(left),
          },
        );
    }

    const assembled = store.assembleRefund({ transactionId: originalId, lines: input.lines });
    // Refunded in steps: each step refunds from what the earlier ones left (engine.md 15), so
    // the last step returns exactly the rest and the steps add up to a cancel.
    const ctx = assembled && {
      ...assembled,
      context: {
        ...assembled.context,
        original: remainderOf(
          original,
          earlier.map((r) => ({
            lines: (r.document.external_additional_info?.refund_lines ?? []).map((l) => l.index),
            check: r.document,
          })),
        ),
      },
    };
    if (!ctx)
      return refuse(
        'sale-not-found',
        'this terminal has no processed check with this id',
        'original_transaction_id',
      );
    const result = calculate(ctx.context, preparedRules(ctx.rules));
    if ('error' in result)
      return engineRefusal(result.error, result.error.path.replace(/^refund_lines/, 'lines'));
    const owed = result.owed?.bonuses ?? 0;
    const back: EngineCheckResult = {
      ...result.check,
      transaction_id: id,
      preliminary_transaction_id: originalId,
      ...(input.comment ? { comment: input.comment } : {}),
      ...businessStaffOf(by),
      external_additional_info: {
        ...(result.check.external_additional_info ?? {}),
        refund_lines: input.lines,
      },
    };
    const toPayBack = dec(back.amount_to_pay ?? 0);

    // Card money back to the cards (as far as they paid), the rest in cash.
    await this.cards.settled;
    const charges = this.cardCharges(
      originalId,
      earlier.map((r) => r.id),
    );
    const cardLeft = charges.reduce((sum, c) => add(sum, c.left), ZERO);
    const toCard = min(cardLeft, toPayBack);
    const refunded = await this.refundToCards(charges, toCard, id);
    if (!refunded.ok) return refunded.error;
    const settled = refunded.settled;
    const payments: PaymentRecord[] = settled.map(paymentRecordOf);
    const cash = sub(toPayBack, toCard);
    const paid = [
      // Each card's refund is its own payment, as each card part of a sale is.
      ...settled.map((e) => ({
        type: 'bank-card',
        id: e.id,
        amount: toNumber(fromMinor(e.amount_cents, 2)),
      })),
      ...(gt(cash, ZERO)
        ? [
            {
              type: isAccountType(original.payment_type) ? original.payment_type : 'cash',
              amount: toNumber(cash),
            },
          ]
        : []),
    ];
    const status = store.ledger.status(originalId);
    const customerId = status?.customerId ?? null;
    const body: Record<string, unknown> = {
      transaction_id: id,
      original_transaction_id: originalId,
      lines: input.lines,
      ...(input.comment ? { comment: input.comment } : {}),
      ...businessStaffOf(by),
    };
    const subtype = this.subtype();
    const localDate = posToday(this.p.store.cache, this.p.clock.now(), original.pos?.id);
    // The card's refund is reported with the refund it belongs to: both commit or neither.
    const answer = store.write((): CommandOutput<'sale-refund'> => {
      store.record(
        refundOperation({
          id,
          originalTransactionId: originalId,
          posId: original.pos?.id ?? null,
          subtype,
          localDate,
          customerId,
          back,
          owed,
          payments: paid,
          accounts: this.accountsBack(original, back),
          body,
          meta: this.meta(),
        }),
      );
      this.cards.report(settled, id, subtype, localDate);
      this.noteOwed(customerId, id, owed);
      // Kept in the same transaction: a kill cannot leave the refund recorded without its
      // answer, where a retry under its id would be refused as another operation.
      const kept: CommandOutput<'sale-refund'> = {
        transaction_id: id,
        original_transaction_id: originalId,
        check: back,
        warnings: result.warnings as Warning[],
        payments,
        ...(owed > 0 ? { owed: { bonuses: owed } } : {}),
        sync: saleSyncOf(store.outbox.byTransaction(id)),
      };
      store.commandResults.put('sale-refund', id, hash, kept, clock.now());
      return kept;
    });
    sync.kick();
    log.info('sale refunded', {
      transaction_id: id,
      original_transaction_id: originalId,
      amount: toNumber(toPayBack),
      owed,
    });
    return answer;
  }
}
