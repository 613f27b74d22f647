// The shift report (X report while open) and closing the shift (Z, manager only).
import { formatAmount, formatDateTime, formatDec, NONE } from '../format.js';
import { ZERO, sub } from '../money.js';
import { paymentTypeKey } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import { overShort } from '../slices/report/state.js';
import type { PastShift, ShiftReport } from '../types.js';
import { Button, Form, Input, Row, Section, type Ctx } from './common.js';

export function ReportScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const r = state.report.report;
  const open = Boolean(state.status?.shift);
  return (
    // its actions on top, its figures in the body, the close (or the next shift) in the bar
    <Section title={t('report.title')} testid="report" cls="screen">
      <div class="actions head">
        <Button
          ctx={ctx}
          testid="report-refresh"
          does={{ type: 'report-load' }}
          label={t('common.refresh')}
          disabled={state.busy !== null || !open}
        />
        <Button
          ctx={ctx}
          testid="report-print-x"
          does={{ type: 'report-print' }}
          label={t('report.print-x')}
          disabled={state.busy !== null || !open}
        />
        <Button
          ctx={ctx}
          testid="report-past-load"
          does={{ type: 'past-load' }}
          label={t('report.past-load')}
          disabled={state.busy !== null}
        />
      </div>
      <div class="body">
        {r ? (
          <ReportFacts ctx={ctx} r={r} />
        ) : (
          <p class="muted">{open ? t('common.loading') : t('report.no-shift')}</p>
        )}
        {open && !hasRole(state, 'manager') ? (
          <p class="muted" data-testid="report-close-role">
            {t('report.close-role')}
          </p>
        ) : null}
        {state.report.past ? <PastShifts ctx={ctx} shifts={state.report.past} /> : null}
      </div>
      {open && hasRole(state, 'manager') ? <CloseForm ctx={ctx} /> : null}
      {open ? null : (
        <div class="actions bar">
          <Button
            ctx={ctx}
            testid="report-open-shift"
            does={{ type: 'nav', screen: 'shift-open' }}
            label={t('shift.open')}
            kind="primary"
          />
        </div>
      )}
    </Section>
  );
}

function ReportFacts({ ctx, r }: { ctx: Ctx; r: ShiftReport }) {
  const { t, num } = ctx;
  const money = (n: number | undefined) => formatAmount(n, 2, num);
  const tally = (x: { count: number; amount: number }) => `${x.count} · ${money(x.amount)}`;
  return (
    <dl class="facts two" data-testid="report-facts">
      <Row label={t('report.shift')} value={String(r.shift.number)} testid="report-shift-number" />
      <Row
        label={t('report.opened')}
        value={`${formatDateTime(r.shift.opened_at, ctx.dates)} ${r.shift.opened_by.name ?? ''}`}
        testid="report-opened"
      />
      <Row
        label={t('report.closed-at')}
        value={r.shift.closed_at ? formatDateTime(r.shift.closed_at, ctx.dates) : NONE}
        testid="report-closed-at"
      />
      {r.shift.opening_cash !== undefined ? (
        <Row
          label={t('report.opening-cash')}
          value={money(r.shift.opening_cash)}
          testid="report-opening-cash"
        />
      ) : null}
      <Row label={t('report.sales')} value={tally(r.sales)} testid="report-sales" />
      <Row label={t('report.refunds')} value={tally(r.refunds)} testid="report-refunds" />
      <Row
        label={t('report.cancellations')}
        value={tally(r.cancellations)}
        testid="report-cancellations"
      />
      <Row label={t('report.offline')} value={tally(r.offline_sales)} testid="report-offline" />
      {r.payments.map((p) => (
        <Row
          key={p.type}
          label={t(paymentTypeKey[p.type])}
          value={tally(p)}
          testid={`report-payment-${p.type}`}
        />
      ))}
      <Row
        label={t('report.bonuses-added')}
        value={money(r.bonuses.added)}
        testid="report-bonuses-added"
      />
      <Row
        label={t('report.bonuses-redeemed')}
        value={money(r.bonuses.redeemed)}
        testid="report-bonuses-redeemed"
      />
      <Row
        label={t('report.expected-cash')}
        value={money(r.expected_cash)}
        testid="report-expected-cash"
      />
      <Row
        label={t('report.unsynced')}
        value={String(r.unsynced)}
        testid="report-unsynced"
        cls={r.unsynced > 0 ? 'warn' : null}
      />
      <Counted ctx={ctx} r={r} />
    </dl>
  );
}

/** At close: the cash counted and how far it is over or short of what was expected. */
function Counted({ ctx, r }: { ctx: Ctx; r: ShiftReport }) {
  const { t, num } = ctx;
  const counted = r.shift.counted_cash;
  if (counted === undefined) return null;
  const diff = overShort(r);
  const amount = diff ? formatDec(diff.sign < 0 ? sub(ZERO, diff.value) : diff.value, 2, num) : '';
  const text = !diff
    ? t('report.not-expected')
    : diff.sign === 0
      ? t('report.even')
      : t(diff.sign > 0 ? 'report.over' : 'report.short', { amount });
  return (
    <>
      <Row
        label={t('report.counted')}
        value={formatAmount(counted, 2, num)}
        testid="report-counted"
      />
      <Row
        label={t('report.over-short')}
        value={text}
        testid="report-over-short"
        cls={diff && diff.sign !== 0 ? 'warn' : null}
      />
    </>
  );
}

/** Closing the shift (Z): the cash counted, then close. */
function CloseForm({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    <Form ctx={ctx} submit={{ type: 'shift-close' }} testid="report-close-form" cls="bar inline">
      <Input
        ctx={ctx}
        testid="report-counted-cash"
        field="counted-cash"
        label={t('report.counted-cash')}
        inputmode="decimal"
      />
      <div class="actions">
        <Button
          ctx={ctx}
          testid="report-close-shift"
          submit
          label={t('report.close')}
          kind="danger"
          disabled={ctx.state.busy !== null}
        />
      </div>
    </Form>
  );
}

/** The latest shifts with their reports kept: open one's report, print it again as a copy. */
function PastShifts({ ctx, shifts }: { ctx: Ctx; shifts: readonly PastShift[] }) {
  const { t } = ctx;
  const busy = ctx.state.busy !== null;
  return (
    <div class="past" data-testid="report-past">
      <h3>{t('report.past')}</h3>
      {shifts.length === 0 ? <p class="muted">{t('report.past-none')}</p> : null}
      <ul class="list">
        {shifts.map((p, i) => (
          <li key={p.shift.id} class="row" data-testid={`report-past-${i}`}>
            <span>{pastText(ctx, p)}</span>
            <Button
              ctx={ctx}
              testid={`report-past-${i}-open`}
              does={{ type: 'past-open', shiftId: p.shift.id }}
              label={t('report.past-open')}
              disabled={busy}
            />
            {p.shift.closed_at ? (
              <Button
                ctx={ctx}
                testid={`report-past-${i}-print`}
                does={{ type: 'past-print', shiftId: p.shift.id }}
                label={t('report.past-print')}
                disabled={busy}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "Shift 3 · 27/11/2026, 08:00 to 16:05 · Ann · X 2, Z printed". */
function pastText(ctx: Ctx, p: PastShift): string {
  const { t, dates } = ctx;
  const s = p.shift;
  const when = `${formatDateTime(s.opened_at, dates)} \u2013 ${
    s.closed_at ? formatDateTime(s.closed_at, dates) : t('report.past-still-open')
  }`;
  const xs = p.reports.filter((r) => r.kind === 'x').length;
  const z = p.reports.find((r) => r.kind === 'z');
  const kept = [
    xs > 0 ? t('report.past-x', { count: xs }) : '',
    z ? t(z.printed ? 'report.past-z-printed' : 'report.past-z-kept') : '',
  ].filter((x) => x !== '');
  return [t('report.past-shift', { number: s.number }), when, s.opened_by.name ?? '', ...kept]
    .filter((x) => x !== '')
    .join(' \u00b7 ');
}
