// A sale recorded before the bounds existed (docs/contract.md, "Bounds") may hold figures the
// answers' schema refuses. Asking for it (`sale-status`) or retrying it (`sale-process` with
// its transaction id) answers that it is recorded, naming it, with a clear note: never 500,
// and never "unknown" (which would invite selling it twice).
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

const HUGE = 1e16;

async function recordedSale(): Promise<{ t: Till; id: string; body: unknown }> {
  const t = await openTill();
  till = t;
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', { opening_cash: 100 });
  const id = uuidv7(Date.now());
  const body = {
    transaction_id: id,
    check: { check_items: [item('WTR-1', 2, { price: 1.49 })], payment_type: 'cash' },
  };
  await t.ok('sale-process', body);
  return { t, id, body };
}

/** Writes figures no till sells into the stored sale, as a store from before the bounds holds. */
function storeBeyondBounds(t: Till, id: string, keptAnswer: 'keep' | 'drop'): void {
  const db = new Database(join(t.dir, 'terminal.sqlite'));
  try {
    db.prepare(
      "UPDATE ledger_check SET check_json = json_set(check_json, '$.amount_to_pay', ?) WHERE operation_id = ?",
    ).run(HUGE, id);
    if (keptAnswer === 'drop') db.prepare('DELETE FROM command_result WHERE key = ?').run(id);
    else
      db.prepare(
        "UPDATE command_result SET response = json_set(response, '$.check.amount_to_pay', ?) WHERE key = ?",
      ).run(HUGE, id);
  } finally {
    db.close();
  }
}

function expectRecordedNote(r: { status: number; body: unknown }, id: string): void {
  expect(r.status).toBe(422);
  expect(r.body).toMatchObject({
    error: {
      code: 'sale-unreadable',
      path: 'transaction_id',
      details: {
        transaction_id: id,
        state: 'committed',
        subtype: expect.any(String),
        cancelled: false,
      },
    },
  });
  expect((r.body as { error: { message: string } }).error.message).toMatch(
    /recorded.*do not sell it again/,
  );
}

/** Makes the stored check no longer read as a check: its amount to pay becomes text. */
function storeUnreadableCheck(t: Till, id: string): void {
  const db = new Database(join(t.dir, 'terminal.sqlite'));
  try {
    db.prepare(
      "UPDATE ledger_check SET check_json = json_set(check_json, '$.amount_to_pay', 'lots') WHERE operation_id = ?",
    ).run(id);
    db.prepare('DELETE FROM command_result WHERE key = ?').run(id);
  } finally {
    db.close();
  }
}

describe('a stored sale whose check no longer passes its schema', () => {
  it('sale-status answers it recorded, with a note, not 500', async () => {
    const { t, id } = await recordedSale();
    storeUnreadableCheck(t, id);
    expectRecordedNote(await t.call('sale-status', { transaction_id: id }), id);
  }, 30_000);

  it('a retry answers it recorded, with a note, not 500', async () => {
    const { t, id, body } = await recordedSale();
    storeUnreadableCheck(t, id);
    expectRecordedNote(await t.call('sale-process', body), id);
  }, 30_000);
});

describe('a stored sale whose figures are beyond the bounds', () => {
  it('sale-status answers it recorded, with a note, not 500', async () => {
    const { t, id } = await recordedSale();
    storeBeyondBounds(t, id, 'keep');
    expectRecordedNote(await t.call('sale-status', { transaction_id: id }), id);
  }, 30_000);

  it('a retry answers it recorded, with a note, not 500, when its answer is rebuilt from the ledger', async () => {
    const { t, id, body } = await recordedSale();
    storeBeyondBounds(t, id, 'drop');
    expectRecordedNote(await t.call('sale-process', body), id);
  }, 30_000);

  it('a retry answers it recorded, with a note, not 500, when its kept answer holds the figures', async () => {
    const { t, id, body } = await recordedSale();
    storeBeyondBounds(t, id, 'keep');
    expectRecordedNote(await t.call('sale-process', body), id);
  }, 30_000);

  it('a sale within the bounds is answered as before', async () => {
    const { t, id, body } = await recordedSale();
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
    expect((await t.ok('sale-process', body)).transaction_id).toBe(id);
  }, 30_000);
});
