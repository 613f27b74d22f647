// The one interface of a bank-card payment unit, whatever protocol it speaks: the seed's unit
// operations (connect, card-transactions, mag-reader, mag-reader-result, welcome-screen) and
// payment operations (purchase, authorize, completion, refund, cancel) with their statuses.
import type {
  BankCardExternalPaymentOperationType,
  BankCardExternalPaymentStatus,
  BankCardExternalPaymentUnitOperationStatus,
  BankCardExternalPaymentUnitOperationType,
} from '../contract/enums.js';
import type { JournalEntry } from './payment-journal.js';
import type { Recognition } from './recognition.js';

export interface CardTransactionRequest {
  operation: BankCardExternalPaymentOperationType;
  amount_cents: number;
  /** ISO 4217 letters; the driver sends the numeric code. */
  currency: string;
  /** Completion and cancel act on this receipt. */
  original_receipt: number | null;
  /** Our reference (the journal id); Concert carries it as private data. */
  reference: string;
}

export interface CardTransactionResult {
  status: Exclude<BankCardExternalPaymentStatus, 'inprocess'>;
  receipt_no: number | null;
  trace_no: number | null;
  pan_masked: string | null;
  amount_cents: number | null;
  /** The unit's own result or error code, as hex or as sent. */
  result_code: string | null;
  message: string;
  /** Receipt lines the unit asked the ECR to print. */
  print_lines: string[];
  /** The issuer's authorisation code and the unit's terminal id, for the card slip (ZVT). */
  auth_code?: string | null;
  terminal_id?: string | null;
}

/** Progress reported while a transaction runs; the flow writes the journal on each. */
export type UnitProgress =
  | { kind: 'sent' }
  | { kind: 'accepted' }
  | { kind: 'intermediate'; code: number }
  | {
      kind: 'authorised';
      receipt_no: number | null;
      trace_no: number | null;
      pan_masked: string | null;
      result_code: string | null;
      approved: boolean;
    }
  | { kind: 'completed' };

export interface UnitOperationResult {
  operation: BankCardExternalPaymentUnitOperationType;
  status: BankCardExternalPaymentUnitOperationStatus;
  message: string;
  unsupported?: true;
}

export interface MagReaderResult extends UnitOperationResult {
  operation: 'mag-reader-result';
  recognition: Recognition | null;
}

/** What recovery learnt from the unit about an operation left `inprocess` by a crash. */
export interface Resolution {
  status: Exclude<BankCardExternalPaymentStatus, 'inprocess'>;
  receipt_no: number | null;
  note: string;
}

/**
 * `reverse`: a purchase the unit booked but the terminal never confirmed is reversed (the sale
 * did not commit, so the money goes back). `accept`: it is recorded as a success for the
 * terminal to attach to its sale (`payment-recover`).
 */
export type RecoveryPolicy = 'reverse' | 'accept';

export interface PaymentUnit {
  readonly protocol: 'zvt' | 'concert';
  readonly supports: ReadonlySet<BankCardExternalPaymentUnitOperationType>;
  /** The newest receipt number the driver has seen (recovery's baseline), or null. */
  readonly lastReceipt: number | null;
  connect(): Promise<UnitOperationResult>;
  cardTransaction(
    req: CardTransactionRequest,
    progress?: (p: UnitProgress) => void | Promise<void>,
  ): Promise<CardTransactionResult>;
  /** Starts a card read on the unit's reader; the read arrives through `magReaderResult`. */
  magReader(timeoutS: number): Promise<UnitOperationResult>;
  magReaderResult(): Promise<MagReaderResult>;
  welcomeScreen(lines: readonly string[]): Promise<UnitOperationResult>;
  /** Resolves an operation a crash left `inprocess`, by the protocol's own means. */
  resolve(
    entry: JournalEntry,
    policy: RecoveryPolicy,
    onResolving: () => Promise<void>,
  ): Promise<Resolution>;
  close(): Promise<void>;
}

export function unsupported(
  operation: BankCardExternalPaymentUnitOperationType,
  protocol: string,
): UnitOperationResult {
  return {
    operation,
    status: 'fail',
    message: `${operation} is not supported by ${protocol}`,
    unsupported: true,
  };
}
