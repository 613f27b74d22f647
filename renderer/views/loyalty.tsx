// Loyalty at the till for the customer identified in the sale: their balances, the coupons
// and certificates the till sells at their batch's price (the coupon sold shown with its
// code, a QR for the customer's phone and the slip as printed), and a manager's bonus
// operation with why.
import { formatAmount, formatMoney } from '../format.js';
import { hasRole } from '../slices/frame/state.js';
import { amountDigits, bonusDigits } from '../slices/sale/state.js';
import type { CouponBatchOnSale, CustomerSummary } from '../types.js';
import { Button, FieldSelect, Form, Input, Row, Section, type Ctx } from './common.js';
import { Qr } from './qr.js';
import { PrintedPaper } from './receipt.js';

export function LoyaltyScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const c = state.sale.draft.customer;
  return (
    // the customer and a manager's bonus operation beside the coupons on sale, which scroll
    <div class="stack loyalty">
      <div class="side">
        <Section title={t('loyalty.title')} testid="loyalty">
          {c ? (
            <Balances ctx={ctx} c={c} />
          ) : (
            <p class="muted" data-testid="loyalty-no-customer">
              {t('loyalty.no-customer')}
            </p>
          )}
          <div class="actions">
            <Button
              ctx={ctx}
              testid="loyalty-back"
              does={{ type: 'back' }}
              label={t('loyalty.back')}
              hint="Esc"
            />
          </div>
        </Section>
        {c ? <BonusOperation ctx={ctx} /> : null}
      </div>
      <div class="body">
        {c && state.loyalty.sold?.coupon ? <SoldCoupon ctx={ctx} /> : null}
        {c ? <CouponsOnSale ctx={ctx} /> : null}
      </div>
    </div>
  );
}

function Balances({ ctx, c }: { ctx: Ctx; c: CustomerSummary }) {
  const { t, num, state } = ctx;
  const bonuses = (n: number) => formatAmount(n, bonusDigits(state.sale.calc.check), num);
  return (
    <dl class="facts" data-testid="loyalty-balances">
      <Row label={t('customer.name')} value={c.name ?? ''} testid="loyalty-customer" />
      <Row
        label={t('customer.bonuses-available')}
        value={bonuses(c.bonuses.available)}
        testid="loyalty-bonuses"
      />
      <Row
        label={t('customer.bonuses-regular')}
        value={bonuses(c.bonuses.regular)}
        testid="loyalty-bonuses-regular"
      />
      {c.special_accounts.map((a, i) => (
        <Row
          key={a.id}
          label={a.title ?? a.id}
          value={
            a.available === null
              ? t('customer.unlimited')
              : formatMoney(a.available, amountDigits(state.sale.calc.check), a.currency, num)
          }
          testid={`loyalty-account-${i}`}
        />
      ))}
    </dl>
  );
}

function priceText(ctx: Ctx, b: CouponBatchOnSale): string {
  const { t, num, state } = ctx;
  return b.price.type === 'bonuses'
    ? t('loyalty.price-bonuses', {
        amount: formatAmount(b.price.amount, bonusDigits(state.sale.calc.check), num),
      })
    : formatMoney(b.price.amount, amountDigits(state.sale.calc.check), b.price.currency, num);
}

function CouponsOnSale({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const batches = state.loyalty.batches;
  return (
    <Section title={t('loyalty.on-sale')} testid="loyalty-on-sale">
      {batches === null ? <p class="muted">{t('common.loading')}</p> : null}
      {batches?.length === 0 ? (
        <p class="muted" data-testid="loyalty-none">
          {t('loyalty.none')}
        </p>
      ) : null}
      <ul class="list">
        {(batches ?? []).map((b, i) => (
          <li key={b.id} class="row" data-testid={`coupon-batch-${i}`}>
            <span>
              {b.title} · {priceText(ctx, b)}
              {b.special_account_title ? ` (${b.special_account_title})` : ''}
            </span>
            <Button
              ctx={ctx}
              testid={`coupon-buy-${i}`}
              does={{ type: 'coupon-buy', batchId: b.id }}
              label={t('loyalty.sell')}
              disabled={state.busy !== null || !state.status?.shift}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}

function SoldCoupon({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  const coupon = ctx.state.loyalty.sold?.coupon;
  if (!coupon) return null;
  return (
    <Section title={t('loyalty.sold-title')} testid="loyalty-sold">
      <dl class="facts">
        <Row label={t('loyalty.coupon')} value={coupon.title ?? ''} testid="loyalty-sold-title" />
        <Row label={t('loyalty.code')} value={coupon.code} testid="loyalty-sold-code" />
        {coupon.expire_date ? (
          <Row
            label={t('loyalty.expires')}
            value={coupon.expire_date}
            testid="loyalty-sold-expiry"
          />
        ) : null}
      </dl>
      <Qr text={coupon.code} label={t('loyalty.qr', { code: coupon.code })} testid="loyalty-qr" />
      {ctx.state.loyalty.sold?.receipt ? (
        <PrintedPaper ctx={ctx} p={ctx.state.loyalty.sold.receipt} />
      ) : null}
    </Section>
  );
}

function BonusOperation({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  if (!hasRole(state, 'manager'))
    return (
      <p class="muted" data-testid="loyalty-bonus-role">
        {t('loyalty.bonus-role')}
      </p>
    );
  return (
    <Section title={t('loyalty.bonus-title')} testid="loyalty-bonus">
      <Form ctx={ctx} submit={{ type: 'bonus-move' }} testid="bonus-form">
        <div class="row">
          <FieldSelect
            ctx={ctx}
            testid="bonus-kind"
            field="bonus-kind"
            label={t('loyalty.bonus-kind')}
            options={[
              ['add', t('loyalty.add')],
              ['write-off', t('loyalty.write-off')],
            ]}
          />
          <Input
            ctx={ctx}
            testid="bonus-amount"
            field="bonus-amount"
            label={t('loyalty.bonus-amount')}
            inputmode="decimal"
          />
        </div>
        <Input
          ctx={ctx}
          testid="bonus-comment"
          field="bonus-comment"
          label={t('loyalty.bonus-comment')}
        />
        <div class="actions">
          <Button
            ctx={ctx}
            testid="bonus-submit"
            submit
            label={t('loyalty.bonus-record')}
            kind="primary"
            disabled={state.busy !== null}
          />
        </div>
      </Form>
    </Section>
  );
}
