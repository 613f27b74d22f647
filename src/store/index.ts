// The store's public face: open it, and the types of what it hands out (README.md beside it).
export {
  openStore,
  checkFile,
  backupFile,
  inspectFile,
  systemClock,
  type Clock,
  type OpenStoreOptions,
  type Store,
  type CheckReport,
} from './open.js';
export {
  classifyStoreError,
  StoreError,
  type StoreErrorCode,
  type StoreFailure,
} from './errors.js';
export type { Change, CachedCustomer, CachedVehicle, IdType, Identified } from './cache.js';
export type { ContextRequest, RefundRequest, AssembledContext } from './context.js';
export type { OperationInput, OperationStatus, RecordResult, PendingFigures } from './ledger.js';
export type { OutboxRow, OutboxEntry, OutboxStatus } from './outbox.js';
export type { PaymentEntry, PaymentStart, PaymentStatus } from './payment-journal.js';
export type { PageInput, PageResult, QuarantinedRecord, SnapshotProgress } from './sync-state.js';
export { ENTITIES, type Entity } from './entities.js';
export type { ShiftRecord, ShiftOperation, Shifts } from './shifts.js';
export type { GuardPolicy, GuardState, SigninGuard } from './signin-guard.js';
export type { AttentionRecord, NewAttention, Attention } from './attention.js';
export type { StoredResult, CommandResults } from './command-results.js';
export type { CardOperation, NewCardOperation, CardProgress, CardJournal } from './card-journal.js';
export type { RecordedRefund, Refunds } from './refunds.js';
