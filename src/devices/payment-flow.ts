// The payment journal flow (devices.md): each operation is written `inprocess` before its first
// byte, updated on every answer of the unit, and anything a crash left `inprocess` is resolved
// with the unit before the next sale. Never a second charge, never a lost successful one.
import { randomUUID } from 'node:crypto';
import type {
  BankCardExternalPaymentOperationType,
  BankCardExternalPaymentStatus,
} from '../contract/enums.js';
import { fromMinor, toNumber } from '../money/index.js';
import { Mutex } from './mutex.js';
import type { JournalEntry, JournalPatch, PaymentJournal } from './payment-journal.js';
import type {
  CardTransactionResult,
  PaymentUnit,
  RecoveryPolicy,
  UnitProgress,
} from './payment-unit.js';

export interface PaymentRequest {
  operation: BankCardExternalPaymentOperationType;
  amount_cents: number;
  currency: string;
  transaction_id?: string | null;
  original_receipt?: number | null;
}

export interface PaymentOutcome {
  entry: JournalEntry;
  result: CardTransactionResult | null;
}

export interface ReconcileItem {
  id: string;
  before: BankCardExternalPaymentStatus;
  after: BankCardExternalPaymentStatus;
  note: string;
}

export class PaymentBlocked extends Error {
  readonly unresolved: string[];
  constructor(unresolved: string[]) {
    super(`earlier payment operations are unresolved: ${unresolved.join(', ')}`);
    this.unresolved = unresolved;
  }
}

export interface PaymentFlowOptions {
  unit: PaymentUnit;
  /** The device name in the configuration, as the journal records it. */
  unitName: string;
  journal: PaymentJournal;
  policy?: RecoveryPolicy;
  newId?: () => string;
}

export class PaymentFlow {
  private readonly unit: PaymentUnit;
  private readonly unitName: string;
  private readonly journal: PaymentJournal;
  private readonly policy: RecoveryPolicy;
  private readonly newId: () => string;
  /**
   * One operation (or reconciliation) at a time, from reading the journal to its last write:
   * an entry `inprocess` is then a crash's leftover, never one this process has on the unit
   * right now (reconciling that one would reverse what the unit just approved).
   */
  private readonly lock = new Mutex();

  constructor(o: PaymentFlowOptions) {
    this.unit = o.unit;
    this.unitName = o.unitName;
    this.journal = o.journal;
    this.policy = o.policy ?? 'reverse';
    this.newId = o.newId ?? randomUUID;
  }

  /** Runs one payment operation; refuses while an earlier one is unresolved after reconciling. */
  run(req: PaymentRequest): Promise<PaymentOutcome> {
    return this.lock.run(() => this.runAlone(req));
  }

  private async runAlone(req: PaymentRequest): Promise<PaymentOutcome> {
    const open = await this.journal.listUnresolved(this.unitName);
    if (open.length > 0) {
      await this.reconcileAlone();
      const still = await this.journal.listUnresolved(this.unitName);
      if (still.length > 0) throw new PaymentBlocked(still.map((e) => e.id));
    }
    const baseline = this.unit.lastReceipt ?? (await this.journal.lastReceipt(this.unitName));
    let entry = await this.journal.create({
      id: this.newId(),
      unit: this.unitName,
      protocol: this.unit.protocol,
      operation: req.operation,
      amount_cents: req.amount_cents,
      currency: req.currency,
      transaction_id: req.transaction_id ?? null,
      original_receipt: req.original_receipt ?? null,
      baseline_receipt: baseline,
      receipt_no: null,
      trace_no: null,
      pan_masked: null,
      result_code: null,
      note: null,
    });
    const id = entry.id;
    const onProgress = async (p: UnitProgress): Promise<void> => {
      const patch = progressPatch(p);
      if (patch) entry = await this.journal.update(id, patch);
    };
    const result = await this.unit.cardTransaction(
      {
        operation: req.operation,
        amount_cents: req.amount_cents,
        currency: req.currency,
        original_receipt: req.original_receipt ?? null,
        reference: id,
      },
      onProgress,
    );
    if (result.status === 'error') {
      // The outcome is unknown (line lost, time-out): ask the unit now, as after a crash.
      return { entry: await this.resolveEntry(entry), result };
    }
    entry = await this.journal.update(id, {
      status: result.status,
      phase: 'completed',
      receipt_no: result.receipt_no ?? entry.receipt_no,
      trace_no: result.trace_no ?? entry.trace_no,
      pan_masked: result.pan_masked ?? entry.pan_masked,
      result_code: result.result_code,
      note: result.message,
    });
    return { entry, result };
  }

  /** Resolves every `inprocess` operation of this unit (run at start and before a sale). */
  reconcile(): Promise<ReconcileItem[]> {
    return this.lock.run(() => this.reconcileAlone());
  }

  private async reconcileAlone(): Promise<ReconcileItem[]> {
    const out: ReconcileItem[] = [];
    for (const entry of await this.journal.listUnresolved(this.unitName)) {
      const after = await this.resolveEntry(entry);
      out.push({ id: entry.id, before: entry.status, after: after.status, note: after.note ?? '' });
    }
    return out;
  }

  private async resolveEntry(entry: JournalEntry): Promise<JournalEntry> {
    try {
      const r = await this.unit.resolve(entry, this.policy, async () => {
        await this.journal.update(entry.id, { phase: 'resolving' });
      });
      return await this.journal.update(entry.id, {
        status: r.status,
        phase: 'resolved',
        receipt_no: r.receipt_no ?? entry.receipt_no,
        note: r.note,
      });
    } catch (e) {
      // The unit could not be asked (unplugged, silent): stays inprocess, tried again later.
      return await this.journal.update(entry.id, { note: `unresolved: ${(e as Error).message}` });
    }
  }
}

function progressPatch(p: UnitProgress): JournalPatch | null {
  switch (p.kind) {
    case 'sent':
      return { phase: 'sent' };
    case 'accepted':
      return { phase: 'accepted' };
    case 'authorised':
      return {
        phase: 'authorised',
        receipt_no: p.approved ? p.receipt_no : null,
        trace_no: p.trace_no,
        pan_masked: p.pan_masked,
        result_code: p.result_code,
      };
    case 'completed':
    case 'intermediate':
      return null;
  }
}

/** The journal entry as the central service's external bank-card payment record. */
export function externalPaymentRecord(entry: JournalEntry): {
  id: string;
  transaction_id?: string;
  operation_type: BankCardExternalPaymentOperationType;
  status: BankCardExternalPaymentStatus;
  amount: number;
  currency: string;
  created: string;
} {
  return {
    id: entry.id,
    ...(entry.transaction_id ? { transaction_id: entry.transaction_id } : {}),
    operation_type: entry.operation,
    status: entry.status,
    amount: toNumber(fromMinor(entry.amount_cents, 2)),
    currency: entry.currency,
    created: entry.created_at,
  };
}
