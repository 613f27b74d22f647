// Whether a rule is a candidate for this check, by everything that does not depend on the
// lines (engine.md 4, items 1 to 7): loyalty, scope, how it is triggered, schedule, POS,
// customer and kind of sale. Items 8 and 9 live in thresholds.ts. Every rule that passes is
// returned in implemented_rules, whether or not a line matches it (engine.md 17.9): an
// indexed rule that matched no line is a candidate too.
import type { CompiledRule } from './rule-index.js';
import { inSchedule } from './schedule.js';
import type { CalcState } from './state.js';

export function isCandidate(c: CompiledRule, s: CalcState): boolean {
  const r = c.rule;
  // 1. active rules only are compiled; the loyalty must agree when both are set.
  if (r.loyalty_id && s.loyaltyId && r.loyalty_id !== s.loyaltyId) return false;
  // 2. corporate rules for corporate checks, retail rules otherwise.
  if ((r.scope === 'corporate') !== s.corporate) return false;
  // 3. how the rule is triggered.
  switch (r.automatic) {
    case 0:
    case 4:
      if (s.check.manual_rules !== true || !s.manualIds.has(r.id)) return false;
      break;
    case 2:
      if (!r.coupon_batch_code || !s.modifierBatches.has(r.coupon_batch_code)) return false;
      break;
    default:
      break;
  }
  // 4. schedule, in the local time zone.
  if (c.schedule !== null && !inSchedule(c.schedule, s.local())) return false;
  // 5. POS list.
  if (c.posIds !== null && (s.posId === undefined || !c.posIds.has(s.posId))) return false;
  // 6. customer.
  if (r.applicable_for_customer === 'identified' && !s.identified) return false;
  if (r.applicable_for_customer === 'new' && !(s.identified && s.isNew)) return false;
  const customer = s.ctx.customer;
  if (r.card_category_id && customer?.card_category_id !== r.card_category_id) return false;
  if (
    r.corporate_customer_category_id &&
    customer?.corporate_customer_category_id !== r.corporate_customer_category_id
  ) {
    return false;
  }
  // 7. kind of sale.
  const sale = r.applicable_for_sale;
  if (sale === 'terminal' || sale === 'online-store') {
    const online = Boolean(s.check.online_store_order_id);
    if ((sale === 'online-store') !== online) return false;
  }
  return true;
}
