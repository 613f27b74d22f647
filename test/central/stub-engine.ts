// A minimal engine for tests of the transport alone (paging, idempotency, faults): it sums
// the lines and echoes what the check asks to spend. The real engine is tested elsewhere.
import type { RunEngine } from '../../src/central/service.js';

export const stubEngine: RunEngine = (fixture) => {
  const check = (fixture.check ?? {}) as Record<string, unknown>;
  const items = (
    (check.check_items as { quantity: number; price?: number; amount?: number }[] | undefined) ?? []
  ).map((i) => ({
    ...i,
    amount: i.amount ?? Math.round((i.price ?? 0) * i.quantity * 100) / 100,
  }));
  const amount = Math.round(items.reduce((s, i) => s + i.amount * 100, 0)) / 100;
  const redeemed = (check.bonuses_redeemed_amount as number | undefined) ?? 0;
  const regular = fixture.customer?.bonuses?.regular ?? 0;
  if (fixture.mode === 'process' && redeemed > regular) {
    return {
      error: {
        code: 'insufficient-bonuses',
        message: 'not enough bonuses',
        path: 'bonuses_redeemed_amount',
      },
    };
  }
  return {
    check: {
      ...check,
      check_items: items,
      amount,
      amount_to_pay: amount - redeemed,
      bonuses_redeemed_amount: redeemed,
    } as never,
    warnings: [],
  };
};
