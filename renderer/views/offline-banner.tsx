// Offline must be unmistakable (issue 15, point 7): while the central service cannot be
// reached, a banner across the page says since when, how many sales wait to be sent, and what
// the stand-in limits still let customers spend from bonuses and accounts, and until when.
// Cash sales and earning need no allowance, so the banner says selling goes on.
import { formatAmount, formatDateTime } from '../format.js';
import type { Ctx } from './common.js';

export function OfflineBanner({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const sync = state.status?.sync;
  if (!sync || sync.connection !== 'offline') return null;
  const since = sync.last_contact_at
    ? t('offline.since', { at: formatDateTime(sync.last_contact_at, ctx.dates) })
    : t('offline.never');
  const s = sync.standin;
  return (
    <div class="offline-banner" role="alert" data-testid="offline-banner">
      <strong data-testid="offline-since">{since}</strong>
      <span data-testid="offline-queued">{t('offline.queued-n', { n: sync.outbox_depth })}</span>
      <span data-testid="offline-allowance">
        {s.spending_until === null
          ? t('offline.no-spending')
          : t('offline.left', {
              left: formatAmount(s.terminal_left, 2, ctx.num),
              limit: formatAmount(s.terminal_limit, 2, ctx.num),
              until: formatDateTime(s.spending_until, ctx.dates),
            })}
      </span>
    </div>
  );
}
