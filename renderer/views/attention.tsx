// The attention list: what staff must look at (rejected outbox rows, unresolved card
// payments, bonuses owed, quarantined records, clock skew, failed devices). Managers resolve.
// Each item is keyed by its id: resolving one leaves the others' comments where they are.
import { formatDateTime } from '../format.js';
import { attentionKindKey } from '../i18n.js';
import { hasRole } from '../slices/frame/state.js';
import type { AttentionItem } from '../types.js';
import { Button, Checkbox, Input, Section, type Ctx } from './common.js';

export function AttentionScreen({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const busy = state.busy !== null;
  return (
    // its actions on top, the items scroll below
    <Section title={t('attention.title')} testid="attention" cls="screen">
      <div class="actions head">
        <Button
          ctx={ctx}
          testid="attention-refresh"
          does={{ type: 'attention-load' }}
          label={t('common.refresh')}
          disabled={busy}
        />
        <Checkbox
          ctx={ctx}
          testid="attention-include-resolved"
          does={{ type: 'attention-toggle-resolved' }}
          label={t('attention.include-resolved')}
          checked={state.attention.includeResolved}
        />
        <Button
          ctx={ctx}
          testid="attention-recover"
          does={{ type: 'payment-recover' }}
          label={t('attention.recover')}
          disabled={busy}
        />
      </div>
      <div class="body">
        <AttentionItems ctx={ctx} />
      </div>
    </Section>
  );
}

function AttentionItems({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const items = state.attention.items;
  if (!state.attention.loaded) return <p class="muted">{t('common.loading')}</p>;
  if (items.length === 0) {
    return (
      <p class="muted" data-testid="attention-empty">
        {t('attention.empty')}
      </p>
    );
  }
  return (
    <ul class="cards" data-testid="attention-items">
      {items.map((it, i) => (
        <AttentionCard key={it.id} ctx={ctx} it={it} i={i} />
      ))}
    </ul>
  );
}

function AttentionCard({ ctx, it, i }: { ctx: Ctx; it: AttentionItem; i: number }) {
  const { t } = ctx;
  return (
    <li data-testid={`attention-item-${i}`} class={it.resolved_at ? 'resolved' : undefined}>
      <strong data-testid={`attention-item-${i}-kind`}>{t(attentionKindKey[it.kind])}</strong>
      <span class="muted small">{` ${formatDateTime(it.created_at, ctx.dates)}`}</span>
      <p data-testid={`attention-item-${i}-message`}>{it.message}</p>
      {it.transaction_id ? (
        <p class="muted small">{`${t('attention.transaction')} ${it.transaction_id}`}</p>
      ) : null}
      {it.error ? (
        <p class="muted small">
          <code>{it.error.code}</code> {it.error.message}
        </p>
      ) : null}
      {it.resolved_at ? (
        <p class="muted small" data-testid={`attention-item-${i}-resolved`}>
          {t('attention.resolved-at', {
            at: formatDateTime(it.resolved_at, ctx.dates),
            by: it.resolved_by?.name ?? it.resolved_by?.id ?? '',
          })}
          {it.comment ? ` · ${it.comment}` : ''}
        </p>
      ) : hasRole(ctx.state, 'manager') ? (
        <ResolveRow ctx={ctx} it={it} i={i} />
      ) : null}
    </li>
  );
}

/** A manager's comment and resolve button on an open item. */
function ResolveRow({ ctx, it, i }: { ctx: Ctx; it: AttentionItem; i: number }) {
  const { t } = ctx;
  return (
    <div class="row">
      <Input
        ctx={ctx}
        testid={`attention-item-${i}-comment`}
        field={`attention-comment-${it.id}`}
        label={t('attention.comment')}
      />
      <Button
        ctx={ctx}
        testid={`attention-item-${i}-resolve`}
        does={{ type: 'attention-resolve', id: it.id }}
        label={t('attention.resolve')}
        kind="primary"
        disabled={ctx.state.busy !== null}
      />
    </div>
  );
}
