// Shared set-up of the store tests: a real SQLite file in a fresh temp directory, a clock the
// test moves, a sale with every kind of ledger effect, and a seeded random source. No test
// runner imports here: the crash test's child process loads this file too.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationInput } from '../../src/store/ledger.js';
import { openStore, type OpenStoreOptions, type Store } from '../../src/store/open.js';

export interface TestClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-22T10:15:00Z')): TestClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface TempDir {
  readonly dir: string;
  readonly file: string;
  cleanup(): void;
}

export function tempDir(prefix = 'store-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), `loyalty-${prefix}`));
  return {
    dir,
    file: join(dir, 'terminal.sqlite'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export async function openTest(
  file: string,
  clock: TestClock,
  extra: Partial<OpenStoreOptions> = {},
): Promise<Store> {
  return openStore({ file, clock, dailyBackup: false, ...extra });
}

let counter = 0;
/** A UUIDv7-shaped id that sorts by creation (enough for tests). */
export function testId(): string {
  counter += 1;
  const hex = counter.toString(16).padStart(12, '0');
  return `01900000-0000-7000-8000-${hex}`;
}

/** A sale paying with bonuses and a special account, redeeming a coupon, with stats. */
export function sale(id: string, over: Partial<OperationInput> = {}): OperationInput {
  return {
    id,
    kind: 'check',
    subtype: 'offline',
    customerId: 'c1',
    localDate: '2026-11-22',
    check: {
      transactionType: 'sale',
      posId: 'p1',
      amountToPay: '6.49',
      currency: 'EUR',
      document: { transaction_id: id, amount: 9.99, amount_to_pay: 6.49 },
    },
    bonuses: { redeemed: 3, added: 0.48 },
    payments: [{ type: 'cash', id: 'EUR', amount: '6.49', currency: 'EUR' }],
    accounts: [{ accountId: 'a1', direction: 'debit', amount: '2.00', currency: 'EUR' }],
    coupons: [{ code: 'CPN-1', action: 'redeem' }],
    stats: { amount: '9.99', quantity: '3', visits: 1 },
    outbox: {
      operation: 'process_check',
      payload: { version: 1, check: { transaction_id: id } },
      version: 1,
    },
    ...over,
  };
}

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
export { seededRandom } from '../../src/central/faults.js';
