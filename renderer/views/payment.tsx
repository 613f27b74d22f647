// Payment: cash, bank card, a special account (PIN when the engine says so) or a corporate
// account (vehicle and odometer when required); cash and card may be split. What is due is
// the engine's `amount_to_pay`; the split and the change are exact decimals (src/money).
import { formatAmount, formatDec } from '../format.js';
import { errorText, paymentTypeKey } from '../i18n.js';
import { parseTyped } from '../money.js';
import { change, PAYMENT_TYPES, remaining } from '../slices/payment/state.js';
import { accountsFor, amountDigits, isAccountPayment } from '../slices/sale/state.js';
import type { DataRequired } from '../types.js';
import { Keypad, QuickCash } from './goods.js';
import { Button, FieldSelect, Form, Input, Row, Section, type Ctx } from './common.js';

export function PaymentScreen({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const c = state.sale.calc.check;
  const method = state.sale.draft.payment.type;
  const confirmError = state.fieldErrors['payment-confirm'];
  return (
    <Form ctx={ctx} submit={{ type: 'sale-confirm' }} testid="payment-form" cls="beside-pad">
      {/* what is due and how on top, the parts in the body, Confirm in the bar below */}
      <Section title={t('payment.title')} testid="payment-panel" cls="screen">
        <div class="head">
          <p class="due" data-testid="payment-due" aria-live="polite">
            {t('payment.due')}{' '}
            <strong>{formatAmount(c?.amount_to_pay, amountDigits(c), num)}</strong>
          </p>
          <MethodChoices ctx={ctx} />
          {state.sale.calc.error ? (
            <p class="error" role="alert" data-testid="payment-calc-error">
              {errorText(t, state.sale.calc.error)}
            </p>
          ) : null}
        </div>
        <div class="body">
          {isAccountPayment(method) ? <AccountFields ctx={ctx} /> : <SplitFields ctx={ctx} />}
        </div>
        <div class="bar">
          {paying(ctx) ? (
            <p class="notice" data-testid="payment-in-progress" role="status">
              {t(method === 'bank-card' ? 'payment.follow-terminal' : 'payment.processing')}
            </p>
          ) : null}
          {confirmError ? (
            <p class="field-error" role="alert" data-testid="payment-confirm-error">
              {t(confirmError)}
            </p>
          ) : null}
          <PaymentActions ctx={ctx} />
        </div>
      </Section>
      <Keypad ctx={ctx} />
    </Form>
  );
}

/** The sale is being processed or its outcome asked for. */
function paying(ctx: Ctx): boolean {
  return ctx.state.busy === 'sale-process' || ctx.state.busy === 'sale-status';
}

function MethodChoices({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const locked = paying(ctx) || state.payment.outcomeUnknown;
  return (
    <div class="choices" role="group" aria-label={t('payment.method')}>
      {PAYMENT_TYPES.map((p) => (
        <Button
          key={p}
          ctx={ctx}
          testid={`payment-method-${p}`}
          does={{ type: 'payment-method', method: p }}
          label={t(paymentTypeKey[p])}
          pressed={p === state.sale.draft.payment.type}
          disabled={locked || (isAccountPayment(p) && !state.sale.draft.customer)}
        />
      ))}
    </div>
  );
}

function AccountFields({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const draft = state.sale.draft;
  const accounts = accountsFor(draft.customer, draft.payment.type);
  if (accounts.length === 0) {
    return (
      <p class="muted" data-testid="payment-no-accounts">
        {t('payment.no-accounts')}
      </p>
    );
  }
  const error = state.fieldErrors['payment-account'];
  const chosen = accounts.find((a) => a.id === draft.payment.accountId);
  return (
    <>
      <div
        class="choices"
        role="group"
        aria-label={t('payment.account')}
        data-testid="payment-account"
      >
        {accounts.map((a, i) => (
          <Button
            key={a.id}
            ctx={ctx}
            testid={`payment-account-${i}`}
            does={{ type: 'payment-account', accountId: a.id }}
            label={a.title ?? a.id}
            pressed={a.id === draft.payment.accountId}
          />
        ))}
      </div>
      {error ? (
        <p class="field-error" role="alert" data-testid="payment-account-error">
          {t(error)}
        </p>
      ) : null}
      <AccountChecks ctx={ctx} accountWantsPin={chosen?.pin_required === true} />
    </>
  );
}

/** What the engine asks with an account payment: PIN, odometer, vehicle. */
function AccountChecks({ ctx, accountWantsPin }: { ctx: Ctx; accountWantsPin: boolean }) {
  const { t } = ctx;
  const c = ctx.state.sale.calc.check;
  const odometer = c?.special_account_odometer_required;
  const vehicle = c?.special_account_vehicle_id_required;
  const required = (flag: DataRequired | undefined) =>
    flag === 'required' ? ` (${t('payment.required')})` : '';
  return (
    <>
      {c?.special_account_pin_required === true || accountWantsPin ? (
        <Input
          ctx={ctx}
          testid="payment-pin"
          field="pin"
          label={t('payment.pin')}
          type="password"
          inputmode="numeric"
          autocomplete="off"
        />
      ) : null}
      {odometer && odometer !== 'none' ? (
        <div class="row">
          <Input
            ctx={ctx}
            testid="payment-odometer"
            field="odometer"
            label={t('payment.odometer') + required(odometer)}
            inputmode="decimal"
          />
          <FieldSelect
            ctx={ctx}
            testid="payment-odometer-unit"
            field="odometer-unit"
            label={t('payment.odometer-unit')}
            options={[
              ['km', t('unit.km')],
              ['mi', t('unit.mi')],
              ['h', t('unit.h')],
            ]}
          />
        </div>
      ) : null}
      {vehicle && vehicle !== 'none' ? (
        <Input
          ctx={ctx}
          testid="payment-vehicle-id"
          field="vehicle-id"
          label={t('payment.vehicle') + required(vehicle)}
        />
      ) : null}
    </>
  );
}

/**
 * Cash and card parts of a split and what is left (above the parts); the cash handed over and
 * the change (above the quick cash): the figures stay on top of their columns.
 */
function SplitFields({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const digits = amountDigits(state.sale.calc.check);
  return (
    <div class="pay-parts">
      <div class="pay-split">
        <div class="row">
          <FieldSelect
            ctx={ctx}
            testid="payment-tender-type"
            field="tender-type"
            label={t('payment.part-type')}
            options={[
              ['cash', t('payment.cash')],
              ['bank-card', t('payment.bank-card')],
            ]}
          />
          <Input
            ctx={ctx}
            testid="payment-tender-amount"
            field="tender-amount"
            label={t('payment.part-amount')}
            inputmode="decimal"
          />
          <div class="actions">
            <Button
              ctx={ctx}
              testid="payment-tender-add"
              does={{ type: 'tender-add' }}
              label={t('payment.add-part')}
            />
          </div>
        </div>
        <dl class="facts">
          <Row
            label={t('payment.remaining')}
            value={formatDec(remaining(state), digits, num)}
            testid="payment-remaining"
          />
        </dl>
        <Tenders ctx={ctx} digits={digits} />
      </div>
      <div class="pay-cash">
        <Input
          ctx={ctx}
          testid="payment-cash-given"
          field="cash-given"
          label={t('payment.cash-given')}
          inputmode="decimal"
        />
        <dl class="facts">
          <Row
            label={t('payment.change')}
            value={formatDec(change(state), digits, num)}
            testid="payment-change"
          />
        </dl>
        <QuickCash ctx={ctx} />
      </div>
    </div>
  );
}

function Tenders({ ctx, digits }: { ctx: Ctx; digits: number }) {
  const { t, state } = ctx;
  const { tenders } = state.payment;
  if (tenders.length === 0) return null;
  return (
    <ul class="list" data-testid="payment-tenders">
      {tenders.map((p, i) => (
        <li data-testid={`payment-tender-${i}`}>
          <span class="title">{t(paymentTypeKey[p.type])}</span>
          <span class="detail">{formatDec(parseTyped(p.amount), digits, ctx.num)}</span>
          <Button
            ctx={ctx}
            testid={`payment-tender-${i}-remove`}
            does={{ type: 'tender-remove', index: i }}
            label="×"
            kind="danger"
            title={t('payment.remove-part')}
          />
        </li>
      ))}
    </ul>
  );
}

/** Confirm (or, with the outcome unknown, ask for it) and back. */
function PaymentActions({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const busy = paying(ctx);
  const unknown = state.payment.outcomeUnknown;
  return (
    <div class="actions big">
      {unknown ? (
        <Button
          ctx={ctx}
          testid="payment-check-status"
          does={{ type: 'sale-check-status' }}
          label={t('payment.check-status')}
          kind="primary"
          disabled={busy}
        />
      ) : (
        <Button
          ctx={ctx}
          testid="payment-confirm"
          submit
          label={t('payment.confirm')}
          kind="primary"
          disabled={busy || state.sale.calc.pending}
          hint="F8"
        />
      )}
      <Button
        ctx={ctx}
        testid="payment-back"
        does={{ type: 'back' }}
        label={t('payment.back')}
        disabled={busy || unknown}
        hint="Esc"
      />
    </div>
  );
}
