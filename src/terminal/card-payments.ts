// Paying by bank card: the devices' payment flow (journal written before the first byte,
// crash-safe recovery) over the store's payment journal. The adapter below is the devices'
// PaymentJournal port on store.cardJournal; the rest charges, reverses, records the external
// payment for the central service, and answers `payment-recover`.
import type { CommandOutput, ErrorResponse } from '../contract/commands.js';
import type { BankCardExternalPaymentOperationType } from '../contract/enums.js';
import { PaymentBlocked, PaymentFlow } from '../devices/payment-flow.js';
import type { CardTransactionResult } from '../devices/payment-unit.js';
import type {
  JournalEntry,
  JournalPatch,
  NewJournalEntry,
  PaymentJournal,
} from '../devices/payment-journal.js';
import { dec, fromMinor, toMinor, toNumber } from '../money/index.js';
import type { CardOperation } from '../store/card-journal.js';
import type { Store } from '../store/open.js';
import { refuse } from './command-map.js';
import { cardOperation } from './ledger-ops.js';
import { posToday } from './pos-date.js';
import type { TerminalPorts } from './ports.js';

/** The journal entry the devices read, from the store's record. */
function entryOf(op: CardOperation): JournalEntry {
  return {
    id: op.id,
    unit: op.system,
    protocol: op.protocol === 'concert' ? 'concert' : 'zvt',
    operation: op.operationType,
    amount_cents: op.amountCents,
    currency: op.currency,
    status: op.status,
    phase: op.phase as JournalEntry['phase'],
    transaction_id: op.transactionId,
    original_receipt: op.originalReceipt,
    baseline_receipt: op.baselineReceipt,
    receipt_no: op.receiptNo,
    trace_no: op.traceNo,
    pan_masked: op.panMasked,
    result_code: op.resultCode,
    note: op.note,
    created_at: new Date(op.createdAt).toISOString(),
    updated_at: new Date(op.updatedAt).toISOString(),
  };
}

/** The devices' PaymentJournal port over the store (synchronous, durable on return). */
function storePaymentJournal(store: Store, now: () => number): PaymentJournal {
  const j = () => store.cardJournal;
  return {
    create(e: NewJournalEntry): JournalEntry {
      return entryOf(
        j().create(
          {
            id: e.id,
            system: e.unit,
            protocol: e.protocol,
            operationType: e.operation,
            amountCents: e.amount_cents,
            currency: e.currency,
            transactionId: e.transaction_id,
            originalReceipt: e.original_receipt,
            baselineReceipt: e.baseline_receipt,
            receiptNo: e.receipt_no,
            traceNo: e.trace_no,
            panMasked: e.pan_masked,
            resultCode: e.result_code,
            note: e.note,
          },
          now(),
        ),
      );
    },
    update(id: string, patch: JournalPatch): JournalEntry {
      return entryOf(
        j().progress(
          id,
          {
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(patch.phase !== undefined ? { phase: patch.phase } : {}),
            ...(patch.receipt_no !== undefined ? { receiptNo: patch.receipt_no } : {}),
            ...(patch.trace_no !== undefined ? { traceNo: patch.trace_no } : {}),
            ...(patch.pan_masked !== undefined ? { panMasked: patch.pan_masked } : {}),
            ...(patch.result_code !== undefined ? { resultCode: patch.result_code } : {}),
            ...(patch.note !== undefined ? { note: patch.note } : {}),
          },
          now(),
        ),
      );
    },
    listUnresolved(unit?: string): JournalEntry[] {
      return j().listUnresolved(unit).map(entryOf);
    },
    lastReceipt(unit: string): number | null {
      return j().lastReceipt(unit);
    },
  };
}

export type PaymentRecord = CommandOutput<'sale-process'>['payments'][number];

export function paymentRecordOf(e: JournalEntry): PaymentRecord {
  return {
    payment_id: e.id,
    transaction_id: e.transaction_id,
    operation: e.operation,
    status: e.status,
    amount: toNumber(fromMinor(e.amount_cents, 2)),
    currency: e.currency,
    ...(e.pan_masked ? { card: e.pan_masked } : {}),
  };
}

const UNIT_NAME = 'payment';

/** The command-result key that marks a pump authorisation released by its lifetime. */
const RELEASED = 'fuel-released';

/** What a reversal that a person must finish is about: the log line and the attention text. */
interface Why {
  readonly done: string;
  readonly failed: string;
}
const ORPHAN: Why = {
  done: 'card charge without a sale reversed at start',
  failed: 'with no sale recorded could not be reversed',
};
const EXPIRED: Why = {
  done: 'pump pre-authorisation released: its lifetime is over',
  failed: 'of a pump authorisation past its lifetime could not be released',
};

function unresolvedCompletion(e: JournalEntry): ErrorResponse {
  return refuse(
    'payment-unresolved',
    'a completion booked earlier on this pre-authorisation could not be reversed: check the unit',
    'check.preliminary_transaction_id',
    { unresolved: [e.id] },
  );
}

type SaleStatus = CommandOutput<'sale-status'>;
export type CardResult = { ok: true; entry: JournalEntry } | { ok: false; error: ErrorResponse };

/** The operations that take the customer's money (or hold it): a sale, or a pump's reservation, owns each. */
export type ChargeKind = 'purchase' | 'completion' | 'authorize';
const CHARGES = new Set<string>(['purchase', 'completion', 'authorize']);

export class CardPayments {
  private readonly p: TerminalPorts;
  readonly flow: PaymentFlow | null;
  private running = 0;
  private ready: Promise<void> = Promise.resolve();
  private sweeper: ReturnType<typeof setInterval> | null = null;
  /** The lifetime sweep under way, if any: card operations wait for it (one unit, one at a time). */
  private sweep: Promise<number> | null = null;
  private settling = false;

  /** Settles once the start-up settling is over; every card operation waits for it. */
  get settled(): Promise<void> {
    return this.ready;
  }

  /**
   * True while an operation is on the unit (or the start is still settling the journal with
   * it): an entry in process then is not stuck.
   */
  get busy(): boolean {
    return this.running > 0 || this.settling;
  }

  constructor(p: TerminalPorts) {
    this.p = p;
    const unit = p.devices?.payment ?? null;
    this.flow = unit
      ? new PaymentFlow({
          unit,
          unitName: UNIT_NAME,
          journal: storePaymentJournal(p.store, () => p.clock.now()),
          policy: p.config.devices.payment?.recovery_policy ?? 'reverse',
          newId: () => p.ids.newId(),
        })
      : null;
  }

  /** How long a pump's card pre-authorisation stays open with no completion. */
  private get lifetimeMs(): number {
    return this.p.config.terminal.fuel.authorisation_lifetime_s * 1000;
  }

  get currency(): string {
    return this.p.config.devices.payment?.currency ?? 'EUR';
  }

  /** One card operation; a refusal unless the unit approved it. */
  async run(
    operation: BankCardExternalPaymentOperationType,
    amount: number,
    transactionId: string,
    originalReceipt: number | null = null,
  ): Promise<CardResult> {
    await this.ready;
    await this.unitFree();
    return this.exec(operation, amount, transactionId, originalReceipt);
  }

  /**
   * Charges the card once per transaction id (a sale retried after a kill): the approved,
   * unreversed charge of this kind, amount and original receipt the journal holds for the
   * transaction is answered again, else the unit is asked. `taken` names charges this sale
   * already uses (a split with two card parts of the same amount charges twice).
   */
  async chargeOnce(
    kind: ChargeKind,
    amount: number,
    transactionId: string,
    originalReceipt: number | null = null,
    taken: readonly string[] = [],
  ): Promise<CardResult> {
    await this.ready;
    await this.unitFree();
    const cents = Number(toMinor(dec(amount), 2));
    const standing = this.standing(transactionId, taken).find(
      (o) =>
        o.operationType === kind &&
        o.amountCents === cents &&
        o.originalReceipt === originalReceipt,
    );
    if (!standing && kind === 'completion' && originalReceipt !== null)
      return this.completeOnce(amount, transactionId, originalReceipt);
    if (!standing) return this.exec(kind, amount, transactionId, originalReceipt);
    this.p.log.info('card charge reused', {
      payment_id: standing.id,
      transaction_id: transactionId,
    });
    return { ok: true, entry: entryOf(standing) };
  }

  /**
   * Books a pump's pre-authorisation once: a completion the unit booked on it for a sale a
   * kill lost (no recorded sale owns it) is adopted by this completion sale, whatever its id,
   * when the amount agrees; one for another amount is reversed first (a unit books a
   * reservation once). Start-up leaves such completions standing for this (settleOne).
   */
  private async completeOnce(
    amount: number,
    transactionId: string,
    receipt: number,
  ): Promise<CardResult> {
    const cents = Number(toMinor(dec(amount), 2));
    const j = this.p.store.cardJournal;
    const preauth = j.approvedByReceipt(UNIT_NAME, receipt);
    if (preauth?.operationType === 'authorize' && j.reversalOf(preauth.id))
      return {
        ok: false,
        error: refuse(
          'authorisation-released',
          'the pre-authorisation of this pump was released: its lifetime is over',
          'check.preliminary_transaction_id',
        ),
      };
    for (const o of this.unclaimedCompletions(receipt)) {
      if (o.amountCents === cents) {
        this.p.log.info('card completion adopted', {
          payment_id: o.id,
          from: o.transactionId,
          transaction_id: transactionId,
        });
        return { ok: true, entry: entryOf(o) };
      }
      const e = entryOf(o);
      const back = await this.reverseOrphan(e, ORPHAN);
      if (!back) return { ok: false, error: unresolvedCompletion(e) };
      this.reportAlone(e);
      this.reportAlone(back);
    }
    return this.exec('completion', amount, transactionId, receipt);
  }

  /** Approved, unreversed completions of a pre-authorisation that no recorded sale owns. */
  private unclaimedCompletions(receipt: number): CardOperation[] {
    const j = this.p.store.cardJournal;
    const preauth = j.approvedByReceipt(UNIT_NAME, receipt);
    if (preauth?.operationType !== 'authorize') return [];
    return j
      .actingOn(UNIT_NAME, 'completion', receipt, preauth.createdAt)
      .filter(
        (o) =>
          j.reversalOf(o.id) === null &&
          (o.transactionId === null || this.p.store.ledger.status(o.transactionId) === null),
      );
  }

  /**
   * A cancel a kill lost before its record: the successful reversals of this sale's charges
   * under an id no recorded operation has. The retried cancel adopts them (and their id)
   * instead of finding nothing left to give back, and reverses only the charges still standing.
   */
  unrecordedReversals(saleId: string): JournalEntry[] {
    const { store } = this.p;
    const j = store.cardJournal;
    const out: JournalEntry[] = [];
    for (const o of j.forTransaction(saleId)) {
      if (!CHARGES.has(o.operationType) || o.status !== 'success') continue;
      const r = j.reversalOf(o.id);
      if (r?.transactionId && r.transactionId !== saleId && !store.ledger.status(r.transactionId))
        out.push(entryOf(r));
    }
    return out;
  }

  /** Approved refunds already made under a refund's id (one a kill lost before its record). */
  refundsOf(refundId: string): JournalEntry[] {
    return this.p.store.cardJournal
      .forTransaction(refundId)
      .filter((o) => o.operationType === 'refund' && o.status === 'success')
      .map(entryOf);
  }

  /**
   * Approved, unreversed charges of a transaction other than `kept`: after a retried sale
   * charged what it needed (chargeOnce), these are left over (its amount changed) and must
   * be reversed like the charges of a refused sale.
   */
  strayCharges(transactionId: string, kept: readonly string[]): JournalEntry[] {
    return this.standing(transactionId, kept).map(entryOf);
  }

  private standing(transactionId: string, except: readonly string[]): CardOperation[] {
    const j = this.p.store.cardJournal;
    return j
      .forTransaction(transactionId)
      .filter(
        (o) =>
          CHARGES.has(o.operationType) &&
          (o.status === 'success' || o.status === 'authorized') &&
          !except.includes(o.id) &&
          j.reversalOf(o.id) === null,
      );
  }

  /**
   * The authorisation code and the unit's terminal id of an approved operation, for the card
   * slip on the receipt (the card journal has no column for them); a write that fails loses
   * only those two lines of the slip.
   */
  private keepSlip(
    id: string,
    result: Pick<CardTransactionResult, 'auth_code' | 'terminal_id'> | null,
  ): void {
    if (!result?.auth_code && !result?.terminal_id) return;
    const slip = { auth_code: result.auth_code ?? null, terminal_id: result.terminal_id ?? null };
    try {
      this.p.store.commandResults.put('card-slip', id, '', slip, this.p.clock.now());
    } catch (e) {
      this.p.log.warn('card slip not kept', { payment_id: id, err: e });
    }
  }

  private async exec(
    operation: BankCardExternalPaymentOperationType,
    amount: number,
    transactionId: string,
    originalReceipt: number | null,
  ): Promise<CardResult> {
    if (!this.flow)
      return {
        ok: false,
        error: refuse(
          'payment-unit-missing',
          'no bank-card payment unit is configured',
          'check.payment_type',
        ),
      };
    const cents = Number(toMinor(dec(amount), 2));
    this.running += 1;
    try {
      const { entry, result } = await this.flow.run({
        operation,
        amount_cents: cents,
        currency: this.currency,
        transaction_id: transactionId,
        original_receipt: originalReceipt,
      });
      const approved = entry.status === 'success' || entry.status === 'authorized';
      this.p.log.info('card operation', {
        payment_id: entry.id,
        transaction_id: transactionId,
        operation,
        status: entry.status,
        result_code: entry.result_code,
      });
      if (!approved) {
        return {
          ok: false,
          error: refuse(
            'payment-declined',
            `the card payment ended ${entry.status}`,
            'check.payment_type',
            {
              payment: paymentRecordOf(entry),
              result_code: entry.result_code,
            },
          ),
        };
      }
      this.keepSlip(entry.id, result);
      return { ok: true, entry };
    } catch (e) {
      if (e instanceof PaymentBlocked) {
        return {
          ok: false,
          error: refuse(
            'payment-unresolved',
            'an earlier card payment is unresolved: run payment-recover',
            'check.payment_type',
            {
              unresolved: e.unresolved,
            },
          ),
        };
      }
      this.p.log.error('card operation failed', { transaction_id: transactionId, err: e });
      return {
        ok: false,
        error: refuse(
          'payment-failed',
          `the payment unit failed: ${(e as Error).message}`,
          'check.payment_type',
        ),
      };
    } finally {
      this.running -= 1;
    }
  }

  /** Tells the central service about a settled card operation (its own outbox row). */
  record(
    entry: JournalEntry,
    subtype: 'online' | 'offline',
    localDate: string,
    clockSuspect: boolean,
  ): void {
    const { store, app, schemaVersion, clock } = this.p;
    const meta = { appVersion: app.version, schemaVersion, nowMs: clock.now(), clockSuspect };
    store.record(cardOperation({ entry, subtype, localDate, meta }));
  }

  /**
   * Ties settled card operations to the operation they belong to and reports each; call it
   * inside the store write that records that operation, so both commit or neither.
   */
  report(
    entries: readonly JournalEntry[],
    transactionId: string,
    subtype: 'online' | 'offline',
    localDate: string,
  ): void {
    const { store, clock, sync } = this.p;
    const clockSuspect = sync.link.status().clockSuspect;
    for (const e of entries) {
      store.cardJournal.attach(e.id, transactionId, clock.now());
      this.record({ ...e, transaction_id: transactionId }, subtype, localDate, clockSuspect);
    }
  }

  /** Whether a successful cancel reversed this operation. */
  reversed(paymentId: string): boolean {
    return this.p.store.cardJournal.reversalOf(paymentId) !== null;
  }

  forTransaction(transactionId: string): JournalEntry[] {
    return this.p.store.cardJournal.forTransaction(transactionId).map(entryOf);
  }

  /**
   * Run once at start, after the store and the devices are up (never rejects): operations a
   * crash left `inprocess` are resolved with the unit, then every approved operation the
   * ledger has no report of is settled (settleOne). Card operations wait for it. A kill in
   * the middle leaves a reversal `inprocess` or a charge unreported: the next start resumes.
   */
  startUp(): Promise<void> {
    this.settling = true;
    this.ready = this.settleAtStart()
      .then(async () => {
        await this.sweepNow();
      })
      .catch((e: unknown) => this.p.log.warn('card settling at start failed', { err: e }))
      .finally(() => {
        this.settling = false;
        this.startSweeping();
      });
    return this.ready;
  }

  /** Stops the lifetime sweep (the till is closing). */
  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** Releases, every quarter of the lifetime (a minute at most), what outlived it. */
  private startSweeping(): void {
    if (!this.flow || this.sweeper) return;
    const every = Math.max(1_000, Math.min(60_000, Math.floor(this.lifetimeMs / 4)));
    this.sweeper = setInterval(() => {
      // An operation on the unit goes first; the next sweep comes soon enough.
      if (this.busy || this.sweep) return;
      void this.sweepNow().catch((e: unknown) =>
        this.p.log.warn('pump pre-authorisations not released', { err: e }),
      );
    }, every);
    this.sweeper.unref();
  }

  /**
   * Releases every pump's card pre-authorisation left open past its lifetime (no completion
   * sale booked it): it is marked released first, so a completion that comes later is
   * refused (`authorisation-released`) instead of booking what is being given back; a
   * completion booked on it that no sale took is reversed (and reported, with its reversal);
   * then the reservation is released on the unit (never reported: no money moved). One the
   * unit will not release is an attention item, left to a person from then on.
   */
  async releaseExpired(): Promise<number> {
    await this.ready;
    await this.unitFree();
    return this.sweepNow();
  }

  /** Starts the sweep now (synchronously marked, so no card operation slips in), or joins it. */
  private sweepNow(): Promise<number> {
    this.sweep ??= this.releaseDue().finally(() => {
      this.sweep = null;
    });
    return this.sweep;
  }

  /** Waits while a lifetime sweep is on the unit. */
  private async unitFree(): Promise<void> {
    while (this.sweep) await this.sweep.catch(() => 0);
  }

  private async releaseDue(): Promise<number> {
    if (!this.flow) return 0;
    let released = 0;
    for (const op of this.p.store.cardJournal.openAuthorisations(UNIT_NAME))
      if (this.expired(op) && (await this.release(op))) released += 1;
    return released;
  }

  /** An open pre-authorisation of a recorded pump authorisation, past its lifetime. */
  private expired(op: CardOperation): boolean {
    const { store, clock } = this.p;
    const pump = op.transactionId;
    return (
      pump !== null &&
      store.commandResults.has('fuel-authorisation', pump) &&
      !store.commandResults.has('fuel-completion', pump) &&
      store.attention.find('payment-unresolved', op.id) === null &&
      clock.now() - op.createdAt >= this.lifetimeMs
    );
  }

  private async release(op: CardOperation): Promise<boolean> {
    const { store, clock } = this.p;
    const pump = op.transactionId!;
    const at = clock.now();
    store.commandResults.put(
      RELEASED,
      pump,
      '',
      { payment_id: op.id, released_at: new Date(at).toISOString(), reason: 'lifetime' },
      at,
    );
    if (op.receiptNo !== null)
      for (const c of this.unclaimedCompletions(op.receiptNo)) {
        const e = entryOf(c);
        const back = await this.reverseOrphan(e, ORPHAN);
        if (!back) return false;
        this.reportAlone(e);
        this.reportAlone(back);
      }
    return (await this.reverseOrphan(entryOf(op), EXPIRED)) !== null;
  }

  /** Whether a pump authorisation was released by its lifetime (a completion is refused). */
  releasedPump(pumpId: string): boolean {
    return this.p.store.commandResults.has(RELEASED, pumpId);
  }

  /**
   * `sale-status` of an id the till knows as a pump authorisation, or null: whether it is
   * still open (and until when), completed (by which sale) or released, with its card
   * operations. An integrator that lost the answer learns it here.
   */
  pumpStatus(id: string): SaleStatus | null {
    const { store } = this.p;
    const kept = store.commandResults.get('fuel-authorisation', id);
    if (!kept) return null;
    const a = kept.response;
    const completion = store.commandResults.get('fuel-completion', id)?.response.completion ?? null;
    const hold = a.card ? store.cardJournal.get(a.card.paymentId) : null;
    const released =
      this.releasedPump(id) || (hold !== null && store.cardJournal.reversalOf(hold.id) !== null);
    const pump = completion ? 'completed' : released ? 'released' : 'open';
    return {
      transaction_id: id,
      state: 'authorised',
      pump,
      completion_transaction_id: completion,
      expires_at:
        pump === 'open' && hold ? new Date(hold.createdAt + this.lifetimeMs).toISOString() : null,
      check: a.check,
      payments: this.forTransaction(id).map(paymentRecordOf),
    };
  }

  private async settleAtStart(): Promise<void> {
    if (this.flow) {
      const items = await this.flow.reconcile();
      if (items.length > 0)
        this.p.log.info('card operations recovered at start', { items: items.length });
    }
    for (const op of this.p.store.cardJournal.unreported(UNIT_NAME)) await this.settleOne(op);
  }

  /**
   * An approved operation not yet reported: a charge no sale (or pump reservation) owns is
   * reversed first, unless it was already or a person settled it; a charge the unit cannot
   * reverse is listed and stays unreported, so the next start tries again. Then it is
   * reported (a reservation never is: its completion is).
   */
  private async settleOne(op: CardOperation): Promise<void> {
    const e = entryOf(op);
    const { store } = this.p;
    // A reservation given back moved no money: never reported.
    if (e.operation === 'cancel' && this.releasesReservation(e)) return;
    const owned = this.owned(e);
    // Left standing, unreported, for the completion sale that adopts it (completeOnce).
    if (!owned && this.completesOpenPump(e)) return;
    const orphan = CHARGES.has(e.operation) && !owned;
    const handled =
      store.cardJournal.reversalOf(e.id) !== null ||
      (store.attention.find('payment-unresolved', e.id)?.resolvedAt ?? null) !== null;
    if (orphan && !handled) {
      const back = await this.reverseOrphan(e, ORPHAN);
      if (!back) return;
      if (e.operation !== 'authorize') this.reportAlone(back);
    }
    if (e.operation !== 'authorize') this.reportAlone(e);
  }

  /** Whether a cancel released a pump's pre-authorisation (no money moved either way). */
  private releasesReservation(e: JournalEntry): boolean {
    return this.p.store.cardJournal.targetOf(e.id)?.operationType === 'authorize';
  }

  /** Whether the sale (or the pump's authorisation) this charge was for is recorded. */
  private owned(e: JournalEntry): boolean {
    const id = e.transaction_id;
    if (id === null) return false;
    if (e.operation === 'authorize')
      return this.p.store.commandResults.has('fuel-authorisation', id);
    return this.p.store.ledger.status(id) !== null;
  }

  /**
   * A completion booked on a pump authorisation that no completion sale has closed (nor its
   * lifetime released): the completion sale, retried or sold again under a new id, adopts it
   * (completeOnce). Reversing it at start could release the pre-authorisation's hold on a real
   * unit, and the sale's booking would then be refused; reporting it under the lost id would
   * book the money under a transaction no answer named.
   */
  private completesOpenPump(e: JournalEntry): boolean {
    if (e.operation !== 'completion' || e.original_receipt === null) return false;
    const { store } = this.p;
    const preauth = store.cardJournal.approvedByReceipt(e.unit, e.original_receipt);
    const pump = preauth?.transactionId ?? null;
    return (
      preauth?.operationType === 'authorize' &&
      pump !== null &&
      store.commandResults.has('fuel-authorisation', pump) &&
      !store.commandResults.has('fuel-completion', pump) &&
      !store.commandResults.has(RELEASED, pump)
    );
  }

  private async reverseOrphan(e: JournalEntry, why: Why): Promise<JournalEntry | null> {
    const { log, store, clock, ids } = this.p;
    let reason = 'the charge has no receipt number to reverse';
    if (e.receipt_no !== null) {
      const amount = toNumber(fromMinor(e.amount_cents, 2));
      const r = await this.exec('cancel', amount, e.transaction_id ?? e.id, e.receipt_no);
      if (r.ok) {
        log.warn(why.done, {
          payment_id: e.id,
          transaction_id: e.transaction_id,
          reversal_id: r.entry.id,
        });
        return r.entry;
      }
      reason = r.error.error.code;
    }
    log.error('card operation not reversed', { payment_id: e.id, reason });
    store.attention.note(
      {
        id: ids.newId(),
        kind: 'payment-unresolved',
        ref: e.id,
        transactionId: e.transaction_id,
        message: `a card ${e.operation} ${why.failed}: reverse it on the unit, then resolve this`,
        details: { payment_id: e.id, receipt_no: e.receipt_no, reason },
      },
      clock.now(),
    );
    return null;
  }

  /** Reports an operation no sale or return reports: its own operation, booked today. */
  private reportAlone(e: JournalEntry): void {
    const { store, sync, clock } = this.p;
    this.record(
      e,
      sync.link.current === 'offline' ? 'offline' : 'online',
      posToday(store.cache, clock.now()),
      sync.link.status().clockSuspect,
    );
  }

  async recover(paymentId: string | undefined): Promise<CommandOutput<'payment-recover'>> {
    await this.ready;
    if (!this.flow) return { recovered: [], pending: 0 };
    const items = await this.flow.reconcile();
    const recovered = items
      .filter((i) => paymentId === undefined || i.id === paymentId)
      .map((i) => {
        const op = this.p.store.cardJournal.get(i.id)!;
        const entry = entryOf(op);
        const action: 'status-enquiry' | 'reversal' | 'none' =
          i.after === 'inprocess'
            ? 'none'
            : i.after === 'canceled' && op.phase === 'resolved'
              ? 'reversal'
              : 'status-enquiry';
        return { ...paymentRecordOf(entry), action };
      });
    // The store's list, read directly: only its length is answered.
    const pending = this.p.store.cardJournal.listUnresolved(UNIT_NAME).length;
    this.p.log.info('payment recovery', { recovered: recovered.length, pending });
    return { recovered, pending };
  }
}
