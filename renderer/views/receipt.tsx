// The receipt preview of the sale just committed: the engine's processed check as the
// printer got it, with what the central service knows of it yet (online or stood in offline),
// and the paper itself: the ESC/POS bytes the printer was sent, decoded by the terminal.
import { formatAmount, formatQuantity, NONE } from '../format.js';
import { outboxStateKey, paymentTypeKey } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import type { Receipt } from '../slices/receipt/state.js';
import { amountDigits, bonusDigits } from '../slices/sale/state.js';
import type { CheckResponse, SaleResult } from '../types.js';
import { Button, Row, Section, type Ctx } from './common.js';
import { Qr } from './qr.js';

export function ReceiptScreen({ ctx }: { ctx: Ctx }) {
  const { t, num } = ctx;
  const r = ctx.state.receipt.receipt;
  if (!r) return <p class="muted">{t('receipt.none')}</p>;
  const d = amountDigits(r.check);
  const offline = r.subtype === 'offline';
  return (
    // what was paid and the change on top, the lines and the paper in the body, the next
    // sale in the bar
    <Section title={t('receipt.title')} testid="receipt" cls="screen">
      <div class="head">
        <p class={offline ? 'warn' : 'muted'} data-testid="receipt-subtype">
          {t(offline ? 'receipt.offline' : 'receipt.online')}
        </p>
        <ReceiptTotals ctx={ctx} c={r.check} />
        {r.cash ? (
          <dl class="facts" data-testid="receipt-cash">
            <Row
              label={t('payment.cash-given')}
              value={formatAmount(r.cash.given, d, num)}
              testid="receipt-cash-given"
            />
            <Row
              label={t('payment.change')}
              value={formatAmount(r.cash.change, d, num)}
              testid="receipt-change"
            />
          </dl>
        ) : null}
      </div>
      <div class="body">
        <p class="muted small" data-testid="receipt-transaction-id">
          {r.transactionId}
        </p>
        <ReceiptLines ctx={ctx} c={r.check} />
        <ReceiptPayments ctx={ctx} r={r} />
        <ReceiptCoupons ctx={ctx} c={r.check} />
        <dl class="facts">
          <Row
            label={t('receipt.sync')}
            value={t(outboxStateKey[r.sync.state])}
            testid="receipt-sync"
          />
          <Row
            label={t('receipt.printed')}
            value={
              r.receiptPrinted === null ? NONE : t(r.receiptPrinted ? 'common.yes' : 'common.no')
            }
            testid="receipt-printed"
            cls={r.receiptPrinted === false ? 'warn' : null}
          />
        </dl>
        {r.preview ? <PrintedPaper ctx={ctx} p={r.preview} /> : null}
        {r.warnings.length > 0 ? (
          <ul class="warnings" data-testid="receipt-warnings">
            {r.warnings.map((w) => (
              <li>{w.message}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div class="bar">
        <ReceiptActions ctx={ctx} r={r} />
      </div>
    </Section>
  );
}

function ReceiptLines({ ctx, c }: { ctx: Ctx; c: CheckResponse }) {
  const { num } = ctx;
  const d = amountDigits(c);
  return (
    <table class="lines receipt-lines" aria-label={ctx.t('lines.title')}>
      <tbody>
        {(c.check_items ?? []).map((it, i) => (
          <tr data-testid={`receipt-line-${i}`}>
            <td>{it.title ?? it.code}</td>
            <td class="num">{formatQuantity(it.quantity, it.quantity_decimal_digits, num)}</td>
            <td class="num">{formatAmount(it.price, it.price_decimal_digits ?? d, num)}</td>
            <td class="num">
              {it.discount_amount ? `−${formatAmount(it.discount_amount, d, num)}` : ''}
            </td>
            <td class="num">{formatAmount(it.amount, d, num)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ReceiptTotals({ ctx, c }: { ctx: Ctx; c: CheckResponse }) {
  const { t, num } = ctx;
  const d = amountDigits(c);
  const b = bonusDigits(c);
  return (
    <dl class="totals">
      <Row
        label={t('totals.amount')}
        value={formatAmount(c.amount, d, num)}
        testid="receipt-total-amount"
      />
      <Row
        label={t('totals.discount')}
        value={formatAmount(c.discount_amount ?? 0, d, num)}
        testid="receipt-total-discount"
      />
      <Row
        label={t('totals.bonuses-redeemed')}
        value={formatAmount(c.bonuses_redeemed_amount ?? 0, b, num)}
        testid="receipt-total-bonuses-redeemed"
      />
      <Row
        label={t('totals.bonuses-added')}
        value={formatAmount(c.bonuses_added_amount ?? 0, b, num)}
        testid="receipt-total-bonuses-added"
      />
      <Row
        label={t('totals.to-pay')}
        value={formatAmount(c.amount_to_pay, d, num)}
        testid="receipt-total-to-pay"
        cls="due"
      />
    </dl>
  );
}

/** The payments the terminal recorded, else the parts the check names; none: nothing. */
function ReceiptPayments({ ctx, r }: { ctx: Ctx; r: Receipt }) {
  const { t, num } = ctx;
  const d = amountDigits(r.check);
  const parts =
    r.payments.length > 0
      ? r.payments.map(
          (p) =>
            `${p.operation} ${p.status} ${formatAmount(p.amount, d, num)}${p.card ? ` ${p.card}` : ''}`,
        )
      : (r.check.payments ?? []).map(
          (p) => `${t(paymentTypeKey[p.type])} ${formatAmount(p.amount, d, num)}`,
        );
  if (parts.length === 0) return null;
  return (
    <ul class="list" data-testid="receipt-payments">
      {parts.map((text, i) => (
        <li data-testid={`receipt-payment-${i}`}>{text}</li>
      ))}
    </ul>
  );
}

function ReceiptCoupons({ ctx, c }: { ctx: Ctx; c: CheckResponse }) {
  const { t } = ctx;
  const coupons = c.emitted_coupons ?? [];
  if (coupons.length === 0) return null;
  return (
    <ul class="list" data-testid="receipt-coupons">
      {coupons.map((cp, i) => (
        <li data-testid={`receipt-coupon-${i}`}>
          {/* A coupon emitted without a terminal has no code yet (engine.md 17.14). */}
          {`${t('receipt.coupon')} ${cp.code ?? t('receipt.coupon-pending')}${cp.title ? ` · ${cp.title}` : ''}`}
        </li>
      ))}
    </ul>
  );
}

type Preview = NonNullable<SaleResult['receipt']>;
type PaperRow = Preview['rows'][number];

/**
 * The paper as printed, row by row at the printer's width: text in a fixed-width font with
 * its alignment and emphasis, QR codes, barcodes, the cut and the drawer as marked rows.
 */
export function PrintedPaper({ ctx, p }: { ctx: Ctx; p: Preview }) {
  const { t } = ctx;
  return (
    <figure class="paper" data-testid="receipt-paper" aria-label={t('receipt.paper')}>
      <figcaption class="muted small">{t('receipt.paper')}</figcaption>
      <div class="paper-rows" data-width={String(p.width)}>
        {p.rows.map((row, i) => (
          <PaperLine key={i} ctx={ctx} row={row} testid={`receipt-paper-${i}`} />
        ))}
      </div>
    </figure>
  );
}

/** One printed row: text with its look, or a marker for what is not text. */
function PaperLine({ ctx, row, testid }: { ctx: Ctx; row: PaperRow; testid: string }) {
  const { t } = ctx;
  if (row.kind === 'text') {
    const cls = [
      'paper-text',
      `align-${row.align}`,
      row.bold ? 'bold' : '',
      row.large ? 'large' : '',
    ];
    return (
      <div class={cls.filter(Boolean).join(' ')} data-testid={testid}>
        {row.text}
      </div>
    );
  }
  // A QR as the printer draws it (the stream's GS ( k data), so the cashier can try a scan.
  if (row.kind === 'qr') {
    return (
      <div class="paper-mark qr" data-testid={testid}>
        <Qr text={row.data} label={t('receipt.paper-qr', { data: row.data })} />
      </div>
    );
  }
  const text =
    row.kind === 'barcode'
      ? t('receipt.paper-barcode', { symbology: row.symbology, data: row.data })
      : row.kind === 'cut'
        ? t('receipt.paper-cut')
        : t('receipt.paper-drawer');
  return (
    <div class={`paper-mark ${row.kind}`} data-testid={testid}>
      {text}
    </div>
  );
}

function ReceiptActions({ ctx, r }: { ctx: Ctx; r: Receipt }) {
  const { t } = ctx;
  return (
    <div class="actions big">
      <Button
        ctx={ctx}
        testid="receipt-new-sale"
        does={{ type: 'new-sale' }}
        label={t('receipt.new-sale')}
        kind="primary"
      />
      {hasRole(ctx.state, 'senior-cashier') ? (
        <Button
          ctx={ctx}
          testid="receipt-refund"
          does={{ type: 'refund-open', transactionId: r.transactionId }}
          label={t('receipt.refund')}
        />
      ) : null}
    </div>
  );
}
