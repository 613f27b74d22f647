// What a sale's recorded refunds took back, per line of the sale: the quantity (which the next
// refund may not exceed) and the amount (which `sales-recent` shows). One reading of a refund's
// `refund_lines` for both; the k-th step of a refund is its check's k-th item.
import { add, dec, ZERO, type Dec } from '../money/index.js';
import type { RecordedRefund } from '../store/refunds.js';

export interface TakenBack {
  readonly quantity: Dec;
  readonly amount: Dec;
}

/** Per line index of the sale, what the refunds took back. */
export function takenBack(refunds: readonly RecordedRefund[]): Map<number, TakenBack> {
  const taken = new Map<number, TakenBack>();
  for (const r of refunds) {
    const steps = r.document.external_additional_info?.refund_lines ?? [];
    steps.forEach((s, k) => {
      const was = taken.get(s.index) ?? { quantity: ZERO, amount: ZERO };
      const amount = r.document.check_items?.[k]?.amount ?? 0;
      taken.set(s.index, {
        quantity: add(was.quantity, dec(s.quantity)),
        amount: add(was.amount, dec(amount)),
      });
    });
  }
  return taken;
}
