// The customer's display (a second screen facing the customer): the check's lines as the till
// priced them, the amount to pay in large type, bonuses spent and earned, and after a sale
// the change and a QR of each coupon it emitted. A pure function of the terminal's
// `customer-display` event (src/contract/customer-display.ts); null before the first check.
import type { VNode } from 'preact';
import { formatAmount, formatQuantity, type NumberStyle } from '../format.js';
import type { Translate } from '../i18n.js';
import type { CustomerDisplay } from '../types.js';
import { Qr } from './qr.js';

interface DisplayCtx {
  t: Translate;
  num: NumberStyle;
}

export function displayPage(shown: CustomerDisplay | null, t: Translate, num: NumberStyle): VNode {
  return <Display shown={shown} ctx={{ t, num }} />;
}

function Display({ shown, ctx }: { shown: CustomerDisplay | null; ctx: DisplayCtx }) {
  const { t } = ctx;
  if (shown === null || (shown.state === 'open' && shown.lines.length === 0)) {
    return (
      <main class="display idle" data-testid="display" data-state="idle">
        <p class="display-welcome">{t('display.welcome')}</p>
      </main>
    );
  }
  return (
    <main class={`display ${shown.state}`} data-testid="display" data-state={shown.state}>
      <DisplayLines shown={shown} ctx={ctx} />
      <DisplayTotals shown={shown} ctx={ctx} />
      {shown.state === 'paid' ? <DisplayPaid shown={shown} ctx={ctx} /> : null}
    </main>
  );
}

function DisplayLines({ shown, ctx }: { shown: CustomerDisplay; ctx: DisplayCtx }) {
  const { t, num } = ctx;
  const d = shown.amount_digits;
  return (
    <ol class="display-lines" data-testid="display-lines" aria-label={t('display.lines')}>
      {shown.lines.map((l, i) => (
        <li key={i} data-testid={`display-line-${i}`}>
          <span class="title">{l.title}</span>
          <span class="num">{formatQuantity(l.quantity, l.quantity_digits, num)}</span>
          <span class="num discount">
            {l.discount ? `−${formatAmount(l.discount, d, num)}` : ''}
          </span>
          <span class="num">{formatAmount(l.amount, d, num)}</span>
        </li>
      ))}
    </ol>
  );
}

function DisplayTotals({ shown, ctx }: { shown: CustomerDisplay; ctx: DisplayCtx }) {
  const { t, num } = ctx;
  const b = shown.bonus_digits;
  return (
    <dl class="display-totals">
      <dt>{t('display.to-pay')}</dt>
      <dd class="due" data-testid="display-to-pay">
        {formatAmount(shown.to_pay, shown.amount_digits, num)}
      </dd>
      {shown.bonuses.redeemed ? (
        <>
          <dt>{t('display.bonuses-spent')}</dt>
          <dd data-testid="display-bonuses-spent">
            {formatAmount(shown.bonuses.redeemed, b, num)}
          </dd>
        </>
      ) : null}
      {shown.bonuses.added ? (
        <>
          <dt>{t('display.bonuses-earned')}</dt>
          <dd data-testid="display-bonuses-earned">{formatAmount(shown.bonuses.added, b, num)}</dd>
        </>
      ) : null}
    </dl>
  );
}

function DisplayPaid({ shown, ctx }: { shown: CustomerDisplay; ctx: DisplayCtx }) {
  const { t, num } = ctx;
  return (
    <section class="display-paid">
      <p class="display-thanks" data-testid="display-thanks">
        {t('display.thanks')}
      </p>
      {shown.change !== undefined ? (
        <p data-testid="display-change">
          {t('display.change', { amount: formatAmount(shown.change, shown.amount_digits, num) })}
        </p>
      ) : null}
      {shown.coupons.map((c, i) => (
        <figure key={c.code} class="display-coupon" data-testid={`display-coupon-${i}`}>
          <Qr
            text={c.code}
            label={t('display.coupon-qr', { code: c.code })}
            testid={`display-coupon-${i}-qr`}
          />
          <figcaption>
            <strong>{c.title ?? t('display.coupon')}</strong>
            <span data-testid={`display-coupon-${i}-code`}>{c.code}</span>
            {c.expire_date ? (
              <span>{t('display.coupon-expires', { date: c.expire_date })}</span>
            ) : null}
          </figcaption>
        </figure>
      ))}
    </section>
  );
}
