// What lowers the price on the sale screen: the rules the engine applied or offers (a senior
// cashier picks the manual ones), bonuses to spend and coupons to redeem.
import { Component } from 'preact';
import { formatAmount, NONE } from '../format.js';
import { couponErrorKey, reasonKey, type Translate } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import { amountDigits, bonusDigits, shownRules } from '../slices/sale/state.js';
import type { State } from '../state.js';
import type { CheckCoupon, CheckImplementedRule } from '../types.js';
import { Button, Checkbox, Form, Input, Section, type Ctx } from './common.js';

export function RulesPanel({ ctx }: { ctx: Ctx }) {
  const rules = ctx.state.sale.calc.check?.implemented_rules ?? [];
  if (rules.length === 0) return null;
  const all = ctx.state.sale.allRules;
  const shown = shownRules(rules, all);
  const hidden = rules.length - shown.length;
  return (
    <Section title={ctx.t('rules.title')} testid="rules">
      <RuleList ctx={ctx} />
      {hidden > 0 || all ? (
        <Button
          ctx={ctx}
          testid="rules-all"
          does={{ type: 'rules-all', show: !all }}
          label={all ? ctx.t('rules.fewer') : ctx.t('rules.more', { count: hidden })}
        />
      ) : null}
    </Section>
  );
}

/** Whether the rules' rows would differ: the answer, the picked rules, the role, the language. */
export function rulesChanged(a: State, b: State): boolean {
  return (
    a.sale.calc.check !== b.sale.calc.check ||
    a.sale.draft.manualRuleIds !== b.sale.draft.manualRuleIds ||
    a.sale.allRules !== b.sale.allRules ||
    a.settings.language !== b.settings.language ||
    hasRole(a, 'senior-cashier') !== hasRole(b, 'senior-cashier')
  );
}

/**
 * The rules' rows (hundreds against a large rule set), listed again only when the answer, the
 * picked rules, the role or the language change: a line added re-renders the page before the
 * engine answers, and that touches no rule; on the answer each row re-renders only when what
 * it shows changed (`ruleChanged`). The rows' handlers only call `ctx.act`, which never changes.
 */
class RuleList extends Component<{ ctx: Ctx }> {
  override shouldComponentUpdate(next: { ctx: Ctx }): boolean {
    return rulesChanged(this.props.ctx.state, next.ctx.state);
  }

  override render() {
    const { ctx } = this.props;
    const rules = ctx.state.sale.calc.check?.implemented_rules ?? [];
    const shown = shownRules(rules, ctx.state.sale.allRules);
    return (
      <ul class="list">
        {shown.map(({ rule, index }) => (
          <KeptRule key={rule.id ?? index} ctx={ctx} r={rule} i={index} />
        ))}
      </ul>
    );
  }
}

type RuleProps = { ctx: Ctx; r: CheckImplementedRule; i: number };

/** What a rule's row shows of the rule (each answer brings new objects). */
function sameRule(a: CheckImplementedRule, b: CheckImplementedRule): boolean {
  if (a === b) return true;
  const [x, y] = [a.implementation_data, b.implementation_data];
  return (
    a.id === b.id &&
    a.title === b.title &&
    a.automatic === b.automatic &&
    a.action_type === b.action_type &&
    x?.applied === y?.applied &&
    x?.amount === y?.amount &&
    x?.reason === y?.reason &&
    x?.missing === y?.missing
  );
}

/**
 * Whether a rule's row would differ: its place, what it shows of the rule, the digits, its
 * pick, the role or the language. An answer re-renders only the rules whose figures it moved.
 */
export function ruleChanged(a: RuleProps, b: RuleProps): boolean {
  const [s, t] = [a.ctx.state, b.ctx.state];
  const picked = (p: RuleProps) =>
    !!p.r.id && p.ctx.state.sale.draft.manualRuleIds.includes(p.r.id);
  return (
    a.i !== b.i ||
    !sameRule(a.r, b.r) ||
    amountDigits(s.sale.calc.check) !== amountDigits(t.sale.calc.check) ||
    bonusDigits(s.sale.calc.check) !== bonusDigits(t.sale.calc.check) ||
    picked(a) !== picked(b) ||
    hasRole(s, 'senior-cashier') !== hasRole(t, 'senior-cashier') ||
    s.settings.language !== t.settings.language
  );
}

class KeptRule extends Component<RuleProps> {
  override shouldComponentUpdate(next: RuleProps): boolean {
    return ruleChanged(this.props, next);
  }

  override render() {
    return <RuleLine {...this.props} />;
  }
}

/** What a rule gave, or why not, or how much more the customer needs to buy for it. */
function ruleDetail(ctx: Ctx, r: CheckImplementedRule): string {
  const { t, state, num } = ctx;
  const data = r.implementation_data;
  const check = state.sale.calc.check;
  const digits = r.action_type === 'bonuses' ? bonusDigits(check) : amountDigits(check);
  if (data?.applied) {
    return data.amount !== undefined ? formatAmount(data.amount, digits, num) : t('rules.applied');
  }
  if (data?.reason === 'display' || r.automatic === 3) {
    return data?.missing !== undefined && data.missing !== null
      ? t('rules.missing', { missing: formatAmount(data.missing, digits, num) })
      : t('rules.hint');
  }
  return data?.reason ? t(reasonKey[data.reason]) : t('rules.not-applied');
}

function RuleLine({ ctx, r, i }: { ctx: Ctx; r: CheckImplementedRule; i: number }) {
  const { state } = ctx;
  const manual = r.automatic === 0 || r.automatic === 4;
  const applied = r.implementation_data?.applied ?? false;
  return (
    <li data-testid={`rule-${i}`} class={applied ? 'applied' : 'not-applied'}>
      {manual && r.id ? (
        <Checkbox
          ctx={ctx}
          testid={`rule-${i}-toggle`}
          does={{ type: 'rule-toggle', id: r.id }}
          label={r.title ?? r.id}
          checked={state.sale.draft.manualRuleIds.includes(r.id)}
          disabled={!hasRole(state, 'senior-cashier')}
        />
      ) : (
        <span class="title">{r.title ?? r.id ?? NONE}</span>
      )}
      <span class="detail">{ruleDetail(ctx, r)}</span>
    </li>
  );
}

export function BonusesPanel({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const c = state.sale.draft.customer;
  const allowed = c !== null && c.access_type === 'full-bonuses-access';
  return (
    <Section title={t('bonuses.title')} testid="bonuses-panel">
      <Form ctx={ctx} submit={{ type: 'bonuses-apply' }} testid="bonuses-form">
        <Input
          ctx={ctx}
          testid="bonuses"
          field="bonuses"
          label={t('bonuses.spend')}
          inputmode="decimal"
          disabled={!allowed}
        />
        <div class="actions">
          <Button
            ctx={ctx}
            testid="bonuses-apply"
            submit
            label={t('bonuses.apply')}
            disabled={!allowed}
            hint="F4"
          />
          <Button
            ctx={ctx}
            testid="bonuses-max"
            does={{ type: 'bonuses-max' }}
            label={t('bonuses.max')}
            disabled={!allowed}
          />
          {state.sale.draft.bonuses ? (
            <Button
              ctx={ctx}
              testid="bonuses-clear"
              does={{ type: 'bonuses-clear' }}
              label={t('bonuses.clear')}
            />
          ) : null}
        </div>
      </Form>
      <BonusesNote ctx={ctx} allowed={allowed} />
    </Section>
  );
}

/** Why bonuses cannot be spent, or what the engine granted of those asked for. */
function BonusesNote({ ctx, allowed }: { ctx: Ctx; allowed: boolean }) {
  const { t, state, num } = ctx;
  if (!state.sale.draft.customer) return <p class="muted">{t('bonuses.identify-first')}</p>;
  if (!allowed) {
    return (
      <p class="muted" data-testid="bonuses-not-allowed">
        {t('bonuses.not-allowed')}
      </p>
    );
  }
  if (!state.sale.draft.bonuses) return null;
  const check = state.sale.calc.check;
  const amount = formatAmount(check?.bonuses_redeemed_amount ?? 0, bonusDigits(check), num);
  return <p data-testid="bonuses-granted">{t('bonuses.granted', { amount })}</p>;
}

export function CouponsPanel({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const results = state.sale.calc.check?.redeemed_coupons ?? [];
  const codes = state.sale.draft.coupons;
  return (
    <Section title={t('coupons.title')} testid="coupons-panel">
      <Form ctx={ctx} submit={{ type: 'coupon-add' }} testid="coupon-form">
        <Input ctx={ctx} testid="coupon-code" field="coupon-code" label={t('coupons.code')} />
        <div class="actions">
          <Button ctx={ctx} testid="coupon-add" submit label={t('coupons.redeem')} hint="F6" />
        </div>
      </Form>
      {codes.length > 0 ? (
        <ul class="list">
          {codes.map((code, i) => (
            <CouponLine
              key={code}
              ctx={ctx}
              code={code}
              i={i}
              r={results.find((c) => c.code === code)}
            />
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function CouponLine(p: { ctx: Ctx; code: string; i: number; r: CheckCoupon | undefined }) {
  const { ctx, code, i, r } = p;
  const { t } = ctx;
  const ok = r ? r.valid !== false && r.applicable !== false : null;
  return (
    <li
      data-testid={`coupon-${i}`}
      class={ok === false ? 'not-applied' : ok ? 'applied' : undefined}
    >
      <span class="title">{r?.title ?? code}</span>
      <span class="detail" data-testid={`coupon-${i}-state`}>
        {ok === null ? NONE : ok ? t('coupons.valid') : couponState(t, r?.error)}
      </span>
      <Button
        ctx={ctx}
        testid={`coupon-${i}-remove`}
        does={{ type: 'coupon-remove', code }}
        label="×"
        title={t('coupons.remove')}
        kind="danger"
      />
    </li>
  );
}

/** Why a coupon is not valid, in words; an unknown reason is shown as the terminal gave it. */
function couponState(t: Translate, error: string | null | undefined): string {
  if (!error) return t('coupons.invalid');
  const key = couponErrorKey(error);
  return key ? `${t('coupons.invalid')}: ${t(key)}` : error;
}
