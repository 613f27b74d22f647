// The receipt preview of the sale just committed: the engine's processed check as the
// printer got it, with what the central service knows of it yet (online or stood in offline),
// and the paper itself: the ESC/POS bytes the printer was sent, decoded by the terminal.
import { formatAmount, formatQuantity, NONE } from '../format.js';
import { outboxStateKey, paymentTypeKey } from '../i18n.js';
import { amountDigits, bonusDigits, hasRole, type Receipt } from '../state.js';
import type { CheckResponse, SaleResult } from '../types.js';
import { h, type VElement } from '../vnode.js';
import { button, row, section, type Ctx } from './common.js';

export function receiptScreen(ctx: Ctx): VElement {
  const { t } = ctx;
  const r = ctx.state.sale.receipt;
  if (!r) return h('p', { class: 'muted' }, t('receipt.none'));
  const d = amountDigits(r.check);
  return section(
    t('receipt.title'),
    'receipt',
    h(
      'p',
      { class: r.subtype === 'offline' ? 'warn' : 'muted', 'data-testid': 'receipt-subtype' },
      t(r.subtype === 'offline' ? 'receipt.offline' : 'receipt.online'),
    ),
    h('p', { class: 'muted small', 'data-testid': 'receipt-transaction-id' }, r.transactionId),
    receiptLines(ctx, r.check, d),
    receiptTotals(ctx, r.check),
    receiptPayments(ctx, r, d),
    r.cash
      ? h(
          'dl',
          { class: 'facts', 'data-testid': 'receipt-cash' },
          row(
            t('payment.cash-given'),
            formatAmount(r.cash.given, d, ctx.num),
            'receipt-cash-given',
          ),
          row(t('payment.change'), formatAmount(r.cash.change, d, ctx.num), 'receipt-change'),
        )
      : null,
    receiptCoupons(ctx, r.check),
    receiptFacts(ctx, r),
    r.preview ? printedPaper(ctx, r.preview) : null,
    r.warnings.length > 0
      ? h(
          'ul',
          { class: 'warnings', 'data-testid': 'receipt-warnings' },
          r.warnings.map((w) => h('li', null, w.message)),
        )
      : null,
    receiptActions(ctx, r),
  );
}

function receiptLines(ctx: Ctx, c: CheckResponse, d: number): VElement {
  return h(
    'table',
    { class: 'lines receipt-lines', 'aria-label': ctx.t('lines.title') },
    h(
      'tbody',
      null,
      (c.check_items ?? []).map((it, i) =>
        h(
          'tr',
          { 'data-testid': `receipt-line-${i}` },
          h('td', null, it.title ?? it.code),
          h(
            'td',
            { class: 'num' },
            formatQuantity(it.quantity, it.quantity_decimal_digits, ctx.num),
          ),
          h('td', { class: 'num' }, formatAmount(it.price, it.price_decimal_digits ?? d, ctx.num)),
          h(
            'td',
            { class: 'num' },
            it.discount_amount ? `−${formatAmount(it.discount_amount, d, ctx.num)}` : '',
          ),
          h('td', { class: 'num' }, formatAmount(it.amount, d, ctx.num)),
        ),
      ),
    ),
  );
}

function receiptTotals(ctx: Ctx, c: CheckResponse): VElement {
  const { t } = ctx;
  const d = amountDigits(c);
  const b = bonusDigits(c);
  return h(
    'dl',
    { class: 'totals' },
    row(t('totals.amount'), formatAmount(c.amount, d, ctx.num), 'receipt-total-amount'),
    row(
      t('totals.discount'),
      formatAmount(c.discount_amount ?? 0, d, ctx.num),
      'receipt-total-discount',
    ),
    row(
      t('totals.bonuses-redeemed'),
      formatAmount(c.bonuses_redeemed_amount ?? 0, b, ctx.num),
      'receipt-total-bonuses-redeemed',
    ),
    row(
      t('totals.bonuses-added'),
      formatAmount(c.bonuses_added_amount ?? 0, b, ctx.num),
      'receipt-total-bonuses-added',
    ),
    row(
      t('totals.to-pay'),
      formatAmount(c.amount_to_pay, d, ctx.num),
      'receipt-total-to-pay',
      'due',
    ),
  );
}

/** The payments the terminal recorded, else the parts the check names; none: nothing. */
function receiptPayments(ctx: Ctx, r: Receipt, d: number): VElement | null {
  const { t } = ctx;
  const parts =
    r.payments.length > 0
      ? r.payments.map(
          (p) =>
            `${p.operation} ${p.status} ${formatAmount(p.amount, d, ctx.num)}${p.card ? ` ${p.card}` : ''}`,
        )
      : (r.check.payments ?? []).map(
          (p) => `${t(paymentTypeKey[p.type])} ${formatAmount(p.amount, d, ctx.num)}`,
        );
  if (parts.length === 0) return null;
  return h(
    'ul',
    { class: 'list', 'data-testid': 'receipt-payments' },
    parts.map((text, i) => h('li', { 'data-testid': `receipt-payment-${i}` }, text)),
  );
}

function receiptCoupons(ctx: Ctx, c: CheckResponse): VElement | null {
  const { t } = ctx;
  const coupons = c.emitted_coupons ?? [];
  if (coupons.length === 0) return null;
  return h(
    'ul',
    { class: 'list', 'data-testid': 'receipt-coupons' },
    coupons.map((cp, i) =>
      h(
        'li',
        { 'data-testid': `receipt-coupon-${i}` },
        // A coupon emitted without a terminal has no code yet (engine.md 17.14).
        `${t('receipt.coupon')} ${cp.code ?? t('receipt.coupon-pending')}${cp.title ? ` · ${cp.title}` : ''}`,
      ),
    ),
  );
}

type Preview = NonNullable<SaleResult['receipt']>;

/**
 * The paper as printed, row by row at the printer's width: text in a fixed-width font with
 * its alignment and emphasis, QR codes, barcodes, the cut and the drawer as marked rows.
 */
function printedPaper(ctx: Ctx, p: Preview): VElement {
  const { t } = ctx;
  return h(
    'figure',
    { class: 'paper', 'data-testid': 'receipt-paper', 'aria-label': t('receipt.paper') },
    h('figcaption', { class: 'muted small' }, t('receipt.paper')),
    h(
      'div',
      { class: 'paper-rows', 'data-width': String(p.width) },
      p.rows.map((row, i) => {
        const id = `receipt-paper-${i}`;
        if (row.kind === 'text') {
          const cls = [
            'paper-text',
            `align-${row.align}`,
            row.bold ? 'bold' : '',
            row.large ? 'large' : '',
          ];
          return h('div', { class: cls.filter(Boolean).join(' '), 'data-testid': id }, row.text);
        }
        const text =
          row.kind === 'qr'
            ? t('receipt.paper-qr', { data: row.data })
            : row.kind === 'barcode'
              ? t('receipt.paper-barcode', { symbology: row.symbology, data: row.data })
              : row.kind === 'cut'
                ? t('receipt.paper-cut')
                : t('receipt.paper-drawer');
        return h('div', { class: `paper-mark ${row.kind}`, 'data-testid': id }, text);
      }),
    ),
  );
}

function receiptFacts(ctx: Ctx, r: Receipt): VElement {
  const { t } = ctx;
  return h(
    'dl',
    { class: 'facts' },
    row(t('receipt.sync'), t(outboxStateKey[r.sync.state]), 'receipt-sync'),
    row(
      t('receipt.printed'),
      r.receiptPrinted === null ? NONE : t(r.receiptPrinted ? 'common.yes' : 'common.no'),
      'receipt-printed',
      r.receiptPrinted === false ? 'warn' : null,
    ),
  );
}

function receiptActions(ctx: Ctx, r: Receipt): VElement {
  const { t } = ctx;
  return h(
    'div',
    { class: 'actions big' },
    button({
      testid: 'receipt-new-sale',
      action: 'new-sale',
      label: t('receipt.new-sale'),
      kind: 'primary',
    }),
    hasRole(ctx.state, 'senior-cashier')
      ? button({
          testid: 'receipt-refund',
          action: 'refund-open',
          arg: r.transactionId,
          label: t('receipt.refund'),
        })
      : null,
  );
}
