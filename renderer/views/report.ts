// The shift report (X report while open) and closing the shift (Z, manager only).
import { formatAmount, formatDateTime, NONE } from '../format.js';
import { paymentTypeKey } from '../i18n.js';
import { hasRole } from '../state.js';
import type { ShiftReport } from '../types.js';
import { h, type VElement } from '../vnode.js';
import { button, form, input, row, section, type Ctx } from './common.js';

export function reportScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const r = state.report.report;
  const open = Boolean(state.status?.shift);
  return section(
    t('report.title'),
    'report',
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'report-refresh',
        action: 'report-load',
        label: t('common.refresh'),
        disabled: state.busy !== null || !open,
      }),
    ),
    r
      ? reportFacts(ctx, r)
      : h('p', { class: 'muted' }, open ? t('common.loading') : t('report.no-shift')),
    open && hasRole(state, 'manager') ? closeForm(ctx) : null,
    !open
      ? h(
          'div',
          { class: 'actions' },
          button({
            testid: 'report-open-shift',
            action: 'nav',
            arg: 'shift-open',
            label: t('shift.open'),
            kind: 'primary',
          }),
        )
      : null,
  );
}

function reportFacts(ctx: Ctx, r: ShiftReport): VElement {
  const { t } = ctx;
  const tally = (x: { count: number; amount: number }) =>
    `${x.count} · ${formatAmount(x.amount, 2, ctx.num)}`;
  return h(
    'dl',
    { class: 'facts', 'data-testid': 'report-facts' },
    row(t('report.shift'), String(r.shift.number), 'report-shift-number'),
    row(
      t('report.opened'),
      `${formatDateTime(r.shift.opened_at, ctx.dates)} ${r.shift.opened_by.name ?? ''}`,
      'report-opened',
    ),
    row(
      t('report.closed-at'),
      r.shift.closed_at ? formatDateTime(r.shift.closed_at, ctx.dates) : NONE,
      'report-closed-at',
    ),
    row(t('report.sales'), tally(r.sales), 'report-sales'),
    row(t('report.refunds'), tally(r.refunds), 'report-refunds'),
    row(t('report.cancellations'), tally(r.cancellations), 'report-cancellations'),
    row(t('report.offline'), tally(r.offline_sales), 'report-offline'),
    r.payments.map((p) => row(t(paymentTypeKey[p.type]), tally(p), `report-payment-${p.type}`)),
    row(
      t('report.bonuses-added'),
      formatAmount(r.bonuses.added, 2, ctx.num),
      'report-bonuses-added',
    ),
    row(
      t('report.bonuses-redeemed'),
      formatAmount(r.bonuses.redeemed, 2, ctx.num),
      'report-bonuses-redeemed',
    ),
    row(
      t('report.expected-cash'),
      formatAmount(r.expected_cash, 2, ctx.num),
      'report-expected-cash',
    ),
    row(
      t('report.unsynced'),
      String(r.unsynced),
      'report-unsynced',
      r.unsynced > 0 ? 'warn' : null,
    ),
  );
}

/** Closing the shift (Z): the cash counted, then close. */
function closeForm(ctx: Ctx): VElement {
  const { t } = ctx;
  return form(
    'shift-close',
    'report-close-form',
    input(ctx, {
      testid: 'report-counted-cash',
      field: 'counted-cash',
      label: t('report.counted-cash'),
      inputmode: 'decimal',
    }),
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'report-close-shift',
        action: 'shift-close',
        submit: true,
        label: t('report.close'),
        kind: 'danger',
        disabled: ctx.state.busy !== null,
      }),
    ),
  );
}
