// Tanks and wet stock (the forecourt's Tanks button): each tank's latest reading (the gauge's,
// or a dip entered by hand), the gauge read now, a dip for a tank without a gauge, a delivery
// recorded against its delivery note, and the open shift's wet stock per tank and per grade
// (opening + deliveries - sales against the closing reading), printed on request.
import { formatAmount, formatDateTime, NONE } from '../format.js';
import type { MessageKey } from '../i18n.js';
import { tankNumbers, type TanksField } from '../slices/tanks/state.js';
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
          <TankForm ctx={ctx} shape={DIP} />
          <TankForm ctx={ctx} shape={DELIVERY} />
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

/** A tank's form: the tank, then its figures in litres or degrees, and its button. */
interface TankFormShape {
  section: 'tank-dip' | 'tank-delivery';
  title: MessageKey;
  tankField: 'dip-tank' | 'delivery-tank';
  figures: readonly (readonly [TanksField, MessageKey])[];
  hint?: MessageKey;
  submit: { testid: string; label: MessageKey; primary?: boolean };
}

const DIP: TankFormShape = {
  section: 'tank-dip',
  title: 'tanks.dip',
  tankField: 'dip-tank',
  figures: [
    ['dip-volume', 'tanks.volume-l'],
    ['dip-water', 'tanks.water-l'],
    ['dip-temperature', 'tanks.temperature-c'],
  ],
  submit: { testid: 'dip-submit', label: 'tanks.dip-record' },
};

const DELIVERY: TankFormShape = {
  section: 'tank-delivery',
  title: 'tanks.delivery',
  tankField: 'delivery-tank',
  figures: [
    ['delivery-note', 'tanks.note-quantity'],
    ['delivery-before', 'tanks.volume-before'],
    ['delivery-after', 'tanks.volume-after'],
  ],
  hint: 'tanks.volumes-hint',
  submit: { testid: 'delivery-submit', label: 'tanks.delivery-record', primary: true },
};

function TankForm({ ctx, shape }: { ctx: Ctx; shape: TankFormShape }) {
  const { t } = ctx;
  return (
    <Section title={t(shape.title)} testid={shape.section}>
      <Form ctx={ctx} submit={{ type: shape.section }} testid={`${shape.section}-form`}>
        <FieldSelect
          ctx={ctx}
          testid={shape.tankField}
          field={shape.tankField}
          label={t('tanks.tank')}
          options={tankOptions(ctx)}
        />
        {shape.figures.map(([field, label]) => (
          <Input
            key={field}
            ctx={ctx}
            testid={field}
            field={field}
            label={t(label)}
            inputmode="decimal"
          />
        ))}
        {shape.hint ? <p class="muted">{t(shape.hint)}</p> : null}
        <div class="actions">
          <Button
            ctx={ctx}
            testid={shape.submit.testid}
            submit
            label={t(shape.submit.label)}
            {...(shape.submit.primary ? { kind: 'primary' as const } : {})}
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
