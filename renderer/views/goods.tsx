// Goods on the sale screen: the item form (a code, a barcode or words, and Enter; a price
// and a reason only where the POS allows lines by hand), the list a search by words found
// (arrows + Enter, or a tap), the quick keys by category for touch, and the number pad.
import { formatAmount, formatDec } from '../format.js';
import { typedText } from '../money.js';
import { quickCash } from '../slices/keypad/cash.js';
import { cashPart } from '../slices/payment/state.js';
import { amountDigits } from '../slices/sale/state.js';
import { itemKindKey } from '../i18n.js';
import { enterMode, ITEM_KINDS, type ItemKind } from '../slices/sale/state.js';
import type { Good } from '../slices/goods/state.js';
import { PAD_KEYS, type PadKey } from '../slices/keypad/state.js';
import { Button, FieldSelect, Form, Input, Section, type Ctx } from './common.js';

export function ItemPanel({ ctx }: { ctx: Ctx }) {
  const mode = enterMode(ctx.state);
  return (
    <Section title={ctx.t('item.title')} testid="item-panel">
      <ItemForm ctx={ctx} byHand={mode !== 'presets-only'} />
      <SearchResults ctx={ctx} />
    </Section>
  );
}

/**
 * The quick keys and the presets, a panel of their own: the sale screen shows them under the
 * customer, so the item form and the customer's name stay in view at 800x600.
 */
export function GoodsKeys({ ctx }: { ctx: Ctx }) {
  const mode = enterMode(ctx.state);
  if (mode === 'manually-only') return null;
  const none = ctx.state.goods.quickKeys.length === 0 && ctx.state.sale.presets.length === 0;
  if (none && mode !== 'presets-only') return null;
  return (
    <div class="panel goods-keys">
      <QuickKeys ctx={ctx} />
      <PresetButtons ctx={ctx} onlyWay={mode === 'presets-only'} />
    </div>
  );
}

/** Code, barcode or words and a quantity; a price and a reason for a line by hand. */
function ItemForm({ ctx, byHand }: { ctx: Ctx; byHand: boolean }) {
  const { t, state } = ctx;
  const kind = (state.form['item-kind'] || 'goods') as ItemKind;
  return (
    <Form ctx={ctx} submit={{ type: 'item-enter' }} testid="item-form">
      {byHand ? (
        <FieldSelect
          ctx={ctx}
          testid="item-kind"
          field="item-kind"
          label={t('item.kind')}
          options={ITEM_KINDS.map((k) => [k, t(itemKindKey[k])] as const)}
        />
      ) : null}
      <div class="row">
        <Input
          ctx={ctx}
          testid="item-code"
          field="item-code"
          label={t('item.code')}
          placeholder={t('goods.code-hint')}
        />
        {kind === 'fuel-amount' ? (
          <Input
            ctx={ctx}
            testid="item-amount"
            field="item-amount"
            label={t('item.prepay-amount')}
            inputmode="decimal"
          />
        ) : (
          <Input
            ctx={ctx}
            testid="item-quantity"
            field="item-quantity"
            label={kind === 'goods' ? t('item.quantity') : t('item.litres')}
            inputmode="decimal"
          />
        )}
      </div>
      {byHand ? <ByHand ctx={ctx} kind={kind} /> : null}
      <div class="actions">
        <Button ctx={ctx} testid="item-add" submit label={t('item.add')} kind="primary" hint="F3" />
      </div>
    </Form>
  );
}

/** A line by hand: its price (and title), and for goods why it is entered so. */
function ByHand({ ctx, kind }: { ctx: Ctx; kind: ItemKind }) {
  const { t } = ctx;
  return (
    <details class="by-hand" data-testid="item-by-hand" open={kind !== 'goods' || undefined}>
      <summary>{t(kind === 'goods' ? 'goods.by-hand' : 'goods.fuel-price')}</summary>
      <div class="row">
        <Input
          ctx={ctx}
          testid="item-price"
          field="item-price"
          label={kind === 'goods' ? t('item.price') : t('item.price-per-unit')}
          inputmode="decimal"
        />
        <Input ctx={ctx} testid="item-title" field="item-title" label={t('item.title-field')} />
      </div>
      {kind === 'goods' ? (
        <Input ctx={ctx} testid="item-reason" field="item-reason" label={t('goods.reason')} />
      ) : null}
    </details>
  );
}

function goodLabel(ctx: Ctx, g: Good): string {
  const price = g.price === undefined ? '' : ` · ${formatAmount(g.price, 2, ctx.num)}`;
  return `${g.title ?? g.code}${price}${g.unit && g.unit !== 'pc' ? ` / ${g.unit}` : ''}`;
}

/** What a search by words found: ↑ ↓ and Enter, or a tap. */
function SearchResults({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const { results, highlighted, more } = state.goods;
  if (results === null) return null;
  return (
    <div class="goods-results" data-testid="goods-results">
      {results.length === 0 ? (
        <p class="muted" data-testid="goods-results-empty">
          {t('goods.none')}
        </p>
      ) : (
        <ul role="listbox" aria-label={t('goods.results')}>
          {results.map((g, i) => (
            <li
              key={g.code}
              role="option"
              aria-selected={i === highlighted ? 'true' : 'false'}
              class={i === highlighted ? 'highlighted' : undefined}
              data-testid={`goods-result-${i}`}
              onClick={() => ctx.act({ type: 'goods-choose', index: i })}
            >
              <span class="title">{goodLabel(ctx, g)}</span>
              <span class="code">{g.code}</span>
            </li>
          ))}
        </ul>
      )}
      {more ? <p class="muted small">{t('goods.more')}</p> : null}
      <Button
        ctx={ctx}
        testid="goods-results-close"
        does={{ type: 'goods-close' }}
        label={t('goods.close')}
        hint="Esc"
      />
    </div>
  );
}

/** The POS presets, when some are loaded; none: a note when they would be the only way in. */
function PresetButtons({ ctx, onlyWay }: { ctx: Ctx; onlyWay: boolean }) {
  const { t, state, num } = ctx;
  const { presets } = state.sale;
  if (presets.length === 0) {
    return onlyWay && state.goods.quickKeys.length === 0 ? (
      <p class="muted" data-testid="presets-empty">
        {t('item.no-presets')}
      </p>
    ) : null;
  }
  return (
    <div class="presets" data-testid="presets" role="group" aria-label={t('item.presets')}>
      {presets.map((p, i) => (
        <Button
          key={`${i}-${p.code}`}
          ctx={ctx}
          testid={`preset-${i}`}
          does={{ type: 'preset-add', index: i }}
          label={`${p.title ?? p.code}${p.price === undefined ? '' : ` · ${formatAmount(p.price, 2, num)}`}`}
        />
      ))}
    </div>
  );
}

/** The configured quick keys, a page per category: one tap adds the good. */
function QuickKeys({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const pages = state.goods.quickKeys;
  if (pages.length === 0) return null;
  const at = Math.min(state.goods.page, pages.length - 1);
  const page = pages[at]!;
  return (
    <div class="quick-keys" data-testid="quick-keys">
      <div class="quick-pages" role="group" aria-label={t('goods.categories')}>
        {pages.map((p, i) => (
          <Button
            key={p.category}
            ctx={ctx}
            testid={`quick-page-${i}`}
            does={{ type: 'quick-page', index: i }}
            label={p.category}
            pressed={i === at}
          />
        ))}
      </div>
      <div class="quick-grid" role="group" aria-label={page.category}>
        {page.goods.map((g, i) => (
          <Button
            key={g.code}
            ctx={ctx}
            testid={`quick-key-${i}`}
            does={{ type: 'quick-key', page: at, index: i }}
            label={goodLabel(ctx, g)}
          />
        ))}
      </div>
    </div>
  );
}

const PAD_LABEL: Record<PadKey, string> = {
  '0': '0',
  '1': '1',
  '2': '2',
  '3': '3',
  '4': '4',
  '5': '5',
  '6': '6',
  '7': '7',
  '8': '8',
  '9': '9',
  sep: '.',
  back: '⌫',
  clear: 'C',
};

/**
 * The number pad: it types into the field that last had the focus. A press keeps the focus
 * where it is (the pad's buttons never take it), so the cashier sees the field change.
 */
export function Keypad({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  const sep = ctx.num.decimal;
  return (
    <div class="keypad" data-testid="keypad" role="group" aria-label={t('goods.keypad')}>
      {[...PAD_KEYS, 'clear' as const].map((k) => (
        <button
          key={k}
          type="button"
          class={`btn pad-${k}`}
          data-testid={`keypad-${k}`}
          tabIndex={-1}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => ctx.act({ type: 'pad-key', key: k })}
        >
          {k === 'sep' ? sep : PAD_LABEL[k]}
        </button>
      ))}
    </div>
  );
}

/** The cash due and the next sums in notes: one tap fills the cash handed over. */
export function QuickCash({ ctx }: { ctx: Ctx }) {
  const { t, state, num } = ctx;
  const due = cashPart(state);
  const sums = due === null ? [] : quickCash(due);
  if (sums.length === 0) return null;
  const digits = amountDigits(state.sale.calc.check);
  return (
    <div
      class="quick-cash"
      data-testid="quick-cash"
      role="group"
      aria-label={t('payment.quick-cash')}
    >
      {sums.map((d, i) => (
        <Button
          key={i}
          ctx={ctx}
          testid={`quick-cash-${i}`}
          does={{ type: 'field', name: 'cash-given', value: typedText(d, num) }}
          label={
            i === 0
              ? `${t('payment.exact')} ${formatDec(d, digits, num)}`
              : formatDec(d, digits, num)
          }
        />
      ))}
    </div>
  );
}
