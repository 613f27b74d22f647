// Refund some lines of a processed check, or cancel it whole (senior cashier and up). The
// check comes from `sale-status`; what each line returns is computed by the engine from the
// stored check (engine.md 15), so the screen only asks which quantities.
import { formatAmount, formatQuantity } from '../format.js';
import { outboxStateKey } from '../i18n.js';
import { amountDigits, bonusDigits, hasRole } from '../state.js';
import type { CommittedSale } from '../types.js';
import { h, type VElement } from '../vnode.js';
import { button, form, input, row, section, type Ctx } from './common.js';

export function refundScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const allowed = hasRole(state, 'senior-cashier');
  const busy = state.busy !== null;
  return h(
    'div',
    { class: 'stack' },
    section(
      t('refund.title'),
      'refund-panel',
      allowed
        ? null
        : h('p', { class: 'warn', 'data-testid': 'refund-role' }, t('error.role-required')),
      form(
        'refund-load',
        'refund-load-form',
        input(ctx, {
          testid: 'refund-transaction-id',
          field: 'refund-transaction-id',
          label: t('refund.transaction-id'),
        }),
        h(
          'div',
          { class: 'actions' },
          button({
            testid: 'refund-load',
            action: 'refund-load',
            submit: true,
            label: t('refund.load'),
            disabled: busy,
          }),
        ),
      ),
    ),
    state.refund.sale ? refundSale(ctx, state.refund.sale, allowed) : null,
    refundDone(ctx),
  );
}

/** The sale loaded: its figures, a quantity to return per line, refund or cancel. */
function refundSale(ctx: Ctx, sale: CommittedSale, allowed: boolean): VElement {
  const { t } = ctx;
  const d = amountDigits(sale.check);
  return section(
    t('refund.sale'),
    'refund-sale',
    h(
      'dl',
      { class: 'facts' },
      row(
        t('totals.to-pay'),
        formatAmount(sale.check.amount_to_pay, d, ctx.num),
        'refund-sale-amount',
      ),
      row(t('receipt.sync'), t(outboxStateKey[sale.sync.state]), 'refund-sale-sync'),
      sale.cancelled
        ? row(t('refund.state'), t('refund.already-cancelled'), 'refund-sale-cancelled', 'warn')
        : null,
    ),
    refundLines(ctx, sale, !allowed || sale.cancelled),
    input(ctx, {
      testid: 'refund-comment',
      field: 'refund-comment',
      label: t('refund.comment'),
    }),
    refundActions(ctx, !allowed || sale.cancelled),
  );
}

function refundLines(ctx: Ctx, sale: CommittedSale, locked: boolean): VElement {
  const { t } = ctx;
  const d = amountDigits(sale.check);
  return h(
    'table',
    { class: 'lines', 'aria-label': t('lines.title') },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, t('lines.item')),
        h('th', { scope: 'col', class: 'num' }, t('lines.quantity')),
        h('th', { scope: 'col', class: 'num' }, t('lines.amount')),
        h('th', { scope: 'col', class: 'num' }, t('refund.quantity')),
      ),
    ),
    h(
      'tbody',
      null,
      (sale.check.check_items ?? []).map((it, i) =>
        h(
          'tr',
          { 'data-testid': `refund-line-${i}` },
          h('td', null, it.title ?? it.code),
          h(
            'td',
            { class: 'num' },
            formatQuantity(it.quantity, it.quantity_decimal_digits, ctx.num),
          ),
          h('td', { class: 'num' }, formatAmount(it.amount, d, ctx.num)),
          h(
            'td',
            { class: 'num' },
            input(ctx, {
              testid: `refund-qty-${i}`,
              field: `refund-qty-${i}`,
              label: t('refund.quantity-of', { item: it.title ?? it.code }),
              inputmode: 'decimal',
              disabled: locked,
            }),
          ),
        ),
      ),
    ),
  );
}

/** Refund all, refund, cancel: `locked` without the role or once the sale is cancelled. */
function refundActions(ctx: Ctx, locked: boolean): VElement {
  const { t } = ctx;
  const busy = ctx.state.busy !== null;
  return h(
    'div',
    { class: 'actions' },
    button({
      testid: 'refund-all',
      action: 'refund-all',
      label: t('refund.all'),
      disabled: locked,
    }),
    button({
      testid: 'refund-submit',
      action: 'refund-submit',
      label: t('refund.submit'),
      kind: 'primary',
      disabled: locked || busy,
    }),
    button({
      testid: 'cancel-submit',
      action: 'cancel-submit',
      label: t('refund.cancel-check'),
      kind: 'danger',
      disabled: locked || busy,
    }),
  );
}

/** What the refund or the cancellation recorded. */
function refundDone(ctx: Ctx): VElement | null {
  const { t, state } = ctx;
  const done = state.refund.result ?? state.refund.cancelled;
  if (!done) return null;
  return section(
    t(state.refund.cancelled ? 'refund.cancel-result' : 'refund.result'),
    state.refund.cancelled ? 'cancel-result' : 'refund-result',
    h(
      'dl',
      { class: 'facts' },
      row(
        t('totals.to-pay'),
        formatAmount(done.check.amount_to_pay, amountDigits(done.check), ctx.num),
        'refund-result-amount',
      ),
      row(t('receipt.sync'), t(outboxStateKey[done.sync.state]), 'refund-result-sync'),
      done.owed
        ? row(
            t('refund.owed'),
            formatAmount(done.owed.bonuses, bonusDigits(done.check), ctx.num),
            'refund-owed',
            'warn',
          )
        : null,
    ),
  );
}
