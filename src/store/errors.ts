// SQLite failures as values. The caller reacts to a code (retry on busy, alert on full, stop on
// corrupt), never to the text of a driver message (shared/style.md, "What we take", 7).

/** What went wrong, as far as a caller needs to know to react. */
export type StoreErrorCode =
  /** Another connection holds the lock past the busy timeout: retry later. */
  | 'busy'
  /** The disk or the database is full: nothing more can be written. */
  | 'full'
  /** The file is damaged or not a database: stop writing, restore a backup. */
  | 'corrupt'
  /** The file or its directory cannot be written. */
  | 'read-only'
  /** The file cannot be opened at all (missing directory, permissions). */
  | 'cannot-open'
  /** An I/O error from the operating system. */
  | 'io'
  /** A uniqueness or foreign-key rule refused the write. */
  | 'constraint'
  /** A recorded migration differs from the one this app ships (edited after release). */
  | 'schema-tampered'
  /** The database was migrated by a newer app than this one. */
  | 'schema-newer'
  /** The file is not a loyalty-terminal database, or records a migration this app lacks. */
  | 'schema-unknown'
  /** A migration failed; the transaction was rolled back and the file kept its schema. */
  | 'migration-failed'
  /** A stored payload no longer passes its schema. */
  | 'invalid-record'
  | 'other';

export interface StoreFailure {
  readonly code: StoreErrorCode;
  readonly message: string;
  /** The driver's extended code (`SQLITE_BUSY_SNAPSHOT`) when the failure came from SQLite. */
  readonly sqliteCode?: string;
  /** True when the same operation may succeed later without anyone acting. */
  readonly retryable: boolean;
}

/** The one exception type the store throws; `failure` is the value to pass on. */
export class StoreError extends Error {
  readonly failure: StoreFailure;
  constructor(failure: StoreFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.name = 'StoreError';
    this.failure = failure;
  }
  get code(): StoreErrorCode {
    return this.failure.code;
  }
}

export function storeError(code: StoreErrorCode, message: string): StoreError {
  return new StoreError({ code, message, retryable: code === 'busy' });
}

// Primary result codes are the prefix of the extended ones (SQLITE_IOERR_FSYNC, ...).
const BY_PRIMARY: ReadonlyArray<readonly [string, StoreErrorCode]> = [
  ['SQLITE_BUSY', 'busy'],
  ['SQLITE_LOCKED', 'busy'],
  ['SQLITE_FULL', 'full'],
  ['SQLITE_CORRUPT', 'corrupt'],
  ['SQLITE_NOTADB', 'corrupt'],
  ['SQLITE_READONLY', 'read-only'],
  ['SQLITE_PERM', 'read-only'],
  ['SQLITE_CANTOPEN', 'cannot-open'],
  ['SQLITE_IOERR', 'io'],
  ['SQLITE_CONSTRAINT', 'constraint'],
];

const HINTS: Partial<Record<StoreErrorCode, string>> = {
  busy: 'the database is busy (another process holds it); try again',
  full: 'the disk or database is full; free space before selling again',
  corrupt: 'the database file is damaged; restore it from DIR/backups/',
  'read-only': 'the database cannot be written (permissions or a read-only disk)',
  'cannot-open': 'the database file cannot be opened',
  io: 'the disk reported an I/O error',
};

/** Turns anything thrown by the store or the driver into a StoreFailure value. */
export function classifyStoreError(error: unknown): StoreFailure {
  if (error instanceof StoreError) return error.failure;
  const sqliteCode =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : undefined;
  const text = error instanceof Error ? error.message : String(error);
  if (sqliteCode?.startsWith('SQLITE_')) {
    const hit = BY_PRIMARY.find(
      ([prefix]) => sqliteCode === prefix || sqliteCode.startsWith(`${prefix}_`),
    );
    const code = hit ? hit[1] : 'other';
    const hint = HINTS[code];
    return {
      code,
      message: hint ? `${hint} (${sqliteCode}: ${text})` : `${sqliteCode}: ${text}`,
      sqliteCode,
      retryable: code === 'busy',
    };
  }
  return { code: 'other', message: text, retryable: false };
}

/** Rethrows anything as a StoreError carrying its classification. */
export function asStoreError(error: unknown): StoreError {
  return error instanceof StoreError
    ? error
    : new StoreError(classifyStoreError(error), { cause: error });
}
