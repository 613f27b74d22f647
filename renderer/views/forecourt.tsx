// The forecourt (F10, or the sale screen's Forecourt button): one tile per pump, live from the
// `pump-state` events: its state in words, the litres and amount running while it fuels, its
// unpaid fills (each with Sell), and what may be done there (release, prepay here, stop,
// resume); Stop all above them. Simulated pumps are worked from the settings screen.
import { formatDec, NONE } from '../format.js';
import { pumpStateKey } from '../i18n.js';
import { dec } from '../money.js';
import { fillsOf, releasable, resumable, stoppable } from '../slices/forecourt/state.js';
import type { FillView, PumpView } from '../types.js';
import { Button, Section, type Ctx } from './common.js';

export function ForecourtScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const f = state.forecourt;
  return (
    <Section title={t('forecourt.title')} testid="forecourt">
      <div class="actions">
        <Button
          ctx={ctx}
          testid="forecourt-stop-all"
          does={{ type: 'pump-stop', pump: null }}
          label={t('forecourt.stop-all')}
          kind="danger"
          disabled={f.pumps.length === 0}
        />
        <Button
          ctx={ctx}
          testid="forecourt-tanks"
          does={{ type: 'tanks-open' }}
          label={t('forecourt.tanks')}
        />
        <Button
          ctx={ctx}
          testid="forecourt-back"
          does={{ type: 'nav', screen: 'sale' }}
          label={t('forecourt.back')}
          hint="Esc"
        />
      </div>
      {f.prepay ? (
        <p class="notice" data-testid="forecourt-prepay">
          {t('forecourt.prepay-waiting')}
        </p>
      ) : null}
      {!f.loaded ? (
        <p class="muted" data-testid="forecourt-loading">
          {t('forecourt.loading')}
        </p>
      ) : f.pumps.length === 0 ? (
        <p class="muted" data-testid="forecourt-empty">
          {t('forecourt.no-pumps')}
        </p>
      ) : (
        <ul class="pumps" data-testid="pumps">
          {f.pumps.map((p) => (
            <PumpTile key={p.pump} ctx={ctx} p={p} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** A volume or an amount as the pump sent it (exact decimal text), in the language's style. */
function figure(text: string | undefined, num: Ctx['num']): string {
  return text === undefined ? NONE : formatDec(dec(text), 2, num);
}

function PumpTile({ ctx, p }: { ctx: Ctx; p: PumpView }) {
  const { t, num } = ctx;
  const id = `pump-${p.pump}`;
  const fills = fillsOf(ctx.state, p.pump);
  const showFilling = p.filling !== null && p.state !== 'idle' && p.state !== 'calling';
  return (
    <li
      class={`pump-tile state-${p.state}`}
      data-testid={id}
      data-state={p.state}
      data-unpaid={p.unpaid}
    >
      <h3>{t('forecourt.pump', { n: p.pump })}</h3>
      <p class="pump-state" data-testid={`${id}-state`}>
        {t(pumpStateKey[p.state])}
        {p.nozzle !== null ? ` · ${t('forecourt.nozzle', { n: p.nozzle })}` : ''}
      </p>
      {showFilling ? (
        <p class="pump-figures">
          <span data-testid={`${id}-volume`}>{`${figure(p.filling?.volume, num)} l`}</span>
          {' · '}
          <span data-testid={`${id}-amount`}>{figure(p.filling?.amount, num)}</span>
        </p>
      ) : null}
      {p.unpaid > 0 ? (
        <p class="pump-unpaid" data-testid={`${id}-unpaid`}>
          {t('forecourt.unpaid', { count: p.unpaid })}
        </p>
      ) : null}
      {fills.length > 0 ? (
        <ul class="fills">
          {fills.map((f, i) => (
            <FillRow key={f.id} ctx={ctx} f={f} testid={`${id}-fill-${i}`} />
          ))}
        </ul>
      ) : null}
      <PumpActions ctx={ctx} p={p} />
    </li>
  );
}

function FillRow({ ctx, f, testid }: { ctx: Ctx; f: FillView; testid: string }) {
  const { t, num } = ctx;
  return (
    <li data-testid={testid}>
      <span>{`${f.grade} · ${figure(f.volume, num)} l · ${figure(f.amount, num)}`}</span>
      <Button
        ctx={ctx}
        testid={`${testid}-sell`}
        does={{ type: 'fill-sell', fillId: f.id }}
        label={t('forecourt.sell')}
        kind="primary"
        disabled={ctx.state.busy !== null}
      />
      {f.authorisation_id === null ? (
        <Button
          ctx={ctx}
          testid={`${testid}-drive-off`}
          does={{ type: 'fill-drive-off', fillId: f.id }}
          label={t('forecourt.drive-off')}
          kind="danger"
          disabled={ctx.state.busy !== null}
        />
      ) : null}
    </li>
  );
}

function PumpActions({ ctx, p }: { ctx: Ctx; p: PumpView }) {
  const { t, state } = ctx;
  const id = `pump-${p.pump}`;
  const busy = state.busy !== null;
  const open = releasable(p) && Boolean(state.status?.shift);
  return (
    <div class="actions">
      {open ? (
        <Button
          ctx={ctx}
          testid={`${id}-release`}
          does={{ type: 'pump-release', pump: p.pump }}
          label={t('forecourt.release')}
          kind={p.state === 'calling' ? 'primary' : 'plain'}
          disabled={busy}
        />
      ) : null}
      {open && !state.forecourt.prepay ? (
        <Button
          ctx={ctx}
          testid={`${id}-prepay-sale`}
          does={{ type: 'prepay-for', pump: p.pump }}
          label={t('forecourt.prepay')}
          disabled={busy}
        />
      ) : null}
      {open && state.forecourt.prepay ? (
        <Button
          ctx={ctx}
          testid={`${id}-prepay`}
          does={{ type: 'pump-prepay', pump: p.pump }}
          label={t('forecourt.prepay-here')}
          disabled={busy}
        />
      ) : null}
      {stoppable(p) ? (
        <Button
          ctx={ctx}
          testid={`${id}-stop`}
          does={{ type: 'pump-stop', pump: p.pump }}
          label={t('forecourt.stop')}
          kind="danger"
        />
      ) : null}
      {resumable(p) ? (
        <Button
          ctx={ctx}
          testid={`${id}-resume`}
          does={{ type: 'pump-resume', pump: p.pump }}
          label={t('forecourt.resume')}
          disabled={busy}
        />
      ) : null}
    </div>
  );
}
