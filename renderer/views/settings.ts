// Settings: a read-only view of what the terminal reports about itself (the command map has
// no configuration command; secrets never reach the screen) and the UI language, which is
// this screen's own choice.
import { formatAge, formatDateTime, NONE } from '../format.js';
import { connectionKey, deviceKindKey, deviceStateKey, LANGUAGES } from '../i18n.js';
import { h, type VElement } from '../vnode.js';
import { button, row, section, select, type Ctx } from './common.js';

export function settingsScreen(ctx: Ctx): VElement {
  return h('div', { class: 'stack' }, aboutSection(ctx), syncSection(ctx), devicesSection(ctx));
}

/** The language, and who and what this terminal is. */
function aboutSection(ctx: Ctx): VElement {
  const { t } = ctx;
  const s = ctx.state.status;
  return section(
    t('settings.title'),
    'settings',
    select(ctx, {
      testid: 'settings-language',
      field: 'language',
      label: t('settings.language'),
      options: LANGUAGES.map((l) => [l.code, l.name] as const),
    }),
    h(
      'dl',
      { class: 'facts' },
      row(t('settings.app'), s ? `${s.app.name} ${s.app.version}` : NONE, 'settings-app'),
      row(
        t('settings.terminal'),
        s ? `${s.terminal.name ?? ''} ${s.terminal.id}`.trim() : NONE,
        'settings-terminal',
      ),
      row(
        t('settings.staff'),
        s?.staff ? `${s.staff.name ?? s.staff.id} (${s.staff.roles.join(', ')})` : NONE,
        'settings-staff',
      ),
      row(
        t('settings.ready'),
        s ? t(s.ready ? 'common.yes' : 'common.no') : NONE,
        'settings-ready',
      ),
    ),
  );
}

function syncSection(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const sync = state.status?.sync ?? null;
  return section(
    t('settings.sync'),
    'settings-sync',
    h(
      'dl',
      { class: 'facts' },
      row(
        t('status.connection'),
        sync ? t(connectionKey[sync.connection]) : NONE,
        'settings-connection',
      ),
      row(t('status.outbox'), sync ? String(sync.outbox_depth) : NONE, 'settings-outbox'),
      row(t('status.rejected'), sync ? String(sync.outbox_rejected) : NONE, 'settings-rejected'),
      row(
        t('status.last-contact'),
        formatDateTime(sync?.last_contact_at, ctx.dates),
        'settings-last-contact',
      ),
      row(
        t('settings.last-pull'),
        formatDateTime(sync?.last_pull_at, ctx.dates),
        'settings-last-pull',
      ),
      row(t('status.cache-age'), formatAge(sync?.cache_age_s), 'settings-cache-age'),
      row(
        t('settings.clock-skew'),
        sync?.clock_skew_s === null || sync?.clock_skew_s === undefined
          ? NONE
          : `${sync.clock_skew_s} s`,
        'settings-clock-skew',
        sync?.clock_skew_warning ? 'warn' : null,
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'settings-sync-now',
        action: 'sync-now',
        label: t('sync.now'),
        disabled: state.busy !== null,
        hint: 'F9',
      }),
    ),
  );
}

function devicesSection(ctx: Ctx): VElement {
  const { t, state } = ctx;
  return section(
    t('settings.devices'),
    'settings-devices',
    state.devices.length === 0
      ? h('p', { class: 'muted' }, t('settings.no-devices'))
      : h(
          'dl',
          { class: 'facts' },
          state.devices.map((d) =>
            row(
              t(deviceKindKey[d.kind]),
              `${t(deviceStateKey[d.state])} · ${d.protocol} · ${d.simulated ? t('settings.simulated') : (d.address ?? d.transport)}${d.error ? ` · ${d.error.message}` : ''}`,
              `settings-device-${d.kind}`,
              d.state === 'failed' || d.state === 'disconnected' ? 'warn' : null,
            ),
          ),
        ),
  );
}
