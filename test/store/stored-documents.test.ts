// Every JSON document the store keeps is read back through its schema (docs/store.md, "Stored
// documents"). A row that no longer passes is refused at the read with the store's
// `invalid-record` failure naming the row (or, where a caller answers it, as a value saying
// why), never handed on to crash deep in a caller. Each bad row is written into the real
// SQLite file by a second connection, as a store from another version or a hand edit holds.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FuelAuthorisation } from '../../src/contract/stored.js';
import { sale, testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('stored-');

/** Runs `sql` on the store's file through another connection (the store stays open). */
function tamper(sql: string, ...params: unknown[]): void {
  const other = new Database(db.file);
  try {
    expect(other.prepare(sql).run(...params).changes).toBe(1);
  } finally {
    other.close();
  }
}

const invalidRecord = (row: RegExp) =>
  expect.objectContaining({ code: 'invalid-record', message: expect.stringMatching(row) });

function authorisation(id: string): FuelAuthorisation {
  return {
    id,
    check: { transaction_id: id, transaction_type: 'preauthorization', amount_to_pay: 40 },
    card: { paymentId: testId(), receipt: 17, amount: 40 },
    prepaidCash: 0,
  };
}

const saleCancelAnswer = (id: string) => ({
  transaction_id: id,
  check: { transaction_id: id, amount_to_pay: 6.49 },
  warnings: [],
  payments: [],
  paid_back: [],
  sync: { state: 'queued', attempts: 0, next_attempt_at: null, error: null },
});

describe('a stored check', () => {
  it('is refused as invalid-record, naming its row, when it no longer matches its schema', () => {
    const id = testId();
    db.store.record(sale(id));
    tamper(
      "UPDATE ledger_check SET check_json = json_set(check_json, '$.amount_to_pay', 'lots') WHERE operation_id = ?",
      id,
    );
    expect(() => db.store.ledger.storedCheck(id)).toThrow(
      invalidRecord(new RegExp(`ledger_check ${id}: .*amount_to_pay`)),
    );
  });

  it('is read leniently as the reason it no longer reads, for callers that answer that', () => {
    const id = testId();
    db.store.record(sale(id));
    tamper("UPDATE ledger_check SET check_json = '{not json' WHERE operation_id = ?", id);
    expect(db.store.ledger.readCheck(id)?.document).toEqual({
      ok: false,
      problem: 'stored check is not JSON',
    });
    expect(db.store.ledger.hasCheck(id)).toBe(true);
  });

  it('of a refund is refused by the list of refunds when it no longer matches its schema', () => {
    const original = testId();
    const refund = testId();
    db.store.record(sale(original));
    db.store.record(
      sale(refund, {
        check: {
          transactionType: 'refund',
          originalTransactionId: original,
          amountToPay: 1,
          document: {
            transaction_id: refund,
            transaction_type: 'refund',
            external_additional_info: { refund_lines: [{ index: 0, quantity: 1 }] },
          },
        },
      }),
    );
    expect(
      db.store.refunds.of(original)[0]?.document.external_additional_info?.refund_lines,
    ).toEqual([{ index: 0, quantity: 1 }]);
    tamper(
      "UPDATE ledger_check SET check_json = json_set(check_json, '$.external_additional_info.refund_lines[0].index', -1) WHERE operation_id = ?",
      refund,
    );
    expect(() => db.store.refunds.of(original)).toThrow(
      invalidRecord(new RegExp(`ledger_check ${refund}: .*refund_lines\\[0\\]\\.index`)),
    );
  });
});

describe('a kept command answer', () => {
  it('is refused as invalid-record when it no longer matches its command output schema', () => {
    const id = testId();
    db.store.commandResults.put('sale-cancel', id, 'h', saleCancelAnswer(id), db.clock.now());
    tamper(
      "UPDATE command_result SET response = json_set(response, '$.sync.state', 'lost') WHERE key = ?",
      id,
    );
    expect(() => db.store.commandResults.get('sale-cancel', id)).toThrow(
      invalidRecord(new RegExp(`command_result sale-cancel ${id}: .*sync\\.state`)),
    );
  });

  it('is read leniently as the reason it no longer reads, with its request hash', () => {
    const id = testId();
    db.store.commandResults.put('sale-cancel', id, 'h', saleCancelAnswer(id), db.clock.now());
    tamper("UPDATE command_result SET response = '[]' WHERE key = ?", id);
    expect(db.store.commandResults.read('sale-cancel', id)).toMatchObject({
      requestHash: 'h',
      read: { ok: false, problem: expect.stringMatching(/no longer valid/) },
    });
    expect(db.store.commandResults.has('sale-cancel', id)).toBe(true);
  });
});

describe('the fuel records kept beside the answers', () => {
  it('a pump authorisation round-trips through its schema', async () => {
    const id = testId();
    const kept = authorisation(id);
    db.store.commandResults.put('fuel-authorisation', id, 'h', kept, db.clock.now());
    await db.reopen();
    expect(db.store.commandResults.get('fuel-authorisation', id)?.response).toEqual(kept);
  });

  it('a pump authorisation that breaks its schema is not kept', () => {
    const id = testId();
    expect(() =>
      db.store.commandResults.put(
        'fuel-authorisation',
        id,
        'h',
        { ...authorisation(id), prepaidCash: 'all of it' },
        db.clock.now(),
      ),
    ).toThrow(/fuel-authorisation answer breaks its schema at prepaidCash/);
    expect(db.store.commandResults.has('fuel-authorisation', id)).toBe(false);
  });

  const records = [
    ['fuel-authorisation', authorisation, '$.card.paymentId', 'card.paymentId'],
    ['fuel-completion', () => ({ completion: testId() }), '$.completion', 'completion'],
    [
      'fuel-released',
      () => ({ payment_id: testId(), released_at: '2026-11-22T10:15:00.000Z', reason: 'lifetime' }),
      '$.released_at',
      'released_at',
    ],
  ] as const;
  for (const [kind, make, where, path] of records) {
    it(`a stored ${kind} that no longer matches its schema is refused as invalid-record`, () => {
      const id = testId();
      db.store.commandResults.put(kind, id, 'h', make(id), db.clock.now());
      tamper(
        `UPDATE command_result SET response = json_set(response, ?, 42) WHERE key = ?`,
        where,
        id,
      );
      expect(() => db.store.commandResults.get(kind, id)).toThrow(
        invalidRecord(new RegExp(`command_result ${kind} ${id}: .*${path.replace('.', '\\.')}`)),
      );
    });
  }
});

describe('a cached record', () => {
  it('is refused as invalid-record, naming its table and id, when it no longer matches its schema', () => {
    const id = testId();
    db.store.cache.put('customer', { id, access_type: 'full-bonuses-access' }, db.clock.now());
    tamper("UPDATE customer SET data = json_set(data, '$.access_type', 'vip') WHERE id = ?", id);
    expect(() => db.store.cache.get('customer', id)).toThrow(
      invalidRecord(new RegExp(`customer ${id}: .*access_type`)),
    );
  });
});

describe('a customer found by card', () => {
  it("is refused naming the card's customer by id when its record no longer reads", () => {
    const id = testId();
    db.store.cache.put('customer', { id, access_type: 'full-bonuses-access' }, db.clock.now());
    db.store.cache.put('card', { id: testId(), code: 'CARD-77', customer_id: id }, db.clock.now());
    tamper("UPDATE customer SET data = json_set(data, '$.access_type', 'vip') WHERE id = ?", id);
    expect(() => db.store.cache.identify('CARD-77', 'card')).toThrow(
      invalidRecord(new RegExp(`customer ${id}: .*access_type`)),
    );
  });
});

describe('the sync state', () => {
  it('refuses a stored value that no longer matches its schema as invalid-record', () => {
    db.store.sync.setValue('last_pull_at', db.clock.now(), db.clock.now());
    tamper("UPDATE sync_state SET value = '\"yesterday\"' WHERE key = 'last_pull_at'");
    expect(() => db.store.sync.lastPullAt()).toThrow(invalidRecord(/sync_state last_pull_at/));
  });

  it("reads another value through the caller's schema, saying why one no longer reads", () => {
    db.store.sync.setValue('last_contact', { wall: 'noon' }, db.clock.now());
    expect(db.store.sync.getValue('last_contact', z.object({ wall: z.number() }))).toMatchObject({
      ok: false,
    });
  });
});

describe('an attention item', () => {
  it('is refused as invalid-record when its stored error no longer matches its schema', () => {
    const item = db.store.attention.note(
      {
        id: testId(),
        kind: 'outbox-rejected',
        ref: testId(),
        message: 'refused',
        error: { code: 'limit-exceeded', message: 'over the limit', path: 'check' },
      },
      db.clock.now(),
    );
    expect(db.store.attention.get(item.id)?.error).toEqual({
      code: 'limit-exceeded',
      message: 'over the limit',
      path: 'check',
    });
    tamper('UPDATE attention_item SET error = \'{"code":7}\' WHERE id = ?', item.id);
    expect(() => db.store.attention.get(item.id)).toThrow(
      invalidRecord(new RegExp(`attention_item ${item.id} error: .*code`)),
    );
  });
});

describe('the shift report', () => {
  it('leaves out an operation whose stored check no longer reads, naming it', () => {
    const shift = db.store.shifts.open(
      { id: testId(), staffId: 'st1', staffName: null },
      db.clock.now(),
    );
    const good = testId();
    const bad = testId();
    db.store.record(sale(good));
    db.store.record(sale(bad));
    tamper(
      'UPDATE ledger_check SET check_json = json_set(check_json, \'$.payments\', json(\'[{"type":"cash","amount":"lots"}]\')) WHERE operation_id = ?',
      bad,
    );
    expect(db.store.shifts.operationsOf(shift).map((o) => o.id)).toEqual([good]);
    expect(db.store.shifts.unreadableOf(shift)).toEqual([{ id: bad, field: 'check' }]);
  });
});
