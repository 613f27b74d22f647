// The check's lines and totals on the sale screen: the request's code and quantity until the
// engine answers, then its figures. Each row is keyed by its line, so removing one moves no
// other row's buttons (nor the focus on them).
import { Component } from 'preact';
import { formatAmount, formatQuantity } from '../format.js';
import { amountDigits, bonusDigits } from '../slices/sale/state.js';
import type { CheckItemRequest } from '../types.js';
import type { Line } from '../slices/sale/state.js';
import type { State } from '../state.js';
import { Button, Row, type Ctx } from './common.js';

export function LinesTable({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const lines = state.sale.draft.lines;
  if (lines.length === 0) {
    return (
      <p class="muted empty" data-testid="lines-empty">
        {t('lines.empty')}
      </p>
    );
  }
  return (
    <table class="lines" data-testid="lines" aria-label={t('lines.title')}>
      <thead>
        <tr>
          <th scope="col">{t('lines.item')}</th>
          <th scope="col" class="num">
            {t('lines.quantity')}
          </th>
          <th scope="col" class="num">
            {t('lines.price')}
          </th>
          <th scope="col" class="num">
            {t('lines.discount')}
          </th>
          <th scope="col" class="num">
            {t('lines.amount')}
          </th>
          <th scope="col">
            <span class="sr-only">{t('lines.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, i) => (
          <KeptRow key={line.key} ctx={ctx} line={line} i={i} />
        ))}
      </tbody>
    </table>
  );
}

type RowProps = { ctx: Ctx; line: Line; i: number };

/** What a row shows of the engine's line. */
const SHOWN = [
  'title',
  'quantity',
  'quantity_decimal_digits',
  'price',
  'price_decimal_digits',
  'discount_amount',
  'amount',
] as const;

type Calc = State['sale']['calc']['check'];

/** Whether two answers show the line at `i` alike (each answer is a new object). */
function sameFigures(a: Calc, b: Calc, i: number): boolean {
  if (a === b) return true;
  if (amountDigits(a) !== amountDigits(b)) return false;
  const [x, y] = [a?.check_items?.[i], b?.check_items?.[i]];
  if (!x || !y) return x === y;
  return SHOWN.every((k) => x[k] === y[k]);
}

/**
 * Whether a line's row would differ: its line, place, selection, its figures in the answer or
 * the language. A new answer re-renders only the rows whose figures it changed.
 */
export function rowChanged(a: RowProps, b: RowProps): boolean {
  const [s, t] = [a.ctx.state, b.ctx.state];
  return (
    a.line !== b.line ||
    a.i !== b.i ||
    (s.sale.selected === a.i) !== (t.sale.selected === b.i) ||
    !sameFigures(s.sale.calc.check, t.sale.calc.check, a.i) ||
    s.settings.language !== t.settings.language
  );
}

/**
 * A line's row, re-rendered only when what it shows changes: adding a line renders the page
 * before the engine answers, and the other rows are as they were; the answer changes the
 * figures of a few. Its handlers only call `ctx.act`, which never changes.
 */
class KeptRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return rowChanged(this.props, next);
  }

  override render() {
    return <LineRow {...this.props} />;
  }
}

/** One line: the request's code and quantity, the engine's figures once it answered. */
function LineRow({ ctx, line: { item: line }, i }: { ctx: Ctx; line: Line; i: number }) {
  const { t, state, num } = ctx;
  const calc = state.sale.calc.check;
  const digits = amountDigits(calc);
  const out = calc?.check_items?.[i];
  const qty = out?.quantity ?? line.quantity;
  const selected = state.sale.selected === i;
  const title = out?.title ?? line.title;
  return (
    <tr
      data-testid={`line-${i}`}
      class={selected ? 'selected' : undefined}
      aria-selected={selected ? 'true' : 'false'}
      onClick={() => ctx.act({ type: 'line-select', index: i })}
    >
      <td data-testid={`line-${i}-title`}>
        <span class="title">{title ?? line.code}</span>
        {title ? <span class="code">{line.code}</span> : null}
        {line.amount !== undefined ? <span class="badge">{t('lines.prepaid')}</span> : null}
      </td>
      <td class="num" data-testid={`line-${i}-quantity`}>
        {formatQuantity(qty, out?.quantity_decimal_digits ?? line.quantity_decimal_digits, num)}
      </td>
      <td class="num" data-testid={`line-${i}-price`}>
        {formatAmount(out?.price ?? line.price, out?.price_decimal_digits ?? digits, num)}
      </td>
      <td class="num" data-testid={`line-${i}-discount`}>
        {out?.discount_amount ? formatAmount(out.discount_amount, digits, num) : ''}
      </td>
      <td class="num" data-testid={`line-${i}-amount`}>
        {formatAmount(out?.amount ?? line.amount, digits, num)}
      </td>
      <LineButtons ctx={ctx} line={line} i={i} />
    </tr>
  );
}

function LineButtons({ ctx, line, i }: { ctx: Ctx; line: CheckItemRequest; i: number }) {
  const { t } = ctx;
  const prepaid = line.amount !== undefined; // a prepaid line's litres are computed
  return (
    <td class="line-actions">
      <Button
        ctx={ctx}
        testid={`line-${i}-dec`}
        does={{ type: 'line-step', index: i, delta: -1 }}
        label="−"
        title={t('lines.less')}
        disabled={prepaid}
      />
      <Button
        ctx={ctx}
        testid={`line-${i}-inc`}
        does={{ type: 'line-step', index: i, delta: 1 }}
        label="+"
        title={t('lines.more')}
        disabled={prepaid}
      />
      <Button
        ctx={ctx}
        testid={`line-${i}-remove`}
        does={{ type: 'line-remove', index: i }}
        label="×"
        title={t('lines.remove')}
        kind="danger"
      />
    </td>
  );
}

export function Totals({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const c = state.sale.calc.check;
  const d = amountDigits(c);
  const b = bonusDigits(c);
  return (
    <dl
      class="totals"
      data-testid="totals"
      aria-busy={state.sale.calc.pending ? 'true' : 'false'}
      aria-live="polite"
    >
      <Row
        label={t('totals.amount')}
        value={formatAmount(c?.amount, d, num)}
        testid="totals-amount"
      />
      <Row
        label={t('totals.discount')}
        value={formatAmount(c?.discount_amount ?? 0, d, num)}
        testid="totals-discount"
      />
      {c?.services_amount ? (
        <Row
          label={t('totals.services')}
          value={formatAmount(c.services_amount, d, num)}
          testid="totals-services"
        />
      ) : null}
      <Row
        label={t('totals.bonuses-redeemed')}
        value={formatAmount(c?.bonuses_redeemed_amount ?? 0, b, num)}
        testid="totals-bonuses-redeemed"
      />
      <Row
        label={t('totals.bonuses-added')}
        value={formatAmount(c?.bonuses_added_amount ?? 0, b, num)}
        testid="totals-bonuses-added"
      />
      <Row
        label={t('totals.to-pay')}
        value={formatAmount(c?.amount_to_pay, d, num)}
        testid="totals-to-pay"
        cls="due"
      />
    </dl>
  );
}
