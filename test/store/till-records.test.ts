// The till's own records (migration 0003): shifts and the operations they cover, the sign-in
// guard, the attention list, idempotent command answers, refunds of a sale.
import { describe, expect, it } from 'vitest';
import { sale, testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('till-');

const policy = { maxFailures: 3, windowMs: 60_000, lockoutMs: 300_000 };

describe('shifts', () => {
  it('numbers shifts and keeps at most one open', () => {
    const s = db.store.shifts.open(
      { id: testId(), staffId: 'st1', staffName: 'Ann', openingCash: 100 },
      db.clock.now(),
    );
    expect(s).toMatchObject({ number: 1, openingCash: '100', closedAt: null });
    expect(() =>
      db.store.shifts.open({ id: testId(), staffId: 'st1', staffName: null }, db.clock.now()),
    ).toThrow();
    db.store.shifts.close(
      { id: s.id, staffId: 'st2', staffName: null, countedCash: 99.5 },
      db.clock.now(),
    );
    expect(db.store.shifts.current()).toBeNull();
    expect(db.store.shifts.get(s.id)).toMatchObject({ closedBy: 'st2', countedCash: '99.5' });
    expect(
      db.store.shifts.open({ id: testId(), staffId: 'st1', staffName: null }, db.clock.now())
        .number,
    ).toBe(2);
  });

  it('covers the ledger operations recorded while it was open, and no others', () => {
    db.store.record(sale(testId()));
    const s = db.store.shifts.open(
      { id: testId(), staffId: 'st1', staffName: null },
      db.clock.now(),
    );
    const inside = testId();
    db.store.record(sale(inside));
    db.store.shifts.close({ id: s.id, staffId: 'st1', staffName: null }, db.clock.now());
    db.store.record(sale(testId()));
    const ops = db.store.shifts.operationsOf(db.store.shifts.get(s.id)!);
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
    expect(db.store.signin.fail(policy, db.clock.now()).lockedUntil).toBeNull();
    db.store.signin.fail(policy, db.clock.now());
    const locked = db.store.signin.fail(policy, db.clock.now());
    expect(locked.lockedUntil).toBe(db.clock.now() + 300_000);
    db.clock.advance(299_000);
    expect(db.store.signin.state(policy, db.clock.now()).lockedUntil).not.toBeNull();
    db.clock.advance(2_000);
    expect(db.store.signin.state(policy, db.clock.now()).lockedUntil).toBeNull();
  });

  it('counts only failures inside the window, and a success clears them', () => {
    db.store.signin.fail(policy, db.clock.now());
    db.store.signin.fail(policy, db.clock.now());
    db.clock.advance(61_000);
    expect(db.store.signin.fail(policy, db.clock.now())).toEqual({
      failures: 1,
      lockedUntil: null,
    });
    db.store.signin.succeed();
    expect(db.store.signin.state(policy, db.clock.now()).failures).toBe(0);
  });
});

describe('the attention list', () => {
  it('lists an item once per kind and ref, and resolves it once', () => {
    const a = db.store.attention.note(
      { id: testId(), kind: 'bonuses-owed', ref: 'op1', message: 'owes 3' },
      db.clock.now(),
    );
    const b = db.store.attention.note(
      { id: testId(), kind: 'bonuses-owed', ref: 'op1', message: 'again' },
      db.clock.now(),
    );
    expect(b.id).toBe(a.id);
    expect(db.store.attention.openCount()).toBe(1);
    expect(
      db.store.attention.resolve(a.id, { id: 'm1', name: 'Mia' }, 'paid in cash', db.clock.now()),
    ).toBe(true);
    expect(
      db.store.attention.resolve(a.id, { id: 'm1', name: 'Mia' }, 'twice', db.clock.now()),
    ).toBe(false);
    expect(db.store.attention.list()).toEqual([]);
    expect(db.store.attention.list(true)[0]).toMatchObject({
      resolvedBy: 'm1',
      comment: 'paid in cash',
    });
  });

  it('resolving an outbox refusal resolves the outbox row too', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id)!;
    db.store.outbox.markRejected(row.id, { error: { code: 'x', message: 'no' } }, db.clock.now());
    const item = db.store.attention.note(
      { id: testId(), kind: 'outbox-rejected', ref: id, transactionId: id, message: 'refused' },
      db.clock.now(),
    );
    db.store.attention.resolve(item.id, { id: 'm1', name: null }, null, db.clock.now());
    expect(db.store.outbox.attention()).toEqual([]);
  });
});

describe('command results', () => {
  it('keeps the first answer of a key with its request hash', () => {
    // Records that are not command answers (a pump's completion) are kept beside them.
    db.store.commandResults.put(
      'fuel-completion',
      'k1',
      'h1',
      { completion: 'c1' },
      db.clock.now(),
    );
    db.store.commandResults.put(
      'fuel-completion',
      'k1',
      'h2',
      { completion: 'c2' },
      db.clock.now(),
    );
    expect(db.store.commandResults.get('fuel-completion', 'k1')).toMatchObject({
      requestHash: 'h1',
      response: { completion: 'c1' },
    });
    expect(db.store.commandResults.get('fuel-authorisation', 'k1')).toBeNull();
  });

  it('refuses to keep an answer that breaks its command output schema, keeping nothing', () => {
    expect(() =>
      db.store.write(() => {
        db.store.shifts.open({ id: testId(), staffId: testId(), staffName: null }, db.clock.now());
        db.store.commandResults.put('sale-cancel', 'k2', 'h1', { a: 1 }, db.clock.now());
      }),
    ).toThrow(/sale-cancel answer breaks its schema/);
    expect(db.store.commandResults.get('sale-cancel', 'k2')).toBeNull();
    expect(db.store.shifts.current()).toBeNull();
  });
});

describe('refunds of a sale', () => {
  it('lists the refund checks recorded against a sale, oldest first', () => {
    const original = testId();
    db.store.record(sale(original));
    const r1 = testId();
    const r2 = testId();
    for (const id of [r1, r2]) {
      db.store.record(
        sale(id, {
          check: {
            transactionType: 'refund',
            originalTransactionId: original,
            amountToPay: 1,
            document: { transaction_id: id, transaction_type: 'refund' },
          },
        }),
      );
    }
    expect(db.store.refunds.of(original).map((r) => r.id)).toEqual([r1, r2]);
    expect(db.store.refunds.of(r1)).toEqual([]);
  });
});
