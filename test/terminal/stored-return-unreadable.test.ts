// A sale (or a refund of it) whose stored record no longer reads back through its schema, in
// the terminal's real SQLite file: cancelling or refunding it answers `sale-unreadable` (422)
// naming the sale, never 500 `internal`, and gives nothing back (docs/terminal.md).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

async function recordedSale(): Promise<{ t: Till; id: string }> {
  const t = await openTill();
  till = t;
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', { opening_cash: 100 });
  const id = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: id,
    check: { check_items: [item('WTR-1', 2, { price: 1.49 })], payment_type: 'cash' },
  });
  return { t, id };
}

/** Runs SQL on the till's own database file, beside the terminal's connection. */
function onFile(t: Till, sql: string, ...params: unknown[]): void {
  const db = new Database(join(t.dir, 'terminal.sqlite'));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** The stored check of `id` cut short: no longer JSON at all. */
function truncateCheck(t: Till, id: string): void {
  onFile(
    t,
    'UPDATE ledger_check SET check_json = substr(check_json, 1, 20) WHERE operation_id = ?',
    id,
  );
}

/** The stored check of `id` still JSON, but its amount to pay is text. */
function breakCheck(t: Till, id: string): void {
  onFile(
    t,
    "UPDATE ledger_check SET check_json = json_set(check_json, '$.amount_to_pay', 'lots') WHERE operation_id = ?",
    id,
  );
}

function expectUnreadable(
  r: { status: number; body: unknown },
  saleId: string,
  path: string,
): void {
  expect(r.status).toBe(422);
  expect(r.body).toMatchObject({
    error: { code: 'sale-unreadable', path, details: { transaction_id: saleId } },
  });
  const message = (r.body as { error: { message: string } }).error.message;
  expect(message).toContain(saleId);
  expect(message).toMatch(/no longer reads/);
}

describe('a sale whose stored check no longer reads', () => {
  it('sale-cancel answers sale-unreadable naming the sale, not 500', async () => {
    const { t, id } = await recordedSale();
    truncateCheck(t, id);
    expectUnreadable(await t.call('sale-cancel', { transaction_id: id }), id, 'transaction_id');
  }, 30_000);

  it('sale-refund answers sale-unreadable naming the sale, not 500', async () => {
    const { t, id } = await recordedSale();
    breakCheck(t, id);
    const refund = {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 1 }],
    };
    expectUnreadable(await t.call('sale-refund', refund), id, 'original_transaction_id');
  }, 30_000);

  it('sale-status answers sale-unreadable, not 500, when the check is not JSON at all', async () => {
    const { t, id } = await recordedSale();
    truncateCheck(t, id);
    const r = await t.call('sale-status', { transaction_id: id });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: { code: 'sale-unreadable', details: { transaction_id: id, state: 'committed' } },
    });
  }, 30_000);
});

describe('a sale whose earlier refund no longer reads', () => {
  async function refundedSale(): Promise<{ t: Till; id: string; refundId: string }> {
    const { t, id } = await recordedSale();
    const refundId = uuidv7(Date.now());
    await t.ok('sale-refund', {
      transaction_id: refundId,
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 1 }],
    });
    truncateCheck(t, refundId);
    return { t, id, refundId };
  }

  it('a further refund answers sale-unreadable naming the sale and gives nothing back', async () => {
    const { t, id } = await refundedSale();
    const next = uuidv7(Date.now());
    const r = await t.call('sale-refund', {
      transaction_id: next,
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 1 }],
    });
    expectUnreadable(r, id, 'original_transaction_id');
    expect((await t.ok('sale-status', { transaction_id: next })).state).toBe('unknown');
  }, 30_000);

  it('sale-cancel answers sale-unreadable naming the sale, not 500', async () => {
    const { t, id } = await refundedSale();
    expectUnreadable(await t.call('sale-cancel', { transaction_id: id }), id, 'transaction_id');
  }, 30_000);
});

describe('a cancel whose kept answer no longer reads', () => {
  it('a repeat of the cancel answers sale-unreadable naming the sale, and cancels nothing again', async () => {
    const { t, id } = await recordedSale();
    await t.ok('sale-cancel', { transaction_id: id });
    onFile(
      t,
      "UPDATE command_result SET response = '{broken' WHERE command = 'sale-cancel' AND key = ?",
      id,
    );
    expectUnreadable(await t.call('sale-cancel', { transaction_id: id }), id, 'transaction_id');
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ cancelled: true });
  }, 30_000);
});

describe('a refund whose kept answer no longer reads', () => {
  it('a repeat of the refund answers sale-unreadable naming the sale, and refunds nothing again', async () => {
    const { t, id } = await recordedSale();
    const refund = {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: id,
      lines: [{ index: 0, quantity: 1 }],
    };
    await t.ok('sale-refund', refund);
    onFile(
      t,
      "UPDATE command_result SET response = '{broken' WHERE command = 'sale-refund' AND key = ?",
      refund.transaction_id,
    );
    expectUnreadable(await t.call('sale-refund', refund), id, 'original_transaction_id');
    // Two bottles sold, one refunded once: one is left, whatever the repeat answered.
    const again = { ...refund, transaction_id: uuidv7(Date.now()) };
    await t.ok('sale-refund', again);
    await t.refused(
      'sale-refund',
      { ...refund, transaction_id: uuidv7(Date.now()) },
      'refund-exceeds-sale',
    );
  }, 30_000);
});
