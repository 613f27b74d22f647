// Cash: paid in and paid out of the drawer with the reason, the shift's movements, and the
// shift report below (the X report while open; closing with the cash counted shows over or
// short and the Z report).
import { formatAmount, formatDateTime } from '../format.js';
import type { CashMovement } from '../types.js';
import { Button, FieldSelect, Form, Input, Section, type Ctx } from './common.js';
import { ReportScreen } from './report.js';

export function CashScreen({ ctx }: { ctx: Ctx }) {
  const open = Boolean(ctx.state.status?.shift);
  const moves = ctx.state.report.report?.cash_movements ?? [];
  return (
    // the form on top; the movements and the shift report scroll below it
    <div class="stack screen cash">
      {open ? <MovementForm ctx={ctx} /> : null}
      <div class="body">
        {moves.length > 0 ? <Movements ctx={ctx} moves={moves} /> : null}
        <ReportScreen ctx={ctx} />
      </div>
    </div>
  );
}

function MovementForm({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    <Section title={t('cash.title')} testid="cash" cls="head">
      <Form ctx={ctx} submit={{ type: 'cash-move' }} testid="cash-form">
        <div class="row">
          <FieldSelect
            ctx={ctx}
            testid="cash-kind"
            field="cash-kind"
            label={t('cash.kind')}
            options={[
              ['paid-in', t('cash.paid-in')],
              ['paid-out', t('cash.paid-out')],
            ]}
          />
          <Input
            ctx={ctx}
            testid="cash-amount"
            field="cash-amount"
            label={t('cash.amount')}
            inputmode="decimal"
          />
        </div>
        <Input ctx={ctx} testid="cash-reason" field="cash-reason" label={t('cash.reason')} />
        <div class="actions">
          <Button
            ctx={ctx}
            testid="cash-submit"
            submit
            label={t('cash.record')}
            kind="primary"
            disabled={ctx.state.busy !== null}
          />
          <Button
            ctx={ctx}
            testid="cash-drawer-open"
            does={{ type: 'drawer-open' }}
            label={t('cash.drawer-open')}
            disabled={ctx.state.busy !== null}
          />
        </div>
      </Form>
    </Section>
  );
}

function Movements({ ctx, moves }: { ctx: Ctx; moves: readonly CashMovement[] }) {
  const { t, num } = ctx;
  return (
    <Section title={t('cash.movements')} testid="cash-movements">
      <ul class="list">
        {moves.map((m, i) => (
          <li key={m.id} data-testid={`cash-movement-${i}`}>
            {`${formatDateTime(m.recorded_at, ctx.dates)} · ${t(
              m.kind === 'paid-in' ? 'cash.paid-in' : 'cash.paid-out',
            )} ${formatAmount(m.amount, 2, num)} · ${m.reason} · ${m.staff.name ?? ''}`}
          </li>
        ))}
      </ul>
    </Section>
  );
}
