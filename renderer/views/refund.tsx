// Refund some lines of a processed check, or cancel it whole (senior cashier and up). The
// check comes from `sale-status`; what each line returns is computed by the engine from the
// stored check (engine.md 15), so the screen only asks which quantities.
import { formatAmount, formatDec, formatQuantity } from '../format.js';
import { outboxStateKey } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import { giveBack, knowsRefunded, refundedOf } from '../slices/refund/state.js';
import { amountDigits, bonusDigits } from '../slices/sale/state.js';
import type { CancelResult, CommittedSale, RefundResult } from '../types.js';
import { Button, Form, Input, Row, Section, type Ctx } from './common.js';

export function RefundScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const allowed = hasRole(state, 'senior-cashier');
  return (
    // the sale to load on top, what a refund recorded under it, the sale's lines scroll
    <div class="stack screen">
      <Section title={t('refund.title')} testid="refund-panel" cls="head">
        {allowed ? null : (
          <p class="warn" data-testid="refund-role">
            {t('error.role-required')}
          </p>
        )}
        <Form ctx={ctx} submit={{ type: 'refund-load' }} testid="refund-load-form" cls="inline">
          <Input
            ctx={ctx}
            testid="refund-transaction-id"
            field="refund-transaction-id"
            label={t('refund.transaction-id')}
          />
          <div class="actions">
            <Button
              ctx={ctx}
              testid="refund-load"
              submit
              label={t('refund.load')}
              disabled={state.busy !== null}
            />
            <Button
              ctx={ctx}
              testid="refund-find-recent"
              does={{ type: 'nav', screen: 'recent' }}
              label={t('refund.find-recent')}
            />
          </div>
        </Form>
      </Section>
      <RefundDone ctx={ctx} />
      {state.refund.sale ? (
        <RefundSale
          ctx={ctx}
          sale={state.refund.sale}
          locked={!allowed || state.refund.sale.cancelled}
        />
      ) : null}
    </div>
  );
}

/**
 * The sale loaded: its figures, a quantity to return per line, refund or cancel; `locked`
 * without the role or once the sale is cancelled.
 */
function RefundSale({ ctx, sale, locked }: { ctx: Ctx; sale: CommittedSale; locked: boolean }) {
  const { t, num } = ctx;
  return (
    <Section title={t('refund.sale')} testid="refund-sale" cls="body screen">
      <dl class="facts head">
        <Row
          label={t('totals.to-pay')}
          value={formatAmount(sale.check.amount_to_pay, amountDigits(sale.check), num)}
          testid="refund-sale-amount"
        />
        <Row
          label={t('receipt.sync')}
          value={t(outboxStateKey[sale.sync.state])}
          testid="refund-sale-sync"
        />
        {sale.cancelled ? (
          <Row
            label={t('refund.state')}
            value={t('refund.already-cancelled')}
            testid="refund-sale-cancelled"
            cls="warn"
          />
        ) : null}
      </dl>
      <div class="body">
        <RefundLines ctx={ctx} sale={sale} locked={locked} />
      </div>
      <div class="bar refund-bar">
        <Input
          ctx={ctx}
          testid="refund-comment"
          field="refund-comment"
          label={t('refund.comment')}
        />
        <RefundActions ctx={ctx} locked={locked} />
      </div>
    </Section>
  );
}

function RefundLines({ ctx, sale, locked }: { ctx: Ctx; sale: CommittedSale; locked: boolean }) {
  const { t, num } = ctx;
  const d = amountDigits(sale.check);
  const known = knowsRefunded(ctx.state.refund);
  return (
    <table class="lines refund-lines" aria-label={t('lines.title')}>
      <thead>
        <tr>
          <th scope="col">{t('lines.item')}</th>
          <th scope="col" class="num">
            {t('lines.quantity')}
          </th>
          <th scope="col" class="num">
            {t('lines.amount')}
          </th>
          {known ? (
            <th scope="col" class="num">
              {t('refund.already')}
            </th>
          ) : null}
          <th scope="col" class="num">
            {t('refund.quantity')}
          </th>
        </tr>
      </thead>
      <tbody>
        {(sale.check.check_items ?? []).map((it, i) => (
          <tr data-testid={`refund-line-${i}`}>
            <td>{it.title ?? it.code}</td>
            <td class="num">{formatQuantity(it.quantity, it.quantity_decimal_digits, num)}</td>
            <td class="num">{formatAmount(it.amount, d, num)}</td>
            {known ? (
              <td class="num" data-testid={`refund-line-${i}-refunded`}>
                {formatQuantity(refundedOf(ctx.state.refund, i), it.quantity_decimal_digits, num)}
              </td>
            ) : null}
            <td class="num">
              <Input
                ctx={ctx}
                testid={`refund-qty-${i}`}
                field={`refund-qty-${i}`}
                label={t('refund.quantity-of', { item: it.title ?? it.code })}
                inputmode="decimal"
                disabled={locked}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Refund all, refund, cancel. */
function RefundActions({ ctx, locked }: { ctx: Ctx; locked: boolean }) {
  const { t } = ctx;
  const busy = ctx.state.busy !== null;
  return (
    <div class="actions">
      <Button
        ctx={ctx}
        testid="refund-all"
        does={{ type: 'refund-all' }}
        label={t('refund.all')}
        disabled={locked}
      />
      <Button
        ctx={ctx}
        testid="refund-submit"
        does={{ type: 'refund-submit' }}
        label={t('refund.submit')}
        kind="primary"
        disabled={locked || busy}
      />
      <Button
        ctx={ctx}
        testid="cancel-submit"
        does={{ type: 'cancel-submit' }}
        label={t('refund.cancel-check')}
        kind="danger"
        disabled={locked || busy}
      />
    </div>
  );
}

/** What the refund or the cancellation recorded. */
function RefundDone({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const { cancelled } = state.refund;
  const done = state.refund.result ?? cancelled;
  if (!done) return null;
  return (
    <Section
      title={t(cancelled ? 'refund.cancel-result' : 'refund.result')}
      testid={cancelled ? 'cancel-result' : 'refund-result'}
      cls="note"
    >
      <dl class="facts">
        <Row
          label={t('totals.to-pay')}
          value={formatAmount(done.check.amount_to_pay, amountDigits(done.check), num)}
          testid="refund-result-amount"
        />
        <Row
          label={t('receipt.sync')}
          value={t(outboxStateKey[done.sync.state])}
          testid="refund-result-sync"
        />
        <GiveBack ctx={ctx} done={done} />
        {done.owed ? (
          <Row
            label={t('refund.owed')}
            value={formatAmount(done.owed.bonuses, bonusDigits(done.check), num)}
            testid="refund-owed"
            cls="warn"
          />
        ) : null}
      </dl>
      <div class="actions">
        <Button
          ctx={ctx}
          testid="refund-to-recent"
          does={{ type: 'nav', screen: 'recent' }}
          label={t('refund.to-recent')}
        />
      </div>
    </Section>
  );
}

/** What to hand back and how: cash from the drawer, or what went back to a card or account. */
function GiveBack({ ctx, done }: { ctx: Ctx; done: RefundResult | CancelResult }) {
  const { t, num } = ctx;
  const d = amountDigits(done.check);
  return (
    <>
      {giveBack(done).map((g, i) => (
        <Row
          key={i}
          label={t('refund.how')}
          value={t(g.key, { amount: formatDec(g.amount, d, num), card: g.card ?? '' })}
          testid={`refund-give-back-${i}`}
          cls={g.key === 'refund.give-cash' ? 'due' : null}
        />
      ))}
    </>
  );
}
