// The sale screen: who buys (customer), what (item entry, goods.tsx; lines, lines.tsx), what the
// rules gave (offers.tsx) and what is due. Every number shown is the engine's, from the latest
// `check-calc`; the request lines only supply code, title and quantity until it answers.
import { Fragment } from 'preact';
import { formatAmount, formatMoney, NONE } from '../format.js';
import { accessKey, errorText, idTypeKey } from '../i18n.js';
import { amountDigits, bonusDigits, canPay, ID_TYPE_CHOICES } from '../slices/sale/state.js';
import type { CustomerSummary } from '../types.js';
import { Button, FieldSelect, Form, Input, Row, Section, type Ctx } from './common.js';
import { GoodsKeys, ItemPanel, Keypad } from './goods.js';
import { LinesTable, Totals } from './lines.js';
import { PumpLines } from './fill-lines.js';
import { BonusesPanel, CouponsPanel, RulesPanel } from './offers.js';

export function SaleScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const calc = state.sale.calc;
  return (
    <div class="sale">
      {/* the item entry first: at 800x600 it and the customer's name stay in view */}
      <div class="col left">
        <ItemPanel ctx={ctx} />
        <CustomerPanel ctx={ctx} />
        <GoodsKeys ctx={ctx} />
        <Keypad ctx={ctx} />
      </div>
      <div class="col middle">
        <Section title={t('lines.title')} testid="lines-panel">
          <LinesTable ctx={ctx} />
          <PumpLines ctx={ctx} />
        </Section>
        {calc.error ? (
          <p class="error" role="alert" data-testid="sale-calc-error">
            {errorText(t, calc.error)} <code>{calc.error.code}</code>
          </p>
        ) : null}
        {calc.warnings.length > 0 ? (
          <ul class="warnings" data-testid="sale-warnings">
            {calc.warnings.map((w, i) => (
              <li data-testid={`sale-warning-${i}`}>{w.message}</li>
            ))}
          </ul>
        ) : null}
        <Totals ctx={ctx} />
        <div class="actions big">
          <Button
            ctx={ctx}
            testid="sale-pay"
            does={{ type: 'pay' }}
            label={t('sale.pay')}
            kind="primary"
            disabled={!canPay(state)}
            hint="F8"
          />
          <Button
            ctx={ctx}
            testid="sale-forecourt"
            does={{ type: 'forecourt-open' }}
            label={t('forecourt.open')}
            hint="F10"
          />
          <Button
            ctx={ctx}
            testid="sale-void"
            does={{ type: 'void-sale' }}
            label={t('sale.void')}
            kind="danger"
            disabled={state.sale.draft.lines.length === 0 && !state.sale.draft.customer}
          />
        </div>
      </div>
      <div class="col right">
        <RulesPanel ctx={ctx} />
        <BonusesPanel ctx={ctx} />
        <CouponsPanel ctx={ctx} />
      </div>
    </div>
  );
}

function CustomerPanel({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const c = state.sale.draft.customer;
  return (
    <Section title={t('customer.title')} testid="customer-panel">
      {/* who it is above the form to identify another: the name is what the cashier checks */}
      {c ? (
        <CustomerFacts ctx={ctx} c={c} />
      ) : (
        <p class="muted" data-testid="customer-anonymous">
          {t('customer.anonymous')}
        </p>
      )}
      <CustomerForm ctx={ctx} identified={c !== null} />
    </Section>
  );
}

function CustomerForm({ ctx, identified }: { ctx: Ctx; identified: boolean }) {
  const { t, state } = ctx;
  return (
    <Form ctx={ctx} submit={{ type: 'identify' }} testid="customer-form">
      <div class="row">
        <Input
          ctx={ctx}
          testid="customer-id"
          field="customer-id"
          label={t('customer.id')}
          placeholder={t('customer.id-hint')}
        />
        <FieldSelect
          ctx={ctx}
          testid="customer-id-type"
          field="customer-id-type"
          label={t('customer.id-type')}
          options={ID_TYPE_CHOICES.map((v) => [v, t(idTypeKey[v])] as const)}
        />
      </div>
      <Input
        ctx={ctx}
        testid="customer-otp"
        field="customer-otp"
        label={t('customer.otp')}
        inputmode="numeric"
      />
      <div class="actions">
        <Button
          ctx={ctx}
          testid="customer-identify"
          submit
          label={t('customer.identify')}
          kind="primary"
          disabled={state.busy === 'customer-identify'}
          hint="F2"
        />
        {identified ? (
          <Button
            ctx={ctx}
            testid="customer-clear"
            does={{ type: 'customer-clear' }}
            label={t('customer.clear')}
          />
        ) : null}
        {identified ? (
          <Button
            ctx={ctx}
            testid="customer-loyalty"
            does={{ type: 'loyalty-open' }}
            label={t('loyalty.open')}
            hint="F7"
          />
        ) : null}
      </div>
    </Form>
  );
}

function CustomerFacts({ ctx, c }: { ctx: Ctx; c: CustomerSummary }) {
  const { t, state, num } = ctx;
  const digits = bonusDigits(state.sale.calc.check);
  const bonuses = (n: number) => formatAmount(n, digits, num);
  return (
    <dl class="facts" data-testid="customer-summary">
      <Row label={t('customer.name')} value={c.name ?? NONE} testid="customer-name" />
      <Row
        label={t('customer.type')}
        value={t(c.type === 'corporate-customer' ? 'customer.corporate' : 'customer.retail')}
        testid="customer-type"
      />
      <Row
        label={t('customer.access')}
        value={t(accessKey[c.access_type])}
        testid="customer-access"
        cls={c.access_type === 'full-bonuses-access' ? null : 'warn'}
      />
      <Row
        label={t('customer.category')}
        value={c.card_category?.title ?? NONE}
        testid="customer-category"
      />
      <Row
        label={t('customer.bonuses-available')}
        value={bonuses(c.bonuses.available)}
        testid="customer-bonuses-available"
      />
      <Row
        label={t('customer.bonuses-regular')}
        value={bonuses(c.bonuses.regular)}
        testid="customer-bonuses-regular"
      />
      <Row
        label={t('customer.bonuses-promotional')}
        value={bonuses(c.bonuses.promotional)}
        testid="customer-bonuses-promotional"
      />
      {state.sale.draft.customerSource === 'cache' ? (
        <Row
          label={t('customer.source')}
          value={t('customer.from-cache')}
          testid="customer-source"
          cls="warn"
        />
      ) : null}
      <CustomerAccounts ctx={ctx} c={c} />
    </dl>
  );
}

function CustomerAccounts({ ctx, c }: { ctx: Ctx; c: CustomerSummary }) {
  const { t, state, num } = ctx;
  return (
    <>
      {c.special_accounts.map((a, i) => (
        <Fragment key={a.id}>
          <dt>{a.title ?? a.id}</dt>
          <dd data-testid={`customer-account-${i}`}>
            {a.available === null
              ? t('customer.unlimited')
              : formatMoney(a.available, amountDigits(state.sale.calc.check), a.currency, num)}
            {a.type === 'quantity' ? ` (${t('customer.account-quantity')})` : ''}
            {a.pin_required ? ` · ${t('customer.pin')}` : ''}
          </dd>
        </Fragment>
      ))}
    </>
  );
}
