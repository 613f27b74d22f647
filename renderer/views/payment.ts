// Payment: cash, bank card, a special account (PIN when the engine says so) or a corporate
// account (vehicle and odometer when required); cash and card may be split. What is due is
// the engine's `amount_to_pay`; the split and the change are exact decimals (src/money).
import { formatAmount, formatDec } from '../format.js';
import { errorText, paymentTypeKey } from '../i18n.js';
import { parseTyped } from '../money.js';
import {
  accountsFor,
  amountDigits,
  change,
  isAccountPayment,
  PAYMENT_TYPES,
  remaining,
} from '../state.js';
import type { DataRequired } from '../types.js';
import { h, type Child, type VElement } from '../vnode.js';
import { button, form, input, row, section, select, type Ctx } from './common.js';

function required(ctx: Ctx, flag: DataRequired | undefined): string {
  return flag === 'required' ? ` (${ctx.t('payment.required')})` : '';
}

function accountFields(ctx: Ctx): VElement[] {
  const { t, state } = ctx;
  const draft = state.sale.draft;
  const accounts = accountsFor(draft.customer, draft.payment.type);
  if (accounts.length === 0) {
    return [
      h('p', { class: 'muted', 'data-testid': 'payment-no-accounts' }, t('payment.no-accounts')),
    ];
  }
  const out: VElement[] = [
    h(
      'div',
      {
        class: 'choices',
        role: 'group',
        'aria-label': t('payment.account'),
        'data-testid': 'payment-account',
      },
      accounts.map((a, i) =>
        button({
          testid: `payment-account-${i}`,
          action: 'payment-account',
          arg: a.id,
          label: a.title ?? a.id,
          pressed: a.id === draft.payment.accountId,
        }),
      ),
    ),
  ];
  if (state.fieldErrors['payment-account']) {
    out.push(
      h(
        'p',
        { class: 'field-error', role: 'alert', 'data-testid': 'payment-account-error' },
        t(state.fieldErrors['payment-account']),
      ),
    );
  }
  const chosen = accounts.find((a) => a.id === draft.payment.accountId);
  return [...out, ...accountChecks(ctx, chosen?.pin_required === true)];
}

/** What the engine asks with an account payment: PIN, odometer, vehicle. */
function accountChecks(ctx: Ctx, accountWantsPin: boolean): VElement[] {
  const { t } = ctx;
  const c = ctx.state.sale.calc.check;
  const odometer = c?.special_account_odometer_required;
  const vehicle = c?.special_account_vehicle_id_required;
  const out: VElement[] = [];
  if (c?.special_account_pin_required === true || accountWantsPin) {
    out.push(
      input(ctx, {
        testid: 'payment-pin',
        field: 'pin',
        label: t('payment.pin'),
        type: 'password',
        inputmode: 'numeric',
        autocomplete: 'off',
      }),
    );
  }
  if (odometer && odometer !== 'none') {
    out.push(
      h(
        'div',
        { class: 'row' },
        input(ctx, {
          testid: 'payment-odometer',
          field: 'odometer',
          label: t('payment.odometer') + required(ctx, odometer),
          inputmode: 'decimal',
        }),
        select(ctx, {
          testid: 'payment-odometer-unit',
          field: 'odometer-unit',
          label: t('payment.odometer-unit'),
          options: [
            ['km', t('unit.km')],
            ['mi', t('unit.mi')],
            ['h', t('unit.h')],
          ],
        }),
      ),
    );
  }
  if (vehicle && vehicle !== 'none') {
    out.push(
      input(ctx, {
        testid: 'payment-vehicle-id',
        field: 'vehicle-id',
        label: t('payment.vehicle') + required(ctx, vehicle),
      }),
    );
  }
  return out;
}

function splitFields(ctx: Ctx, digits: number): Child[] {
  const { t, state } = ctx;
  const left = remaining(state);
  const given = change(state);
  return [
    h(
      'div',
      { class: 'row' },
      select(ctx, {
        testid: 'payment-tender-type',
        field: 'tender-type',
        label: t('payment.part-type'),
        options: [
          ['cash', t('payment.cash')],
          ['bank-card', t('payment.bank-card')],
        ],
      }),
      input(ctx, {
        testid: 'payment-tender-amount',
        field: 'tender-amount',
        label: t('payment.part-amount'),
        inputmode: 'decimal',
      }),
    ),
    h(
      'div',
      { class: 'actions' },
      button({ testid: 'payment-tender-add', action: 'tender-add', label: t('payment.add-part') }),
    ),
    state.sale.tenders.length > 0
      ? h(
          'ul',
          { class: 'list', 'data-testid': 'payment-tenders' },
          state.sale.tenders.map((p, i) =>
            h(
              'li',
              { 'data-testid': `payment-tender-${i}` },
              h('span', { class: 'title' }, t(paymentTypeKey[p.type])),
              h('span', { class: 'detail' }, formatDec(parseTyped(p.amount), digits, ctx.num)),
              button({
                testid: `payment-tender-${i}-remove`,
                action: 'tender-remove',
                arg: String(i),
                label: '×',
                kind: 'danger',
                title: t('payment.remove-part'),
              }),
            ),
          ),
        )
      : null,
    h(
      'dl',
      { class: 'facts' },
      row(t('payment.remaining'), formatDec(left, digits, ctx.num), 'payment-remaining'),
    ),
    input(ctx, {
      testid: 'payment-cash-given',
      field: 'cash-given',
      label: t('payment.cash-given'),
      inputmode: 'decimal',
    }),
    h(
      'dl',
      { class: 'facts' },
      row(t('payment.change'), formatDec(given, digits, ctx.num), 'payment-change'),
    ),
  ];
}

export function paymentScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const c = state.sale.calc.check;
  const digits = amountDigits(c);
  const method = state.sale.draft.payment.type;
  const busy = paying(ctx);
  return form(
    'sale-confirm',
    'payment-form',
    section(
      t('payment.title'),
      'payment-panel',
      h(
        'p',
        { class: 'due', 'data-testid': 'payment-due', 'aria-live': 'polite' },
        t('payment.due'),
        ' ',
        h('strong', null, formatAmount(c?.amount_to_pay, digits, ctx.num)),
      ),
      methodChoices(ctx),
      state.sale.calc.error
        ? h(
            'p',
            { class: 'error', role: 'alert', 'data-testid': 'payment-calc-error' },
            errorText(t, state.sale.calc.error),
          )
        : null,
      isAccountPayment(method) ? accountFields(ctx) : splitFields(ctx, digits),
      busy
        ? h(
            'p',
            { class: 'notice', 'data-testid': 'payment-in-progress', role: 'status' },
            t(method === 'bank-card' ? 'payment.follow-terminal' : 'payment.processing'),
          )
        : null,
      state.fieldErrors['payment-confirm']
        ? h(
            'p',
            { class: 'field-error', role: 'alert', 'data-testid': 'payment-confirm-error' },
            t(state.fieldErrors['payment-confirm']),
          )
        : null,
      paymentActions(ctx),
    ),
  );
}

/** The sale is being processed or its outcome asked for. */
function paying(ctx: Ctx): boolean {
  return ctx.state.busy === 'sale-process' || ctx.state.busy === 'sale-status';
}

function methodChoices(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const locked = paying(ctx) || state.sale.outcomeUnknown;
  return h(
    'div',
    { class: 'choices', role: 'group', 'aria-label': t('payment.method') },
    PAYMENT_TYPES.map((p) =>
      button({
        testid: `payment-method-${p}`,
        action: 'payment-method',
        arg: p,
        label: t(paymentTypeKey[p]),
        pressed: p === state.sale.draft.payment.type,
        disabled: locked || (isAccountPayment(p) && !state.sale.draft.customer),
      }),
    ),
  );
}

/** Confirm (or, with the outcome unknown, ask for it) and back. */
function paymentActions(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const busy = paying(ctx);
  const unknown = state.sale.outcomeUnknown;
  return h(
    'div',
    { class: 'actions big' },
    unknown
      ? button({
          testid: 'payment-check-status',
          action: 'sale-check-status',
          label: t('payment.check-status'),
          kind: 'primary',
          disabled: busy,
        })
      : button({
          testid: 'payment-confirm',
          action: 'sale-confirm',
          submit: true,
          label: t('payment.confirm'),
          kind: 'primary',
          disabled: busy || state.sale.calc.pending,
          hint: 'F8',
        }),
    button({
      testid: 'payment-back',
      action: 'back',
      label: t('payment.back'),
      disabled: busy || unknown,
      hint: 'Esc',
    }),
  );
}
