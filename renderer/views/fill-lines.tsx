// The pump's part of the check on the sale screen (docs/forecourt.md, "Selling a fill"): the
// pump this check prepays, and each fill sold on it with the pump's figures as the engine
// answered them (its lines follow the cashier's), each with a way off the check.
import { formatAmount, formatQuantity } from '../format.js';
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
