// A test world with the sale service wired in (sandbox on 127.0.0.1, real engine), its cache
// pulled, and small helpers to record what the terminal's returns workflow records.
import type { EngineCheckResult } from '../../src/contract/engine.js';
import { calculate, compileRules } from '../../src/engine/index.js';
import { OUTBOX_PAYLOAD_VERSION } from '../../src/sync/outbox-payload.js';
import type { SaleService } from '../../src/terminal/sale-service.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { startWorld, tillSales, type World } from './world.js';

export interface SalesWorld extends World {
  sales: SaleService;
}

export async function startSalesWorld(): Promise<SalesWorld> {
  const w = await startWorld();
  const sales = tillSales(w, w.central.terminal_id, {
    central: { timeouts: { online_deadline_ms: 1_000 } },
  });
  const pulled = await w.puller.pull();
  if (!pulled.ok) throw new Error('the first pull failed');
  return { ...w, sales };
}

const payload = (w: World, body: Record<string, unknown>) => ({
  body,
  app_version: 'test',
  schema_version: 2,
  made_at: new Date(w.clock.now()).toISOString(),
  clock_suspect: false,
});

/**
 * Records a refund of some lines of a sale with its `refund_check` outbox row, computed by
 * the engine's refund mode from the stored check, as src/terminal/returns.ts does.
 */
export function recordRefund(
  w: World,
  originalId: string,
  lines: { index: number; quantity: number }[],
): { id: string; check: EngineCheckResult } {
  const ctx = w.store.assembleRefund({ transactionId: originalId, lines });
  if (!ctx) throw new Error(`no stored check ${originalId}`);
  const result = calculate(ctx.context, compileRules(ctx.rules));
  if ('error' in result) throw new Error(result.error.code);
  const id = uuidv7(w.clock.now());
  const check = { ...result.check, transaction_id: id, preliminary_transaction_id: originalId };
  const customerId = w.store.ledger.status(originalId)?.customerId ?? null;
  w.store.record({
    id,
    kind: 'check',
    subtype: 'online',
    customerId,
    localDate: new Date(w.clock.now()).toISOString().slice(0, 10),
    check: {
      transactionType: 'refund',
      originalTransactionId: originalId,
      amountToPay: check.amount_to_pay ?? 0,
      document: check,
    },
    ...(customerId
      ? {
          bonuses: {
            returned: check.bonuses_redeemed_amount ?? 0,
            writtenOff: check.bonuses_added_amount ?? 0,
          },
        }
      : {}),
    payments: [{ type: 'cash', amount: check.amount_to_pay ?? 0 }],
    outbox: {
      operation: 'refund_check',
      version: OUTBOX_PAYLOAD_VERSION,
      payload: payload(w, { transaction_id: id, original_transaction_id: originalId, lines }),
    },
  });
  return { id, check };
}

/** Records a cancel of a sale with its `cancel_check` outbox row. */
export function recordCancel(w: World, saleId: string): string {
  const id = uuidv7(w.clock.now());
  w.store.record({
    id,
    kind: 'cancellation',
    subtype: 'online',
    localDate: new Date(w.clock.now()).toISOString().slice(0, 10),
    cancellation: { transactionId: saleId, comment: null },
    outbox: {
      operation: 'cancel_check',
      version: OUTBOX_PAYLOAD_VERSION,
      payload: payload(w, { transaction_id: saleId }),
    },
  });
  return id;
}
