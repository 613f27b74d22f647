// Services, terminal margins and taxes (engine.md 11, 16). Services add to the summary;
// margins are reported only; VAT is inside the price and sales tax is added on top.
import type {
  EngineAdditionalCost,
  EngineCheckItem,
  EngineCheckService,
  EngineMarginItem,
  EngineTaxItem,
} from '../contract/engine.js';
import { type Dec, ZERO, add, cmp, dec, div, max, mul, round } from '../money/index.js';
import { HUNDRED, num, percentOf, wire } from './numbers.js';
import type { CalcState, LineState } from './state.js';

/** The check's services with their amounts, and their sum (engine.md 11, 16). */
export function calculateServices(
  s: CalcState,
  checkAmount: Dec,
): { services: EngineCheckService[]; total: Dec } {
  let total: Dec = ZERO;
  const services = (s.check.check_services ?? []).map((service): EngineCheckService => {
    const known = s.ctx.additional_services.find((a) => a.code === service.code);
    const cost = known?.cost?.find((c) => c.currency === s.currency);
    if (known && cost) {
      const digits = cost.decimal_digits ?? service.decimal_digits ?? s.digits.amount;
      let tier: (typeof cost.values)[number] | undefined;
      for (const t of cost.values) {
        if (cmp(dec(t.threshold), checkAmount) <= 0 && (!tier || t.threshold >= tier.threshold))
          tier = t;
      }
      let amount: Dec = ZERO;
      let unitCost: Dec | undefined;
      if (tier) {
        const v = dec(tier.value);
        if (tier.type === 'amount') amount = round(v, digits);
        else if (tier.type === 'percentage') amount = percentOf(checkAmount, v, digits);
        else {
          unitCost = v;
          amount = round(mul(v, num(service.value ?? 1)), digits);
        }
      }
      amount = max(amount, round(num(cost.min_value), digits));
      total = add(total, amount);
      return {
        ...service,
        ...(service.title === undefined && known.public_title !== undefined
          ? { title: known.public_title }
          : {}),
        ...(service.type === undefined && known.type !== undefined ? { type: known.type } : {}),
        ...(unitCost !== undefined ? { cost: wire(unitCost, digits) } : {}),
        amount: wire(amount, digits),
        decimal_digits: digits,
        additional_service_id: known.id,
      };
    }
    const digits = service.decimal_digits ?? s.digits.amount;
    const amount =
      service.amount !== undefined
        ? round(dec(service.amount), digits)
        : round(mul(num(service.value ?? 1), num(service.cost)), digits);
    total = add(total, amount);
    return { ...service, amount: wire(amount, digits), decimal_digits: digits };
  });
  return { services, total: round(total, s.digits.amount) };
}

/** One margin to compute on a line: a terminal additional cost, or the line's own margin. */
interface MarginSpec {
  readonly code: string;
  readonly title: string | undefined;
  readonly id: string | undefined;
  readonly type: 'amount' | 'percentage';
  readonly value: Dec;
  readonly digits: number;
  readonly receipt: boolean;
}

// Shared answers for the usual line, which has neither (never changed by their users).
const NO_MARGINS: readonly EngineMarginItem[] = Object.freeze([]);
const NO_SPECS: readonly MarginSpec[] = Object.freeze([]);
const NO_OWN_MARGINS: Readonly<NonNullable<EngineCheckItem['margins']>> = Object.freeze([]);
const NO_TAXES: { readonly items: readonly EngineTaxItem[]; readonly sales: Dec } = Object.freeze({
  items: Object.freeze([]),
  sales: ZERO,
});

/** Whether a line has taxes or margins: else lineTaxes and lineMargins never read the base. */
export function needsBase(s: CalcState, line: LineState): boolean {
  const { taxes, margins } = line.item;
  return (
    (taxes !== undefined && taxes.length > 0) ||
    (margins !== undefined && margins.length > 0) ||
    s.ctx.additional_costs.length > 0
  );
}

function marginSpecs(s: CalcState, line: LineState): readonly MarginSpec[] {
  const own = line.item.margins ?? NO_OWN_MARGINS;
  if (own.length === 0 && s.ctx.additional_costs.length === 0) return NO_SPECS;
  const specs: MarginSpec[] = s.ctx.additional_costs
    .filter((c): c is EngineAdditionalCost & { code: string } => c.code !== undefined)
    .map((c) => {
      const mine = own.find((m) => m.code === c.code);
      return {
        code: c.code,
        title: c.title,
        id: c.id,
        type: mine?.type ?? c.type ?? 'amount',
        value: dec(mine?.value ?? c.default_value ?? 0),
        digits: c.decimal_digits ?? s.digits.amount,
        receipt: c.include_in_receipt === 1,
      };
    });
  for (const m of own) {
    if (specs.some((x) => x.code === m.code)) continue;
    specs.push({
      code: m.code,
      title: m.title,
      id: undefined,
      type: m.type,
      value: dec(m.value),
      digits: s.digits.amount,
      receipt: false,
    });
  }
  return specs;
}

/** A line's margins: `amount` per unit, `percentage` of the amount after discounts. */
export function lineMargins(
  s: CalcState,
  line: LineState,
  quantity: Dec,
  afterDiscount: Dec,
): readonly EngineMarginItem[] {
  const specs = marginSpecs(s, line);
  if (specs.length === 0) return NO_MARGINS; // the usual line: nothing to build
  return specs.map((m) => {
    const value =
      m.type === 'amount'
        ? round(mul(m.value, quantity), m.digits)
        : percentOf(afterDiscount, m.value, m.digits);
    return {
      decimal_digits: m.digits,
      include_in_receipt: m.receipt,
      source: m.id !== undefined ? 'additional-cost' : 'item',
      type: m.type,
      value: wire(value, m.digits),
      ...(m.code !== undefined ? { value_code: m.code } : {}),
      ...(m.id !== undefined ? { value_id: m.id } : {}),
      ...(m.title !== undefined ? { value_title: m.title } : {}),
    };
  });
}

/** A line's taxes on base = amount - discount (engine.md 11, 16). */
export function lineTaxes(
  s: CalcState,
  line: LineState,
  base: Dec,
): { readonly items: readonly EngineTaxItem[]; readonly sales: Dec } {
  const taxes = line.item.taxes;
  if (taxes === undefined || taxes.length === 0) return NO_TAXES; // shared: never changed
  const digits = s.digits.amount;
  let sales: Dec = ZERO;
  const items = taxes.map((t): EngineTaxItem => {
    const rate = dec(t.rate);
    const exempt = t.exempt === true;
    let value: Dec = ZERO;
    if (!exempt) {
      value =
        t.type === 'vat'
          ? div(mul(base, rate), add(HUNDRED, rate), digits)
          : percentOf(base, rate, digits);
    }
    if (t.type === 'sales') sales = add(sales, value);
    return {
      decimal_digits: digits,
      exempt,
      type: t.type,
      value: wire(value, digits),
      value_code: t.code,
      ...(t.title !== undefined ? { value_title: t.title } : {}),
    };
  });
  return { items, sales };
}

/** Sums detailing items by code, in order of first appearance (totals of rounded line values). */
export function aggregateByCode<T extends EngineTaxItem | EngineMarginItem>(
  items: readonly T[],
): T[] {
  const byCode = new Map<string, { item: T; total: Dec; exempt: boolean }>();
  for (const item of items) {
    const code = item.value_code ?? '';
    const value = dec(item.value ?? 0);
    const exempt = 'exempt' in item && item.exempt === true;
    const seen = byCode.get(code);
    if (seen) {
      seen.total = add(seen.total, value);
      seen.exempt = seen.exempt && exempt;
    } else byCode.set(code, { item, total: value, exempt });
  }
  return [...byCode.values()].map(({ item, total, exempt }) => {
    const out = { ...item, value: wire(total, item.decimal_digits ?? 2) };
    if ('exempt' in out) (out as EngineTaxItem).exempt = exempt;
    return out;
  });
}
