// Settings: a read-only view of what the terminal reports about itself (the command map has
// no configuration command; secrets never reach the screen) and the UI language, which is
// this screen's own choice.
import { formatAge, formatDateTime, NONE } from '../format.js';
import { connectionKey, deviceKindKey, deviceStateKey, LANGUAGES } from '../i18n.js';
import { Button, Row, Section, Select, type Ctx } from './common.js';
import { SimulatedPumps } from './simulated-pumps.js';

export function SettingsScreen({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  return (
    // the sections scroll; Sync now stays in the bar
    <div class="stack screen">
      <div class="body settings-body">
        <AboutSection ctx={ctx} />
        <SyncSection ctx={ctx} />
        <DevicesSection ctx={ctx} />
        <SimulatedPumps ctx={ctx} />
      </div>
      <div class="actions bar">
        <Button
          ctx={ctx}
          testid="settings-sync-now"
          does={{ type: 'sync-now' }}
          label={t('sync.now')}
          disabled={ctx.state.busy !== null}
          hint="F9"
        />
      </div>
    </div>
  );
}

/** The language, and who and what this terminal is. */
function AboutSection({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  const s = ctx.state.status;
  return (
    <Section title={t('settings.title')} testid="settings">
      <Select
        ctx={ctx}
        testid="settings-language"
        label={t('settings.language')}
        options={LANGUAGES.map((l) => [l.code, l.name] as const)}
        value={ctx.state.settings.language}
        onPick={(value) => ({ type: 'language', value })}
      />
      <dl class="facts">
        <Row
          label={t('settings.app')}
          value={s ? `${s.app.name} ${s.app.version}` : NONE}
          testid="settings-app"
        />
        <Row
          label={t('settings.terminal')}
          value={s ? `${s.terminal.name ?? ''} ${s.terminal.id}`.trim() : NONE}
          testid="settings-terminal"
        />
        <Row
          label={t('settings.staff')}
          value={s?.staff ? `${s.staff.name ?? s.staff.id} (${s.staff.roles.join(', ')})` : NONE}
          testid="settings-staff"
        />
        <Row
          label={t('settings.ready')}
          value={s ? t(s.ready ? 'common.yes' : 'common.no') : NONE}
          testid="settings-ready"
        />
      </dl>
    </Section>
  );
}

function SyncSection({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const sync = state.status?.sync ?? null;
  const skew = sync?.clock_skew_s;
  return (
    <Section title={t('settings.sync')} testid="settings-sync">
      <dl class="facts">
        <Row
          label={t('status.connection')}
          value={sync ? t(connectionKey[sync.connection]) : NONE}
          testid="settings-connection"
        />
        <Row
          label={t('status.outbox')}
          value={sync ? String(sync.outbox_depth) : NONE}
          testid="settings-outbox"
        />
        <Row
          label={t('status.rejected')}
          value={sync ? String(sync.outbox_rejected) : NONE}
          testid="settings-rejected"
        />
        <Row
          label={t('status.last-contact')}
          value={formatDateTime(sync?.last_contact_at, ctx.dates)}
          testid="settings-last-contact"
        />
        <Row
          label={t('settings.last-pull')}
          value={formatDateTime(sync?.last_pull_at, ctx.dates)}
          testid="settings-last-pull"
        />
        <Row
          label={t('status.cache-age')}
          value={formatAge(sync?.cache_age_s, ctx.dates.locale)}
          testid="settings-cache-age"
        />
        <Row
          label={t('settings.clock-skew')}
          value={skew === null || skew === undefined ? NONE : `${skew} s`}
          testid="settings-clock-skew"
          cls={sync?.clock_skew_warning ? 'warn' : null}
        />
      </dl>
    </Section>
  );
}

function DevicesSection({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  return (
    <Section title={t('settings.devices')} testid="settings-devices">
      {state.devices.length === 0 ? (
        <p class="muted">{t('settings.no-devices')}</p>
      ) : (
        <dl class="facts">
          {state.devices.map((d) => (
            <Row
              key={d.kind}
              label={t(deviceKindKey[d.kind])}
              value={`${t(deviceStateKey[d.state])} · ${d.protocol} · ${d.simulated ? t('settings.simulated') : (d.address ?? d.transport)}${d.error ? ` · ${d.error.message}` : ''}`}
              testid={`settings-device-${d.kind}`}
              cls={d.state === 'failed' || d.state === 'disconnected' ? 'warn' : null}
            />
          ))}
        </dl>
      )}
    </Section>
  );
}
