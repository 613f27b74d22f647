// Coupons (engine.md 9, 16): presented coupons are validated (a bad one comes back with
// `valid` = false and the reason; the check is still calculated), check-modifier coupons
// make their coupon rules candidates, certificates credit on processing, and coupon rules
// emit one provisional coupon each.
import { pickCheckCoupon, type EngineCheckCoupon, type EngineCoupon } from '../contract/engine.js';
import type { CouponErrorCode } from '../contract/enums.js';
import { dec, gt } from '../money/index.js';
import { isCandidate } from './candidates.js';
import { wire } from './numbers.js';
import type { CompiledRule } from './rule-index.js';
import { addDays, addMonths } from './schedule.js';
import type { Access, CalcState } from './state.js';
import { evaluate } from './thresholds.js';

/**
 * Why a coupon is not redeemed: engine.md's values, and ours (issue 12) `other-customer`, a
 * personal coupon presented on someone else's check (docs/engine.md).
 */
export type CouponError = CouponErrorCode | 'other-customer';

export interface PresentedCoupon {
  /** Index of the first presentation in `redeemed_coupons`. */
  readonly index: number;
  readonly request: EngineCheckCoupon;
  readonly record: EngineCoupon | undefined;
  readonly error: CouponError | null;
}

export interface CouponInput {
  readonly presented: readonly EngineCheckCoupon[];
  readonly known: readonly EngineCoupon[];
  readonly access: Access;
  readonly businessId: string;
  /** The check's customer (null: anonymous); a personal coupon is its owner's. */
  readonly customerId: string | null;
  readonly today: () => string;
}

/** Why a coupon cannot be redeemed here, or null (engine.md 9; order of the checks is ours). */
export function couponError(
  input: CouponInput,
  record: EngineCoupon | undefined,
): CouponError | null {
  if (!record) return 'not-found';
  if (input.access === 'in-black-list') return 'customer-blocked';
  if ((record.status ?? 'open') !== 'open') return 'not-open';
  if (record.expire_date && record.expire_date < input.today()) return 'expired';
  const owner = record.batch?.business_id;
  if (record.type !== 'cross-business' && owner !== undefined && owner !== input.businessId)
    return 'other-business';
  if (!sharedWith(record, input.customerId)) return 'other-customer';
  const atTerminal = record.redeem_at_terminal ?? record.batch?.redeem_at_terminal ?? 1;
  if (atTerminal !== 1) return 'not-at-terminal';
  return null;
}

/**
 * Whether the check's customer may redeem a coupon: anyone's (no owner), the owner's own, or
 * another's whose batch may be shared (`share_allowed` = 1; the batch decides).
 */
function sharedWith(record: EngineCoupon, customerId: string | null): boolean {
  const owner = record.customer_id;
  if (owner === undefined || owner === null || owner === customerId) return true;
  return record.batch?.share_allowed === 1;
}

/** Validates each presented code once (a code listed twice is one coupon). */
export function presentCoupons(input: CouponInput): PresentedCoupon[] {
  const seen = new Set<string>();
  const out: PresentedCoupon[] = [];
  input.presented.forEach((request, index) => {
    if (seen.has(request.code)) return;
    seen.add(request.code);
    const record = input.known.find((k) => k.code === request.code);
    out.push({ index, request, record, error: couponError(input, record) });
  });
  return out;
}

/** The type of a coupon: its own, else its batch's. */
export function couponType(p: PresentedCoupon): string | undefined {
  return p.record?.type ?? p.record?.batch?.type;
}

/** Batch codes of valid check-modifier coupons: their coupon rules become candidates. */
export function modifierBatches(presented: readonly PresentedCoupon[]): Set<string> {
  const out = new Set<string>();
  for (const p of presented) {
    const code = p.record?.batch?.code;
    if (p.error === null && couponType(p) === 'check-modifier' && code) out.add(code);
  }
  return out;
}

/**
 * The coupon group (engine.md 7.5): one provisional coupon per applied coupon rule. Its code
 * is the terminal's prefix and counter; without a terminal none (null: engine.md 17.14), as
 * a bare counter would repeat from terminal to terminal.
 */
export function applyCouponRules(s: CalcState, rules: readonly CompiledRule[]): void {
  if (s.access === 'in-black-list') return;
  const terminal = s.ctx.terminal;
  let seq = terminal?.next_coupon_seq ?? 1;
  const prefix = terminal?.coupon_prefix ?? '';
  for (const c of rules) {
    if (!isCandidate(c, s)) continue;
    const ev = evaluate(c, s, null); // no matching line: not applied, no-line (engine.md 17.12)
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    s.emitted.push({
      code: terminal ? `${prefix}${String(seq).padStart(6, '0')}` : null,
      status: 'open',
      processing_status: 'pending',
      do_not_add_to_wallet: c.rule.coupon_do_not_add_to_wallet === 1,
      object_id: c.rule.id.slice(0, 36),
      object_type: 'loyalty-rule',
      batch: { code: c.rule.coupon_batch_code! },
    });
    seq += 1;
    s.reports.push({ compiled: c, applied: true, lines: ev.eligible });
  }
  // Coupon-triggered rules of any group mark their batch as used.
  for (const r of s.reports) {
    const rule = r.compiled.rule;
    if (r.applied && rule.automatic === 2 && rule.coupon_batch_code)
      s.appliedBatches.add(rule.coupon_batch_code);
  }
}

/** The redeemed coupons as the check returns them, with certificates credited on processing. */
export function redeemedCoupons(
  s: CalcState,
  presented: readonly PresentedCoupon[],
): EngineCheckCoupon[] {
  const processing = s.mode === 'process';
  return presented.map((p): EngineCheckCoupon => {
    const base: EngineCheckCoupon = { ...p.request, ...pickCheckCoupon(p.record) };
    if (p.error !== null) {
      s.warnings.push({
        code: 'coupon-invalid',
        message:
          p.error === 'other-customer'
            ? `coupon ${p.request.code} belongs to another customer`
            : `coupon ${p.request.code}: ${p.error}`,
        path: `check.redeemed_coupons[${p.index}]`,
      });
      return { ...base, valid: false, applicable: false, error: p.error };
    }
    let error: CouponError | null = null;
    const type = couponType(p);
    if (type === 'check-modifier') {
      const code = p.record?.batch?.code;
      if (!code || !s.appliedBatches.has(code)) error = 'not-applicable';
    } else if (type === 'certificate') {
      if (!s.identified) error = 'not-applicable';
      else if (processing) creditCertificate(s, p.record!);
    }
    const out: EngineCheckCoupon = { ...base, valid: true, applicable: error === null };
    if (error !== null) out.error = error;
    else delete out.error;
    if (
      out.external_code !== undefined &&
      out.external_code_visibility_type === 'on-redeem' &&
      !processing
    ) {
      delete out.external_code;
    }
    if (processing && error === null) out.status = 'redeemed';
    return out;
  });
}

/** A certificate credits `charge_amount` to its `charge_type` (engine.md 9). */
function creditCertificate(s: CalcState, record: EngineCoupon): void {
  const amount = dec(record.charge_amount ?? 0);
  if (!gt(amount, dec(0))) return;
  const today = s.local().date;
  switch (record.charge_type ?? 'regular-bonuses') {
    case 'regular-bonuses':
      s.bonusesAdded.push({
        amount: wire(amount, s.digits.bonuses),
        ...(record.id !== undefined ? { object_id: record.id.slice(0, 36) } : {}),
      });
      break;
    case 'promotional-bonuses': {
      const value = record.charge_promotional_bonuses_expire_value ?? 0;
      const expire =
        record.charge_promotional_bonuses_expire_type === 'days'
          ? addDays(today, value)
          : record.charge_promotional_bonuses_expire_type === 'months'
            ? addMonths(today, value)
            : (record.charge_promotional_bonuses_expire_date ?? undefined);
      s.bonusesAdded.push({
        amount: wire(amount, s.digits.bonuses),
        starting: today,
        ...(expire !== undefined ? { expire } : {}),
        ...(record.id !== undefined ? { object_id: record.id.slice(0, 36) } : {}),
      });
      break;
    }
    case 'special-account':
      if (record.charge_special_account_id) {
        const currency = record.charge_special_account_currency ?? s.currency;
        s.charges.push({
          special_account_id: record.charge_special_account_id,
          amount: wire(amount, s.digits.special),
          ...(currency !== undefined ? { currency } : {}),
          decimal_digits: s.digits.special,
          direction: 'credit',
        });
      }
      break;
  }
}
