// Always on screen: online or offline, the outbox, the age of the cache, the clock, each
// device, and who is signed in. sync.md: the cashier must always see whether sales are
// reaching the central service.
import { formatAge, formatDateTime } from '../format.js';
import { connectionKey, deviceKindKey, deviceStateKey } from '../i18n.js';
import type { Ctx } from './common.js';

export function StatusBar({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const s = state.status;
  const sync = s?.sync ?? null;
  const connection = sync?.connection ?? 'unknown';
  return (
    // a live region (a footer may not take the role `status`, ARIA in HTML)
    <footer class="statusbar" data-testid="status-bar" aria-live="polite">
      <span class={`pill ${connection}`} data-testid="status-connection" data-state={connection}>
        {t(connectionKey[connection])}
      </span>
      <span data-testid="status-outbox" class={sync && sync.outbox_depth > 0 ? 'warn' : undefined}>
        {t('status.outbox-n', { n: sync?.outbox_depth ?? 0 })}
      </span>
      {sync && sync.outbox_rejected > 0 ? (
        <span data-testid="status-rejected" class="error">
          {t('status.rejected-n', { n: sync.outbox_rejected })}
        </span>
      ) : null}
      <span data-testid="status-last-contact">
        {t('status.last-contact-at', { at: formatDateTime(sync?.last_contact_at, ctx.dates) })}
      </span>
      <span data-testid="status-cache-age">
        {t('status.cache-age-n', { age: formatAge(sync?.cache_age_s, ctx.dates.locale) })}
      </span>
      {sync?.clock_skew_warning ? (
        <span data-testid="status-clock-skew" class="warn">
          {t('status.clock-skew', { s: sync.clock_skew_s ?? 0 })}
        </span>
      ) : null}
      {sync?.tls_failure ? (
        <span data-testid="status-tls-failure" class="error" title={sync.tls_failure.message}>
          {t('status.tls-failed', { code: sync.tls_failure.code })}
        </span>
      ) : null}
      {s && s.attention > 0 ? (
        <span data-testid="status-attention" class="warn">
          {t('status.attention-n', { n: s.attention })}
        </span>
      ) : null}
      <span class="devices" data-testid="status-devices">
        {state.devices.map((d) => (
          <span
            key={d.kind}
            class={`pill ${d.state}`}
            data-testid={`status-device-${d.kind}`}
            data-state={d.state}
            title={d.error?.message}
          >
            {`${t(deviceKindKey[d.kind])}: ${t(deviceStateKey[d.state])}`}
          </span>
        ))}
      </span>
      {state.busy ? (
        <span data-testid="status-busy" class="busy">
          {t('status.busy')}
        </span>
      ) : null}
    </footer>
  );
}
