// The sale screen: who buys (customer), what (lines), what the rules gave (discounts,
// bonuses, coupons) and what is due. Every number shown is the engine's, from the latest
// `check-calc`; the request lines only supply code, title and quantity until it answers.
import type { ActionName } from '../actions.js';
import { formatAmount, formatMoney, formatQuantity, NONE } from '../format.js';
import {
  accessKey,
  couponErrorKey,
  errorText,
  idTypeKey,
  itemKindKey,
  reasonKey,
  type Translate,
} from '../i18n.js';
import {
  amountDigits,
  bonusDigits,
  canPay,
  enterMode,
  hasRole,
  ID_TYPE_CHOICES,
  ITEM_KINDS,
  type ItemKind,
} from '../state.js';
import type { CheckImplementedRule, CheckItemRequest, CustomerSummary } from '../types.js';
import { h, type VElement } from '../vnode.js';
import { button, checkbox, form, input, row, section, select, type Ctx } from './common.js';

function customerPanel(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const c = state.sale.draft.customer;
  return section(
    t('customer.title'),
    'customer-panel',
    customerForm(ctx, c !== null),
    c
      ? customerSummary(ctx, c)
      : h('p', { class: 'muted', 'data-testid': 'customer-anonymous' }, t('customer.anonymous')),
  );
}

function customerForm(ctx: Ctx, identified: boolean): VElement {
  const { t, state } = ctx;
  return form(
    'identify',
    'customer-form',
    h(
      'div',
      { class: 'row' },
      input(ctx, {
        testid: 'customer-id',
        field: 'customer-id',
        label: t('customer.id'),
        placeholder: t('customer.id-hint'),
      }),
      select(ctx, {
        testid: 'customer-id-type',
        field: 'customer-id-type',
        label: t('customer.id-type'),
        options: ID_TYPE_CHOICES.map((v) => [v, t(idTypeKey[v])] as const),
      }),
    ),
    input(ctx, {
      testid: 'customer-otp',
      field: 'customer-otp',
      label: t('customer.otp'),
      inputmode: 'numeric',
    }),
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'customer-identify',
        action: 'identify',
        submit: true,
        label: t('customer.identify'),
        kind: 'primary',
        disabled: state.busy === 'customer-identify',
        hint: 'F2',
      }),
      identified
        ? button({
            testid: 'customer-clear',
            action: 'customer-clear',
            label: t('customer.clear'),
          })
        : null,
    ),
  );
}

function customerSummary(ctx: Ctx, c: CustomerSummary): VElement {
  const { t, state } = ctx;
  const digits = bonusDigits(state.sale.calc.check);
  return h(
    'dl',
    { class: 'facts', 'data-testid': 'customer-summary' },
    row(t('customer.name'), c.name ?? NONE, 'customer-name'),
    row(
      t('customer.type'),
      t(c.type === 'corporate-customer' ? 'customer.corporate' : 'customer.retail'),
      'customer-type',
    ),
    row(
      t('customer.access'),
      t(accessKey[c.access_type]),
      'customer-access',
      c.access_type === 'full-bonuses-access' ? null : 'warn',
    ),
    row(t('customer.category'), c.card_category?.title ?? NONE, 'customer-category'),
    row(
      t('customer.bonuses-available'),
      formatAmount(c.bonuses.available, digits, ctx.num),
      'customer-bonuses-available',
    ),
    row(
      t('customer.bonuses-regular'),
      formatAmount(c.bonuses.regular, digits, ctx.num),
      'customer-bonuses-regular',
    ),
    row(
      t('customer.bonuses-promotional'),
      formatAmount(c.bonuses.promotional, digits, ctx.num),
      'customer-bonuses-promotional',
    ),
    state.sale.draft.customerSource === 'cache'
      ? row(t('customer.source'), t('customer.from-cache'), 'customer-source', 'warn')
      : null,
    c.special_accounts.map((a, i) => [
      h('dt', null, a.title ?? a.id),
      h(
        'dd',
        { 'data-testid': `customer-account-${i}` },
        a.available === null
          ? t('customer.unlimited')
          : formatMoney(a.available, amountDigits(state.sale.calc.check), a.currency, ctx.num),
        a.type === 'quantity' ? ` (${t('customer.account-quantity')})` : '',
        a.pin_required ? ` · ${t('customer.pin')}` : '',
      ),
    ]),
  );
}

function itemPanel(ctx: Ctx): VElement {
  const mode = enterMode(ctx.state);
  return section(
    ctx.t('item.title'),
    'item-panel',
    mode === 'presets-only' ? null : itemForm(ctx),
    mode === 'manually-only' ? null : presetButtons(ctx, mode === 'presets-only'),
  );
}

/** A line typed in: goods, or fuel prepaid by amount or by litres. */
function itemForm(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const kind = (state.form['item-kind'] || 'goods') as ItemKind;
  return form(
    'item-add',
    'item-form',
    select(ctx, {
      testid: 'item-kind',
      field: 'item-kind',
      label: t('item.kind'),
      options: ITEM_KINDS.map((k) => [k, t(itemKindKey[k])] as const),
    }),
    h(
      'div',
      { class: 'row' },
      input(ctx, { testid: 'item-code', field: 'item-code', label: t('item.code') }),
      input(ctx, { testid: 'item-title', field: 'item-title', label: t('item.title-field') }),
    ),
    h(
      'div',
      { class: 'row' },
      input(ctx, {
        testid: 'item-price',
        field: 'item-price',
        label: kind === 'goods' ? t('item.price') : t('item.price-per-unit'),
        inputmode: 'decimal',
      }),
      kind === 'fuel-amount'
        ? input(ctx, {
            testid: 'item-amount',
            field: 'item-amount',
            label: t('item.prepay-amount'),
            inputmode: 'decimal',
          })
        : input(ctx, {
            testid: 'item-quantity',
            field: 'item-quantity',
            label: kind === 'goods' ? t('item.quantity') : t('item.litres'),
            inputmode: 'decimal',
          }),
    ),
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'item-add',
        action: 'item-add',
        submit: true,
        label: t('item.add'),
        kind: 'primary',
        hint: 'F3',
      }),
    ),
  );
}

/** The POS presets; none: a note when they are the only way in, else nothing. */
function presetButtons(ctx: Ctx, onlyWay: boolean): VElement | null {
  const { t, state } = ctx;
  if (state.presets.length === 0) {
    return onlyWay
      ? h('p', { class: 'muted', 'data-testid': 'presets-empty' }, t('item.no-presets'))
      : null;
  }
  return h(
    'div',
    { class: 'presets', 'data-testid': 'presets', role: 'group', 'aria-label': t('item.presets') },
    state.presets.map((p, i) =>
      button({
        testid: `preset-${i}`,
        action: 'preset-add',
        arg: String(i),
        label: `${p.title ?? p.code}${p.price === undefined ? '' : ` · ${formatAmount(p.price, 2, ctx.num)}`}`,
      }),
    ),
  );
}

function linesTable(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const lines = state.sale.draft.lines;
  if (lines.length === 0) {
    return h('p', { class: 'muted empty', 'data-testid': 'lines-empty' }, t('lines.empty'));
  }
  return h(
    'table',
    { class: 'lines', 'data-testid': 'lines', 'aria-label': t('lines.title') },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, t('lines.item')),
        h('th', { scope: 'col', class: 'num' }, t('lines.quantity')),
        h('th', { scope: 'col', class: 'num' }, t('lines.price')),
        h('th', { scope: 'col', class: 'num' }, t('lines.discount')),
        h('th', { scope: 'col', class: 'num' }, t('lines.amount')),
        h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('lines.actions'))),
      ),
    ),
    h(
      'tbody',
      null,
      lines.map((line, i) => lineRow(ctx, line, i)),
    ),
  );
}

/** One line: the request's code and quantity, the engine's figures once it answered. */
function lineRow(ctx: Ctx, line: CheckItemRequest, i: number): VElement {
  const { t, state } = ctx;
  const calc = state.sale.calc.check;
  const digits = amountDigits(calc);
  const out = calc?.check_items?.[i];
  const qty = out?.quantity ?? line.quantity;
  const selected = state.sale.selected === i;
  return h(
    'tr',
    {
      'data-testid': `line-${i}`,
      'data-action': 'line-select' satisfies ActionName,
      'data-arg': String(i),
      class: selected ? 'selected' : null,
      'aria-selected': selected ? 'true' : 'false',
    },
    h(
      'td',
      { 'data-testid': `line-${i}-title` },
      h('span', { class: 'title' }, out?.title ?? line.title ?? line.code),
      (out?.title ?? line.title) ? h('span', { class: 'code' }, line.code) : null,
      line.amount !== undefined ? h('span', { class: 'badge' }, t('lines.prepaid')) : null,
    ),
    h(
      'td',
      { class: 'num', 'data-testid': `line-${i}-quantity` },
      formatQuantity(qty, out?.quantity_decimal_digits ?? line.quantity_decimal_digits, ctx.num),
    ),
    h(
      'td',
      { class: 'num', 'data-testid': `line-${i}-price` },
      formatAmount(out?.price ?? line.price, out?.price_decimal_digits ?? digits, ctx.num),
    ),
    h(
      'td',
      { class: 'num', 'data-testid': `line-${i}-discount` },
      out?.discount_amount ? formatAmount(out.discount_amount, digits, ctx.num) : '',
    ),
    h(
      'td',
      { class: 'num', 'data-testid': `line-${i}-amount` },
      formatAmount(out?.amount ?? line.amount, digits, ctx.num),
    ),
    lineButtons(ctx, line, i),
  );
}

function lineButtons(ctx: Ctx, line: CheckItemRequest, i: number): VElement {
  const { t } = ctx;
  return h(
    'td',
    { class: 'line-actions' },
    button({
      testid: `line-${i}-dec`,
      action: 'line-dec',
      arg: String(i),
      label: '−',
      title: t('lines.less'),
      disabled: line.amount !== undefined,
    }),
    button({
      testid: `line-${i}-inc`,
      action: 'line-inc',
      arg: String(i),
      label: '+',
      title: t('lines.more'),
      disabled: line.amount !== undefined,
    }),
    button({
      testid: `line-${i}-remove`,
      action: 'line-remove',
      arg: String(i),
      label: '×',
      title: t('lines.remove'),
      kind: 'danger',
    }),
  );
}

function totals(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const c = state.sale.calc.check;
  const d = amountDigits(c);
  const b = bonusDigits(c);
  return h(
    'dl',
    {
      class: 'totals',
      'data-testid': 'totals',
      'aria-busy': state.sale.calc.pending ? 'true' : 'false',
      'aria-live': 'polite',
    },
    row(t('totals.amount'), formatAmount(c?.amount, d, ctx.num), 'totals-amount'),
    row(t('totals.discount'), formatAmount(c?.discount_amount ?? 0, d, ctx.num), 'totals-discount'),
    c?.services_amount
      ? row(t('totals.services'), formatAmount(c.services_amount, d, ctx.num), 'totals-services')
      : null,
    row(
      t('totals.bonuses-redeemed'),
      formatAmount(c?.bonuses_redeemed_amount ?? 0, b, ctx.num),
      'totals-bonuses-redeemed',
    ),
    row(
      t('totals.bonuses-added'),
      formatAmount(c?.bonuses_added_amount ?? 0, b, ctx.num),
      'totals-bonuses-added',
    ),
    row(t('totals.to-pay'), formatAmount(c?.amount_to_pay, d, ctx.num), 'totals-to-pay', 'due'),
  );
}

function ruleLine(ctx: Ctx, r: CheckImplementedRule, i: number): VElement {
  const { t, state } = ctx;
  const data = r.implementation_data;
  const manual = r.automatic === 0 || r.automatic === 4;
  const applied = data?.applied ?? false;
  const digits =
    r.action_type === 'bonuses'
      ? bonusDigits(state.sale.calc.check)
      : amountDigits(state.sale.calc.check);
  const detail = applied
    ? data?.amount !== undefined
      ? formatAmount(data.amount, digits, ctx.num)
      : t('rules.applied')
    : data?.reason === 'display' || r.automatic === 3
      ? data?.missing !== undefined && data.missing !== null
        ? t('rules.missing', { missing: formatAmount(data.missing, digits, ctx.num) })
        : t('rules.hint')
      : data?.reason
        ? t(reasonKey[data.reason])
        : t('rules.not-applied');
  return h(
    'li',
    { 'data-testid': `rule-${i}`, class: applied ? 'applied' : 'not-applied' },
    manual && r.id
      ? checkbox({
          testid: `rule-${i}-toggle`,
          action: 'rule-toggle',
          arg: r.id,
          label: r.title ?? r.id,
          checked: state.sale.draft.manualRuleIds.includes(r.id),
          disabled: !hasRole(state, 'senior-cashier'),
        })
      : h('span', { class: 'title' }, r.title ?? r.id ?? NONE),
    h('span', { class: 'detail' }, detail),
  );
}

function rulesPanel(ctx: Ctx): VElement | null {
  const { t, state } = ctx;
  const rules = state.sale.calc.check?.implemented_rules ?? [];
  if (rules.length === 0) return null;
  return section(
    t('rules.title'),
    'rules',
    h(
      'ul',
      { class: 'list' },
      rules.map((r, i) => ruleLine(ctx, r, i)),
    ),
  );
}

function bonusesPanel(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const c = state.sale.draft.customer;
  const allowed = c !== null && c.access_type === 'full-bonuses-access';
  const granted = state.sale.calc.check?.bonuses_redeemed_amount;
  return section(
    t('bonuses.title'),
    'bonuses-panel',
    form(
      'bonuses-apply',
      'bonuses-form',
      input(ctx, {
        testid: 'bonuses',
        field: 'bonuses',
        label: t('bonuses.spend'),
        inputmode: 'decimal',
        disabled: !allowed,
      }),
      h(
        'div',
        { class: 'actions' },
        button({
          testid: 'bonuses-apply',
          action: 'bonuses-apply',
          submit: true,
          label: t('bonuses.apply'),
          disabled: !allowed,
          hint: 'F4',
        }),
        button({
          testid: 'bonuses-max',
          action: 'bonuses-max',
          label: t('bonuses.max'),
          disabled: !allowed,
        }),
        state.sale.draft.bonuses
          ? button({ testid: 'bonuses-clear', action: 'bonuses-clear', label: t('bonuses.clear') })
          : null,
      ),
    ),
    !c
      ? h('p', { class: 'muted' }, t('bonuses.identify-first'))
      : !allowed
        ? h('p', { class: 'muted', 'data-testid': 'bonuses-not-allowed' }, t('bonuses.not-allowed'))
        : state.sale.draft.bonuses
          ? h(
              'p',
              { 'data-testid': 'bonuses-granted' },
              t('bonuses.granted', {
                amount: formatAmount(granted ?? 0, bonusDigits(state.sale.calc.check), ctx.num),
              }),
            )
          : null,
  );
}

function couponsPanel(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const results = state.sale.calc.check?.redeemed_coupons ?? [];
  return section(
    t('coupons.title'),
    'coupons-panel',
    form(
      'coupon-add',
      'coupon-form',
      input(ctx, { testid: 'coupon-code', field: 'coupon-code', label: t('coupons.code') }),
      h(
        'div',
        { class: 'actions' },
        button({
          testid: 'coupon-add',
          action: 'coupon-add',
          submit: true,
          label: t('coupons.redeem'),
          hint: 'F6',
        }),
      ),
    ),
    state.sale.draft.coupons.length > 0
      ? h(
          'ul',
          { class: 'list' },
          state.sale.draft.coupons.map((code, i) => {
            const r = results.find((c) => c.code === code);
            const ok = r ? r.valid !== false && r.applicable !== false : null;
            return h(
              'li',
              {
                'data-testid': `coupon-${i}`,
                class: ok === false ? 'not-applied' : ok ? 'applied' : null,
              },
              h('span', { class: 'title' }, r?.title ?? code),
              h(
                'span',
                { class: 'detail', 'data-testid': `coupon-${i}-state` },
                ok === null ? NONE : ok ? t('coupons.valid') : couponState(t, r?.error),
              ),
              button({
                testid: `coupon-${i}-remove`,
                action: 'coupon-remove',
                arg: code,
                label: '×',
                title: t('coupons.remove'),
                kind: 'danger',
              }),
            );
          }),
        )
      : null,
  );
}

/** Why a coupon is not valid, in words; an unknown reason is shown as the terminal gave it. */
function couponState(t: Translate, error: string | null | undefined): string {
  if (!error) return t('coupons.invalid');
  const key = couponErrorKey(error);
  return key ? `${t('coupons.invalid')}: ${t(key)}` : error;
}

export function saleScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const calc = state.sale.calc;
  return h(
    'div',
    { class: 'sale' },
    h('div', { class: 'col left' }, customerPanel(ctx), itemPanel(ctx)),
    h(
      'div',
      { class: 'col middle' },
      section(t('lines.title'), 'lines-panel', linesTable(ctx)),
      calc.error
        ? h(
            'p',
            { class: 'error', role: 'alert', 'data-testid': 'sale-calc-error' },
            errorText(t, calc.error),
            ' ',
            h('code', null, calc.error.code),
          )
        : null,
      calc.warnings.length > 0
        ? h(
            'ul',
            { class: 'warnings', 'data-testid': 'sale-warnings' },
            calc.warnings.map((w, i) => h('li', { 'data-testid': `sale-warning-${i}` }, w.message)),
          )
        : null,
      totals(ctx),
      h(
        'div',
        { class: 'actions big' },
        button({
          testid: 'sale-pay',
          action: 'pay',
          label: t('sale.pay'),
          kind: 'primary',
          disabled: !canPay(state),
          hint: 'F8',
        }),
        button({
          testid: 'sale-void',
          action: 'void-sale',
          label: t('sale.void'),
          kind: 'danger',
          disabled: state.sale.draft.lines.length === 0 && !state.sale.draft.customer,
        }),
      ),
    ),
    h('div', { class: 'col right' }, rulesPanel(ctx), bonusesPanel(ctx), couponsPanel(ctx)),
  );
}
