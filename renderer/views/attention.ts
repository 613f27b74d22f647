// The attention list: what staff must look at (rejected outbox rows, unresolved card
// payments, bonuses owed, quarantined records, clock skew, failed devices). Managers resolve.
import { formatDateTime } from '../format.js';
import { attentionKindKey } from '../i18n.js';
import { hasRole } from '../state.js';
import type { AttentionItem } from '../types.js';
import { h, type VElement } from '../vnode.js';
import { button, checkbox, input, section, type Ctx } from './common.js';

export function attentionScreen(ctx: Ctx): VElement {
  const { t, state } = ctx;
  const busy = state.busy !== null;
  const items = state.attention.items;
  return section(
    t('attention.title'),
    'attention',
    h(
      'div',
      { class: 'actions' },
      button({
        testid: 'attention-refresh',
        action: 'attention-load',
        label: t('common.refresh'),
        disabled: busy,
      }),
      checkbox({
        testid: 'attention-include-resolved',
        action: 'attention-toggle-resolved',
        label: t('attention.include-resolved'),
        checked: state.attention.includeResolved,
      }),
      button({
        testid: 'attention-recover',
        action: 'payment-recover',
        label: t('attention.recover'),
        disabled: busy,
      }),
    ),
    !state.attention.loaded
      ? h('p', { class: 'muted' }, t('common.loading'))
      : items.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'attention-empty' }, t('attention.empty'))
        : h(
            'ul',
            { class: 'cards', 'data-testid': 'attention-items' },
            items.map((it, i) => attentionCard(ctx, it, i)),
          ),
  );
}

function attentionCard(ctx: Ctx, it: AttentionItem, i: number): VElement {
  const { t } = ctx;
  return h(
    'li',
    {
      'data-testid': `attention-item-${i}`,
      'data-key': it.id,
      class: it.resolved_at ? 'resolved' : null,
    },
    h('strong', { 'data-testid': `attention-item-${i}-kind` }, t(attentionKindKey[it.kind])),
    h('span', { class: 'muted small' }, ` ${formatDateTime(it.created_at, ctx.dates)}`),
    h('p', { 'data-testid': `attention-item-${i}-message` }, it.message),
    it.transaction_id
      ? h('p', { class: 'muted small' }, `${t('attention.transaction')} ${it.transaction_id}`)
      : null,
    it.error
      ? h('p', { class: 'muted small' }, h('code', null, it.error.code), ' ', it.error.message)
      : null,
    it.resolved_at
      ? h(
          'p',
          { class: 'muted small', 'data-testid': `attention-item-${i}-resolved` },
          t('attention.resolved-at', {
            at: formatDateTime(it.resolved_at, ctx.dates),
            by: it.resolved_by?.name ?? it.resolved_by?.id ?? '',
          }),
          it.comment ? ` · ${it.comment}` : '',
        )
      : hasRole(ctx.state, 'manager')
        ? resolveRow(ctx, it, i)
        : null,
  );
}

/** A manager's comment and resolve button on an open item. */
function resolveRow(ctx: Ctx, it: AttentionItem, i: number): VElement {
  const { t } = ctx;
  return h(
    'div',
    { class: 'row' },
    input(ctx, {
      testid: `attention-item-${i}-comment`,
      field: `attention-comment-${it.id}`,
      label: t('attention.comment'),
    }),
    button({
      testid: `attention-item-${i}-resolve`,
      action: 'attention-resolve',
      arg: it.id,
      label: t('attention.resolve'),
      kind: 'primary',
      disabled: ctx.state.busy !== null,
    }),
  );
}
