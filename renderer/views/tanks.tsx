// Tanks and wet stock (the forecourt's Tanks button): each tank's latest reading (the gauge's,
// or a dip entered by hand), the gauge read now, a dip for a tank without a gauge, a delivery
// recorded against its delivery note, and the open shift's wet stock per tank and per grade
// (opening + deliveries - sales against the closing reading), printed on request.
import { formatAmount, formatDateTime, NONE } from '../format.js';
import { tankNumbers } from '../slices/tanks/state.js';
import type { TankReading, WetStock, WetStockLine } from '../types.js';
import { Button, FieldSelect, Form, Input, Section, type Ctx } from './common.js';

export function TanksScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const busy = state.busy !== null;
  return (
    <div class="stack screen tanks">
      <Section title={t('tanks.title')} testid="tanks" cls="head">
        <div class="actions">
          <Button
            ctx={ctx}
            testid="tanks-gauge"
            does={{ type: 'tanks-gauge' }}
            label={t('tanks.read-gauge')}
            disabled={busy}
          />
          <Button
            ctx={ctx}
            testid="wetstock-print"
            does={{ type: 'wetstock-print' }}
            label={t('tanks.print')}
            disabled={busy || state.tanks.report === null}
          />
          <Button
            ctx={ctx}
            testid="tanks-back"
            does={{ type: 'forecourt-open' }}
            label={t('tanks.back')}
            hint="Esc"
          />
        </div>
      </Section>
      <div class="body">
        <Readings ctx={ctx} />
        <div class="tank-forms">
          <DipForm ctx={ctx} />
          <DeliveryForm ctx={ctx} />
        </div>
        {state.tanks.report ? <WetStockTable ctx={ctx} report={state.tanks.report} /> : null}
      </div>
    </div>
  );
}

/** Litres at two decimals in the language's style, or NONE. */
const litres = (ctx: Ctx, v: number | null | undefined) => formatAmount(v, 2, ctx.num);

function Readings({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const { readings, loaded } = state.tanks;
  return (
    <Section title={t('tanks.readings')} testid="tank-readings">
      {!loaded ? <p class="muted">{t('tanks.loading')}</p> : null}
      {loaded && readings.length === 0 ? (
        <p class="muted" data-testid="tank-readings-none">
          {t('tanks.none')}
        </p>
      ) : null}
      {readings.length > 0 ? (
        <table class="lines tank-table">
          <thead>
            <tr>
              <th>{t('tanks.tank')}</th>
              <th>{t('tanks.grade')}</th>
              <th class="num">{t('tanks.volume')}</th>
              <th class="num">{t('tanks.water')}</th>
              <th class="num">{t('tanks.temperature')}</th>
              <th class="num">{t('tanks.ullage')}</th>
              <th>{t('tanks.read-at')}</th>
            </tr>
          </thead>
          <tbody>
            {readings.map((r) => (
              <ReadingRow key={r.tank} ctx={ctx} r={r} />
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

function ReadingRow({ ctx, r }: { ctx: Ctx; r: TankReading }) {
  const { t } = ctx;
  const id = `tank-reading-${r.tank}`;
  return (
    <tr data-testid={id}>
      <td>{r.tank}</td>
      <td>{r.goods_code ?? r.product_code ?? NONE}</td>
      <td class="num" data-testid={`${id}-volume`}>
        {litres(ctx, r.volume)}
      </td>
      <td class="num">{litres(ctx, r.water)}</td>
      <td class="num">
        {r.temperature === undefined ? NONE : formatAmount(r.temperature, 1, ctx.num)}
      </td>
      <td class="num">{litres(ctx, r.ullage)}</td>
      <td>{`${formatDateTime(r.read_at, ctx.dates)} · ${t(r.source === 'gauge' ? 'tanks.source-gauge' : 'tanks.source-dip')}`}</td>
    </tr>
  );
}

const tankOptions = (ctx: Ctx) =>
  tankNumbers(ctx.state).map((n) => [String(n), ctx.t('tanks.tank-n', { n })] as const);

function DipForm({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    <Section title={t('tanks.dip')} testid="tank-dip">
      <Form ctx={ctx} submit={{ type: 'tank-dip' }} testid="tank-dip-form">
        <FieldSelect
          ctx={ctx}
          testid="dip-tank"
          field="dip-tank"
          label={t('tanks.tank')}
          options={tankOptions(ctx)}
        />
        <Input
          ctx={ctx}
          testid="dip-volume"
          field="dip-volume"
          label={t('tanks.volume-l')}
          inputmode="decimal"
        />
        <Input
          ctx={ctx}
          testid="dip-water"
          field="dip-water"
          label={t('tanks.water-l')}
          inputmode="decimal"
        />
        <Input
          ctx={ctx}
          testid="dip-temperature"
          field="dip-temperature"
          label={t('tanks.temperature-c')}
          inputmode="decimal"
        />
        <div class="actions">
          <Button
            ctx={ctx}
            testid="dip-submit"
            submit
            label={t('tanks.dip-record')}
            disabled={ctx.state.busy !== null}
          />
        </div>
      </Form>
    </Section>
  );
}

function DeliveryForm({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    <Section title={t('tanks.delivery')} testid="tank-delivery">
      <Form ctx={ctx} submit={{ type: 'tank-delivery' }} testid="tank-delivery-form">
        <FieldSelect
          ctx={ctx}
          testid="delivery-tank"
          field="delivery-tank"
          label={t('tanks.tank')}
          options={tankOptions(ctx)}
        />
        <Input
          ctx={ctx}
          testid="delivery-note"
          field="delivery-note"
          label={t('tanks.note-quantity')}
          inputmode="decimal"
        />
        <Input
          ctx={ctx}
          testid="delivery-before"
          field="delivery-before"
          label={t('tanks.volume-before')}
          inputmode="decimal"
        />
        <Input
          ctx={ctx}
          testid="delivery-after"
          field="delivery-after"
          label={t('tanks.volume-after')}
          inputmode="decimal"
        />
        <p class="muted">{t('tanks.volumes-hint')}</p>
        <div class="actions">
          <Button
            ctx={ctx}
            testid="delivery-submit"
            submit
            label={t('tanks.delivery-record')}
            kind="primary"
            disabled={ctx.state.busy !== null}
          />
        </div>
      </Form>
    </Section>
  );
}

function WetStockTable({ ctx, report }: { ctx: Ctx; report: WetStock }) {
  const { t } = ctx;
  const rows = [
    ...report.tanks.map((l) => ({ l, id: `wetstock-tank-${l.tank ?? 0}` })),
    ...report.grades.map((l, i) => ({ l, id: `wetstock-grade-${i}` })),
  ];
  return (
    <Section title={t('tanks.wetstock')} testid="wetstock">
      <p class="muted" data-testid="wetstock-period">
        {t('tanks.wetstock-period', {
          from: formatDateTime(report.period.from, ctx.dates),
          to: formatDateTime(report.period.to, ctx.dates),
          threshold: formatAmount(report.threshold_percent, 2, ctx.num),
        })}
      </p>
      <table class="lines tank-table">
        <thead>
          <tr>
            <th>{t('tanks.tank-or-grade')}</th>
            <th class="num">{t('tanks.opening')}</th>
            <th class="num">{t('tanks.deliveries')}</th>
            <th class="num">{t('tanks.sales')}</th>
            <th class="num">{t('tanks.book')}</th>
            <th class="num">{t('tanks.closing')}</th>
            <th class="num">{t('tanks.variance')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ l, id }) => (
            <WetStockRow key={id} ctx={ctx} l={l} id={id} />
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function WetStockRow({ ctx, l, id }: { ctx: Ctx; l: WetStockLine; id: string }) {
  const { t } = ctx;
  const name =
    l.tank !== undefined
      ? `${t('tanks.tank-n', { n: l.tank })}${l.goods_code ? ` · ${l.goods_code}` : ''}`
      : (l.goods_code ?? NONE);
  const percent =
    l.variance_percent === null ? '' : ` (${formatAmount(l.variance_percent, 2, ctx.num)} %)`;
  return (
    <tr data-testid={id} class={l.over_threshold ? 'over' : undefined}>
      <td>{name}</td>
      <td class="num">{litres(ctx, l.opening)}</td>
      <td class="num" data-testid={`${id}-deliveries`}>
        {litres(ctx, l.deliveries)}
      </td>
      <td class="num">{litres(ctx, l.sales)}</td>
      <td class="num">{litres(ctx, l.book)}</td>
      <td class="num">{litres(ctx, l.closing)}</td>
      <td class="num" data-testid={`${id}-variance`}>
        {`${litres(ctx, l.variance)}${percent}`}
      </td>
    </tr>
  );
}
