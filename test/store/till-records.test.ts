// The till's own records (migration 0003): shifts and the operations they cover, the sign-in
// guard, the attention list, idempotent command answers, refunds of a sale.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open.js';
import {
  openTest,
  sale,
  tempDir,
  testClock,
  testId,
  type TempDir,
  type TestClock,
} from './helpers.js';

let t: TempDir;
let clock: TestClock;
let store: Store;
beforeEach(async () => {
  t = tempDir('till-');
  clock = testClock();
  store = await openTest(t.file, clock);
});
afterEach(() => {
  store.close();
  t.cleanup();
});

const policy = { maxFailures: 3, windowMs: 60_000, lockoutMs: 300_000 };

describe('shifts', () => {
  it('numbers shifts and keeps at most one open', () => {
    const s = store.shifts.open(
      { id: testId(), staffId: 'st1', staffName: 'Ann', openingCash: 100 },
      clock.now(),
    );
    expect(s).toMatchObject({ number: 1, openingCash: '100', closedAt: null });
    expect(() =>
      store.shifts.open({ id: testId(), staffId: 'st1', staffName: null }, clock.now()),
    ).toThrow();
    store.shifts.close(
      { id: s.id, staffId: 'st2', staffName: null, countedCash: 99.5 },
      clock.now(),
    );
    expect(store.shifts.current()).toBeNull();
    expect(store.shifts.get(s.id)).toMatchObject({ closedBy: 'st2', countedCash: '99.5' });
    expect(
      store.shifts.open({ id: testId(), staffId: 'st1', staffName: null }, clock.now()).number,
    ).toBe(2);
  });

  it('covers the ledger operations recorded while it was open, and no others', () => {
    store.record(sale(testId()));
    const s = store.shifts.open({ id: testId(), staffId: 'st1', staffName: null }, clock.now());
    const inside = testId();
    store.record(sale(inside));
    store.shifts.close({ id: s.id, staffId: 'st1', staffName: null }, clock.now());
    store.record(sale(testId()));
    const ops = store.shifts.operationsOf(store.shifts.get(s.id)!);
    expect(ops.map((o) => o.id)).toEqual([inside]);
    expect(ops[0]).toMatchObject({
      kind: 'check',
      transactionType: 'sale',
      outboxStatus: 'queued',
    });
    expect(ops[0]!.payments.length).toBeGreaterThan(0);
  });
});

describe('the sign-in guard', () => {
  it('locks after the allowed failures and until the lockout ends', () => {
    expect(store.signin.fail(policy, clock.now()).lockedUntil).toBeNull();
    store.signin.fail(policy, clock.now());
    const locked = store.signin.fail(policy, clock.now());
    expect(locked.lockedUntil).toBe(clock.now() + 300_000);
    clock.advance(299_000);
    expect(store.signin.state(policy, clock.now()).lockedUntil).not.toBeNull();
    clock.advance(2_000);
    expect(store.signin.state(policy, clock.now()).lockedUntil).toBeNull();
  });

  it('counts only failures inside the window, and a success clears them', () => {
    store.signin.fail(policy, clock.now());
    store.signin.fail(policy, clock.now());
    clock.advance(61_000);
    expect(store.signin.fail(policy, clock.now())).toEqual({ failures: 1, lockedUntil: null });
    store.signin.succeed();
    expect(store.signin.state(policy, clock.now()).failures).toBe(0);
  });
});

describe('the attention list', () => {
  it('lists an item once per kind and ref, and resolves it once', () => {
    const a = store.attention.note(
      { id: testId(), kind: 'bonuses-owed', ref: 'op1', message: 'owes 3' },
      clock.now(),
    );
    const b = store.attention.note(
      { id: testId(), kind: 'bonuses-owed', ref: 'op1', message: 'again' },
      clock.now(),
    );
    expect(b.id).toBe(a.id);
    expect(store.attention.openCount()).toBe(1);
    expect(
      store.attention.resolve(a.id, { id: 'm1', name: 'Mia' }, 'paid in cash', clock.now()),
    ).toBe(true);
    expect(store.attention.resolve(a.id, { id: 'm1', name: 'Mia' }, 'twice', clock.now())).toBe(
      false,
    );
    expect(store.attention.list()).toEqual([]);
    expect(store.attention.list(true)[0]).toMatchObject({
      resolvedBy: 'm1',
      comment: 'paid in cash',
    });
  });

  it('resolving an outbox refusal resolves the outbox row too', () => {
    const id = testId();
    store.record(sale(id));
    const row = store.outbox.byTransaction(id)!;
    store.outbox.markRejected(row.id, { error: { code: 'x', message: 'no' } }, clock.now());
    const item = store.attention.note(
      { id: testId(), kind: 'outbox-rejected', ref: id, transactionId: id, message: 'refused' },
      clock.now(),
    );
    store.attention.resolve(item.id, { id: 'm1', name: null }, null, clock.now());
    expect(store.outbox.attention()).toEqual([]);
  });
});

describe('command results', () => {
  it('keeps the first answer of a key with its request hash', () => {
    store.commandResults.put('sale-process', 'k1', 'h1', { a: 1 }, clock.now());
    store.commandResults.put('sale-process', 'k1', 'h2', { a: 2 }, clock.now());
    expect(store.commandResults.get('sale-process', 'k1')).toMatchObject({
      requestHash: 'h1',
      response: { a: 1 },
    });
    expect(store.commandResults.get('sale-cancel', 'k1')).toBeNull();
  });
});

describe('refunds of a sale', () => {
  it('lists the refund checks recorded against a sale, oldest first', () => {
    const original = testId();
    store.record(sale(original));
    const r1 = testId();
    const r2 = testId();
    for (const id of [r1, r2]) {
      store.record(
        sale(id, {
          check: {
            transactionType: 'refund',
            originalTransactionId: original,
            amountToPay: 1,
            document: { refund: id },
          },
        }),
      );
    }
    expect(store.refunds.of(original).map((r) => r.id)).toEqual([r1, r2]);
    expect(store.refunds.of(r1)).toEqual([]);
  });
});
