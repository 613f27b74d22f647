// Goods from the catalogue, the number pad and quick cash, in Node: the reducers and the
// requests `item-enter` and a scan send (catalog-search), with a till whose `run` answers.
import { describe, expect, it, vi } from 'vitest';
import { perform } from '../../renderer/actions.js';
import { dec, toFixed } from '../../renderer/money.js';
import { reduce } from '../../renderer/reduce.js';
import { calcCheck } from '../../renderer/requests.js';
import { guessedCheck } from '../../renderer/slices/goods/actions.js';
import { quickCash } from '../../renderer/slices/keypad/cash.js';
import type { CatalogOutput, Good } from '../../renderer/slices/goods/state.js';
import { initialState, type Event, type FieldName, type State } from '../../renderer/state.js';
import type { Till } from '../../renderer/till.js';
import { reducingTill } from './fake-till.js';
import { status } from './fixtures.js';

const run = (state: State, ...events: Event[]): State => events.reduce(reduce, state);
const typed = (name: FieldName, value: string): Event => ({ type: 'field', name, value });
const selling = () => run(initialState(), { type: 'status', status: status() });

const good = (over: Partial<Good> = {}): Good => ({
  code: 'WTR-1',
  title: 'Water 0.5 l',
  unit: 'pc',
  price: 1.49,
  whole_number: 0,
  barcodes: ['4260000000011'],
  ...over,
});

const answer = (over: Partial<CatalogOutput> = {}): CatalogOutput => ({
  pos_id: null,
  check_item_enter_mode: 'without-limits',
  match: 'code',
  goods: [good()],
  more: false,
  ...over,
});

/** A till over a real reducer whose `catalog-search` answers `answers` in turn. */
function tillAnswering(state: State, ...answers: CatalogOutput[]) {
  const sent: unknown[] = [];
  const till: Till = reducingTill(state, {
    newId: () => 'id',
    run: vi.fn(async (_name, input, onOk) => {
      sent.push(input);
      const out = onOk(answers.shift() as never);
      for (const e of Array.isArray(out) ? out : out ? [out] : []) till.dispatch(e);
      return true;
    }) as Till['run'],
  });
  return { till, sent };
}

describe('goods from the catalogue', () => {
  it('adds the good a code names as its code and the quantity typed, no price', async () => {
    const s = run(selling(), typed('item-code', 'wtr-1'), typed('item-quantity', '3'));
    const { till, sent } = tillAnswering(s, answer());
    await perform(till, { type: 'item-enter' });
    expect(sent).toEqual([{ query: 'wtr-1', limit: 20 }]);
    expect(till.state.sale.draft.lines.map((l) => l.item)).toEqual([
      { code: 'WTR-1', quantity: 3 },
    ]);
    expect(till.state.form['item-code']).toBe('');
  });

  it('starts the check-calc of a typed code beside its search: the check the line makes', async () => {
    const s = run(selling(), typed('item-code', 'WTR-1'), typed('item-quantity', '3'));
    const order: string[] = [];
    const guesses: unknown[] = [];
    const { till } = tillAnswering(s, answer());
    const spied: Till = Object.assign(Object.create(till) as Till, {
      prefetchCalc: (check: unknown) => void (guesses.push(check), order.push('calc')),
      run: ((...args: Parameters<Till['run']>) => {
        order.push('search');
        return till.run(...args);
      }) as Till['run'],
    });
    await perform(spied, { type: 'item-enter' });
    expect(order).toEqual(['calc', 'search']);
    expect(guesses).toEqual([calcCheck(till.state.sale.draft)]);
  });

  it('drops the guessed check-calc when the text was words', async () => {
    const s = run(selling(), typed('item-code', 'water'));
    const prefetchCalc = vi.fn();
    const { till } = tillAnswering(s, answer({ match: 'words', goods: [good()] }));
    await perform(Object.assign(Object.create(till) as Till, { prefetchCalc }), {
      type: 'item-enter',
    });
    expect(prefetchCalc.mock.calls.at(-1)).toEqual([null]);
  });

  it('guesses no check-calc for a fraction typed, nor on a check with a one-time password', () => {
    expect(guessedCheck(run(selling(), typed('item-quantity', '1.5')), 'WTR-1')).toBeNull();
    const withOtp = selling();
    const draft = {
      ...withOtp.sale.draft,
      identity: { id: '1234', id_type: 'card' as const, cardotppassword: '999' },
    };
    expect(guessedCheck({ ...withOtp, sale: { ...withOtp.sale, draft } }, 'WTR-1')).toBeNull();
    expect(guessedCheck(selling(), 'WTR-1')?.check_items).toEqual([{ code: 'WTR-1', quantity: 1 }]);
  });

  it('asks for a barcode first when the text is one, and sells a weight label as it says', async () => {
    const scanned = {
      barcode: '2100042004566',
      kind: 'in-store-weight' as const,
      quantity: 0.456,
      price: 24.9,
      line: { code: 'CHS-1', quantity: 0.456, barcode: '2100042004566' },
    };
    const s = run(selling(), typed('item-code', '2100042004566'));
    const { till, sent } = tillAnswering(s, answer({ match: 'barcode', scanned }));
    await perform(till, { type: 'item-enter' });
    expect(sent).toEqual([{ barcode: '2100042004566' }]);
    expect(till.state.sale.draft.lines[0]!.item).toEqual(scanned.line);
  });

  it('lists the goods words find, and Enter on the same text adds the highlighted one', async () => {
    const goods = [good(), good({ code: 'COF-1', title: 'Coffee' })];
    const s = run(selling(), typed('item-code', 'o'));
    const { till } = tillAnswering(s, answer({ match: 'words', goods }));
    await perform(till, { type: 'item-enter' });
    expect(till.state.goods.results).toHaveLength(2);
    till.dispatch({ type: 'goods-highlight', delta: 1 });
    await perform(till, { type: 'item-enter' });
    expect(till.state.sale.draft.lines[0]!.item.code).toBe('COF-1');
    expect(till.state.goods.results).toBeNull();
  });

  it('refuses a code nothing in the catalogue has under the code field, adding nothing', async () => {
    const s = run(selling(), typed('item-code', 'NONSENSE-42'));
    const { till } = tillAnswering(s, answer({ match: 'all', goods: [] }));
    await perform(till, { type: 'item-enter' });
    expect(till.state.fieldErrors['item-code']).toBe('goods.unknown-by-hand');
    expect(till.state.sale.draft.lines).toEqual([]);
  });

  it('refuses a fraction of a good sold in whole pieces under the quantity', () => {
    const s = run(selling(), typed('item-quantity', '1.5'), {
      type: 'goods-pick',
      good: good({ code: 'EGG-6', whole_number: 1 }),
      fromForm: true,
    });
    expect(s.fieldErrors['item-quantity']).toBe('validation.whole-number');
    expect(s.sale.draft.lines).toEqual([]);
  });

  it('takes a price typed by hand only with a reason, and sends the reason with the line', async () => {
    const s = run(selling(), typed('item-code', 'MISC'), typed('item-price', '9.99'));
    const without = tillAnswering(s);
    await perform(without.till, { type: 'item-enter' });
    expect(without.till.state.fieldErrors['item-reason']).toBe('validation.reason-required');
    const withReason = tillAnswering(run(s, typed('item-reason', 'shelf price')));
    await perform(withReason.till, { type: 'item-enter' });
    expect(withReason.till.state.sale.draft.lines[0]!.item).toMatchObject({
      code: 'MISC',
      price: 9.99,
      manual_reason: 'shelf price',
    });
  });

  it('keeps two weight labels of one good as two lines', () => {
    const label = (q: number, b: string) => ({
      type: 'goods-scanned' as const,
      scanned: {
        barcode: b,
        kind: 'in-store-weight' as const,
        quantity: q,
        price: 24.9,
        line: { code: 'CHS-1', quantity: q, barcode: b },
      },
    });
    const s = run(selling(), label(0.456, '2100042004566'), label(0.2, '2100042002005'));
    expect(s.sale.draft.lines).toHaveLength(2);
  });

  it('learns how the POS takes lines from its catalogue’s answer: presets-only refuses a typed price', async () => {
    const { till } = tillAnswering(
      selling(),
      answer({ check_item_enter_mode: 'presets-only', quick_keys: [] }),
    );
    await perform(till, { type: 'quick-keys-load' });
    expect(till.state.goods.mode).toBe('presets-only');
    till.dispatch(typed('item-code', 'WTR-1'));
    till.dispatch(typed('item-price', '1'));
    till.dispatch({ type: 'item-add' });
    expect(till.state.sale.draft.lines).toEqual([]);
    expect(till.state.fieldErrors['item-code']).toBe('validation.presets-only');
  });

  it('adds one piece of a quick key’s good', async () => {
    const pages = [{ category: 'Coffee', goods: [good({ code: 'COF-1' })], missing: [] }];
    const s = run(selling(), { type: 'quick-keys', pages, mode: 'without-limits' });
    const { till } = tillAnswering(s);
    await perform(till, { type: 'quick-key', page: 0, index: 0 });
    expect(till.state.sale.draft.lines[0]!.item).toEqual({ code: 'COF-1', quantity: 1 });
  });
});

describe('the number pad', () => {
  it('types into the field that last had the focus, in the language’s separator', () => {
    let s = run(
      selling(),
      { type: 'field-focused', name: 'item-quantity' },
      typed('item-quantity', ''),
    );
    s = run(
      s,
      { type: 'pad-key', key: '2' },
      { type: 'pad-key', key: 'sep' },
      { type: 'pad-key', key: '5' },
    );
    expect(s.form['item-quantity']).toBe('2.5');
    s = run(s, { type: 'pad-key', key: 'back' });
    expect(s.form['item-quantity']).toBe('2.');
    s = run(s, { type: 'pad-key', key: 'clear' });
    expect(s.form['item-quantity']).toBe('');
  });
});

describe('quick cash', () => {
  it('offers the exact amount, then the next sums in notes', () => {
    expect(quickCash(dec('13.60')).map((d) => toFixed(d, 2))).toEqual([
      '13.60',
      '15.00',
      '20.00',
      '50.00',
      '100.00',
    ]);
  });
});
