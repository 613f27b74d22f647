// Recent sales: this terminal's sales, newest first, found by time, amount, card or
// customer; one opened shows its lines with what refunds already took back, prints its
// receipt again (a COPY, shown as printed), and goes to the refund screen to refund some
// lines or cancel it. Nobody types a transaction id.
import { formatAmount, formatDateTime, formatQuantity, NONE } from '../format.js';
import { paymentTypeKey, type MessageKey } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import { partlyRefunded, selectedSale, SEARCH_BY, type SearchBy } from '../slices/recent/state.js';
import type { RecentSale } from '../types.js';
import { Button, FieldSelect, Form, Input, Row, Section, type Ctx } from './common.js';
import { PrintedPaper } from './receipt.js';

const searchByKey = {
  auto: 'recent.by-auto',
  amount: 'recent.by-amount',
  card: 'recent.by-card',
  customer: 'recent.by-customer',
  time: 'recent.by-time',
} as const satisfies Record<SearchBy, MessageKey>;

const statusKey = {
  committed: 'recent.status-committed',
  queued: 'recent.status-queued',
  rejected: 'recent.status-rejected',
  cancelled: 'recent.status-cancelled',
} as const satisfies Record<RecentSale['status'], MessageKey>;

export function RecentScreen({ ctx }: { ctx: Ctx }) {
  const sale = selectedSale(ctx.state);
  return (
    <div class="stack recent">
      {sale ? <RecentDetail ctx={ctx} sale={sale} /> : <RecentList ctx={ctx} />}
    </div>
  );
}

function SearchForm({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    <Form ctx={ctx} submit={{ type: 'recent-search' }} testid="recent-search-form" cls="head">
      <div class="row">
        <Input
          ctx={ctx}
          testid="recent-search"
          field="recent-search"
          label={t('recent.search')}
          placeholder={t('recent.search-hint')}
        />
        <FieldSelect
          ctx={ctx}
          testid="recent-by"
          field="recent-by"
          label={t('recent.by')}
          options={SEARCH_BY.map((b) => [b, t(searchByKey[b])] as const)}
        />
      </div>
      <div class="actions">
        <Button
          ctx={ctx}
          testid="recent-find"
          submit
          label={t('recent.find')}
          kind="primary"
          disabled={ctx.state.busy !== null}
        />
      </div>
    </Form>
  );
}

function RecentList({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const { sales, loaded, nextCursor } = state.recent;
  return (
    // the search on top, the sales scroll below it
    <Section title={t('recent.title')} testid="recent" cls="screen">
      <SearchForm ctx={ctx} />
      <div class="body">
        {loaded && sales.length === 0 ? (
          <p class="muted" data-testid="recent-empty">
            {t('recent.none')}
          </p>
        ) : null}
        {sales.length > 0 ? (
          <table class="lines recent-list" data-testid="recent-list" aria-label={t('recent.title')}>
            <thead>
              <tr>
                <th scope="col">{t('recent.time')}</th>
                <th scope="col" class="num">
                  {t('recent.amount')}
                </th>
                <th scope="col">{t('recent.who')}</th>
                <th scope="col">{t('recent.status')}</th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s, i) => (
                <SaleRow key={s.transaction_id} ctx={ctx} sale={s} i={i} />
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
      {nextCursor !== null && sales.length > 0 ? (
        <div class="actions bar">
          <Button
            ctx={ctx}
            testid="recent-more"
            does={{ type: 'recent-more' }}
            label={t('recent.more')}
            disabled={state.busy !== null}
          />
        </div>
      ) : null}
    </Section>
  );
}

/** Who the sale was for: its customer, else its cards; nothing when anonymous and in cash. */
function whoText(sale: RecentSale): string {
  const c = sale.customer;
  const customer = c ? [c.name, c.card].filter(Boolean).join(' · ') || c.id : '';
  return [customer, ...sale.cards].filter(Boolean).join(' · ') || NONE;
}

function statusText(ctx: Ctx, sale: RecentSale): string {
  const base = ctx.t(statusKey[sale.status]);
  return partlyRefunded(sale) ? `${base} · ${ctx.t('recent.partly-refunded')}` : base;
}

function SaleRow({ ctx, sale, i }: { ctx: Ctx; sale: RecentSale; i: number }) {
  const { num } = ctx;
  const id = `recent-sale-${i}`;
  return (
    <tr data-testid={id} class={sale.status === 'cancelled' ? 'muted' : undefined}>
      <td>
        <Button
          ctx={ctx}
          testid={`${id}-open`}
          does={{ type: 'recent-select', transactionId: sale.transaction_id }}
          label={formatDateTime(sale.recorded_at, ctx.dates)}
        />
      </td>
      <td class="num" data-testid={`${id}-amount`}>
        {formatAmount(sale.total, 2, num)}
      </td>
      <td data-testid={`${id}-who`}>{whoText(sale)}</td>
      <td data-testid={`${id}-status`}>{statusText(ctx, sale)}</td>
    </tr>
  );
}

function paymentWords(ctx: Ctx, types: readonly string[]): string {
  const known = paymentTypeKey as Record<string, MessageKey | undefined>;
  return types
    .map((p) => {
      const key = known[p];
      return key ? ctx.t(key) : p;
    })
    .join(', ');
}

/** The sale opened: its facts and lines (with what was refunded), reprint, refund or cancel. */
function RecentDetail({ ctx, sale }: { ctx: Ctx; sale: RecentSale }) {
  const { t, num, state } = ctx;
  const copy = state.recent.copy;
  return (
    // its figures on top, its lines and the copy in the body, reprint and refund in the bar
    <Section title={t('recent.sale')} testid="recent-detail" cls="screen">
      <dl class="facts head">
        <Row
          label={t('recent.time')}
          value={formatDateTime(sale.recorded_at, ctx.dates)}
          testid="recent-detail-time"
        />
        <Row
          label={t('recent.amount')}
          value={formatAmount(sale.total, 2, num)}
          testid="recent-detail-amount"
          cls="due"
        />
        <Row
          label={t('recent.paid-with')}
          value={paymentWords(ctx, sale.payment_types) || NONE}
          testid="recent-detail-payments"
        />
        <Row label={t('recent.who')} value={whoText(sale)} testid="recent-detail-who" />
        <Row
          label={t('recent.status')}
          value={statusText(ctx, sale)}
          testid="recent-detail-status"
          cls={sale.status === 'committed' ? null : 'warn'}
        />
      </dl>
      <div class="body">
        <RecentLines ctx={ctx} sale={sale} />
        {copy && copy.transaction_id === sale.transaction_id ? (
          <div data-testid="recent-copy">
            <p class={copy.receipt_printed ? 'muted' : 'warn'} data-testid="recent-copy-printed">
              {t(copy.receipt_printed ? 'recent.copy-printed' : 'recent.copy-not-printed')}
            </p>
            <PrintedPaper ctx={ctx} p={copy.receipt} />
          </div>
        ) : null}
      </div>
      <RecentActions ctx={ctx} sale={sale} />
    </Section>
  );
}

function RecentLines({ ctx, sale }: { ctx: Ctx; sale: RecentSale }) {
  const { t, num } = ctx;
  return (
    <table class="lines" data-testid="recent-lines" aria-label={t('lines.title')}>
      <thead>
        <tr>
          <th scope="col">{t('lines.item')}</th>
          <th scope="col" class="num">
            {t('lines.quantity')}
          </th>
          <th scope="col" class="num">
            {t('lines.amount')}
          </th>
          <th scope="col" class="num">
            {t('recent.refunded')}
          </th>
        </tr>
      </thead>
      <tbody>
        {sale.lines.map((l, i) => (
          <tr key={l.index} data-testid={`recent-line-${i}`}>
            <td>{l.title ?? `#${l.index + 1}`}</td>
            <td class="num">{formatQuantity(l.quantity, undefined, num)}</td>
            <td class="num">{formatAmount(l.amount, 2, num)}</td>
            <td
              class={l.refunded.quantity > 0 ? 'num warn' : 'num'}
              data-testid={`recent-line-${i}-refunded`}
            >
              {l.refunded.quantity > 0
                ? `${formatQuantity(l.refunded.quantity, undefined, num)} · ${formatAmount(l.refunded.amount, 2, num)}`
                : NONE}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RecentActions({ ctx, sale }: { ctx: Ctx; sale: RecentSale }) {
  const { t, state } = ctx;
  const busy = state.busy !== null;
  const senior = hasRole(state, 'senior-cashier');
  return (
    <div class="actions big bar">
      <Button
        ctx={ctx}
        testid="recent-reprint"
        does={{ type: 'recent-reprint' }}
        label={t('recent.reprint')}
        kind="primary"
        disabled={busy}
      />
      {senior ? (
        <Button
          ctx={ctx}
          testid="recent-refund"
          does={{ type: 'recent-refund' }}
          label={t('recent.refund')}
          disabled={busy || sale.status === 'cancelled' || !state.status?.shift}
        />
      ) : (
        <p class="muted" data-testid="recent-refund-role">
          {t('recent.refund-role')}
        </p>
      )}
      <Button
        ctx={ctx}
        testid="recent-back"
        does={{ type: 'recent-close' }}
        label={t('recent.back')}
        hint="Esc"
      />
    </div>
  );
}
