// The pump's part of the check on the sale screen (docs/forecourt.md, "Selling a fill"): the
// pump this check prepays, and each fill sold on it with the pump's figures as the engine
// answered them (its lines follow the cashier's), each with a way off the check.
import { formatAmount, formatDec, formatQuantity } from '../format.js';
import { dec } from '../money.js';
import { gradesOf } from '../slices/forecourt/state.js';
import { amountDigits } from '../slices/sale/state.js';
import { Button, type Ctx } from './common.js';

export function PumpLines({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const { draft, calc } = state.sale;
  const answered = calc.check?.check_items ?? [];
  const digits = amountDigits(calc.check);
  return (
    <>
      {draft.prepayPump !== null ? (
        <p class="notice" data-testid="sale-prepay-for">
          {t('sale.prepay-for', { pump: String(draft.prepayPump) })}{' '}
          <Button
            ctx={ctx}
            testid="sale-prepay-cancel"
            does={{ type: 'prepay-for', pump: null }}
            label={t('sale.prepay-cancel')}
          />
        </p>
      ) : null}
      {draft.prepayPump !== null ? <PrepayGrades ctx={ctx} pump={draft.prepayPump} /> : null}
      {draft.fills.length > 0 ? (
        <ul class="fill-lines" data-testid="fill-lines">
          {draft.fills.map((f, i) => {
            const line = answered[draft.lines.length + i];
            return (
              <li key={f.id} data-testid={`fill-line-${i}`}>
                <span>{`${t('lines.fill', { pump: String(f.pump) })} · ${line?.title ?? f.grade}`}</span>
                <span class="num" data-testid={`fill-line-${i}-quantity`}>
                  {line
                    ? formatQuantity(line.quantity, line.quantity_decimal_digits, num)
                    : f.volume}{' '}
                  l
                </span>
                <span class="num" data-testid={`fill-line-${i}-amount`}>
                  {line?.amount !== undefined ? formatAmount(line.amount, digits, num) : f.amount}
                </span>
                <Button
                  ctx={ctx}
                  testid={`fill-line-${i}-remove`}
                  does={{ type: 'fill-remove', id: f.id }}
                  label="×"
                />
              </li>
            );
          })}
        </ul>
      ) : null}
    </>
  );
}

/** The prepaid pump's grades at their catalogue prices: one press fills the fuel line's form. */
function PrepayGrades({ ctx, pump }: { ctx: Ctx; pump: number }) {
  const { t, state, num } = ctx;
  const grades = gradesOf(state, pump).filter((g) => g.price !== null);
  if (grades.length === 0) return null;
  // a prepay is one fuel line: once it is on the check, there is nothing left to pick
  if (state.sale.draft.lines.length > 0) return null;
  return (
    <div
      class="actions"
      role="group"
      aria-label={t('sale.prepay-grades')}
      data-testid="sale-prepay-grades"
    >
      {grades.map((g, i) => {
        const price = dec(g.price!);
        return (
          <Button
            key={g.code}
            ctx={ctx}
            testid={`sale-prepay-grade-${i}`}
            does={{ type: 'prepay-grade', code: g.code, price: g.price! }}
            label={`${g.title ?? g.code} ${formatDec(price, price.scale, num)}`}
          />
        );
      })}
    </div>
  );
}
