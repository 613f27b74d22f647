// What earlier partial refunds left of a sale (engine.md 15). A refund in steps refunds each
// step from this remainder, so the last step returns exactly the rest and the steps add up to
// a cancel. The terminal and the sandbox central both call this, so both sides compute the
// same figures from the same stored check.
import type { EngineCheckResult, EngineProcessedCheck } from '../contract/engine.js';
import { dec, sub, toNumber } from '../money/index.js';

/** One earlier refund: the original line indexes it refunded and the refund check it produced. */
export interface EarlierRefund {
  lines: readonly number[];
  check: EngineCheckResult;
}

const minus = (a: number | undefined | null, b: number | undefined | null): number =>
  toNumber(sub(dec(a ?? 0), dec(b ?? 0)));

/**
 * Each refunded line's quantity and values (amount, discount, bonuses spent and earned) taken
 * off its line, and the bonuses returned and the account money given back taken off the check.
 */
export function remainderOf(
  original: EngineProcessedCheck,
  refunds: readonly EarlierRefund[],
): EngineProcessedCheck {
  if (refunds.length === 0) return original;
  const items = [...(original.check_items ?? [])];
  let bonusesRedeemed = original.bonuses_redeemed_amount ?? 0;
  const charges = (original.special_accounts_charges ?? []).map((c) => ({ ...c }));
  for (const r of refunds) {
    // The engine answers the refunded lines in index order.
    const lines = [...r.lines].sort((a, b) => a - b);
    (r.check.check_items ?? []).forEach((back, j) => {
      const index = lines[j];
      const it = index === undefined ? undefined : items[index];
      if (index === undefined || !it) return;
      items[index] = {
        ...it,
        quantity: minus(it.quantity, back.quantity),
        amount: minus(it.amount, back.amount),
        discount_amount: minus(it.discount_amount, back.discount_amount),
        calculated_bonuses_redeemed_amount: minus(
          it.calculated_bonuses_redeemed_amount,
          back.calculated_bonuses_redeemed_amount,
        ),
        bonuses_added: minus(it.bonuses_added, back.bonuses_added),
      };
    });
    bonusesRedeemed = minus(bonusesRedeemed, r.check.bonuses_redeemed_amount);
    (r.check.special_accounts_charges ?? []).forEach((c, n) => {
      const left = charges[n];
      if (left) left.amount = minus(left.amount, c.amount);
    });
  }
  return {
    ...original,
    check_items: items,
    bonuses_redeemed_amount: bonusesRedeemed,
    special_accounts_charges: charges,
  };
}
