// The screen's language is the cashier's choice in settings: its texts, the numbers and dates
// it writes and the numbers it reads from what the cashier types all follow that choice.
import { describe, expect, it } from 'vitest';
import {
  initialState,
  type Event,
  type FieldName,
  type Form,
  type State,
} from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { page } from '../../renderer/views/page.js';
import { calcCheck, status, TX_ID } from './fixtures.js';
import { byTestId, textOf, tree } from './tree.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);

const typed = (fields: Form): Event[] =>
  (Object.entries(fields) as [FieldName, string][]).map(([name, value]) => ({
    type: 'field',
    name,
    value,
  }));

/** Signed in with a shift open, German chosen in settings, back on the sale screen. */
function sellingInGerman(): State {
  return run(
    initialState(),
    { type: 'status', status: status() },
    { type: 'navigate', screen: 'settings' },
    { type: 'language', value: 'de' },
    { type: 'navigate', screen: 'sale' },
  );
}

/** A sale of one line that a calculation answered, at a POS in `zone`. */
function priced(s: State, zone?: string): State {
  const pos = zone === undefined ? {} : { time_zone: zone };
  return run(
    s,
    ...typed({ 'item-code': 'A1', 'item-price': '27', 'item-quantity': '1' }),
    { type: 'item-add' },
    { type: 'calc-started', seq: 1 },
    { type: 'calc-done', seq: 1, result: { check: calcCheck({ pos }), warnings: [] } },
  );
}

const text = (s: State, testid: string) =>
  textOf(byTestId(tree(page(s, () => undefined)), testid)!);

describe('the language chosen in settings', () => {
  it('shows every text of the page in that language', () => {
    const english = run(initialState(), { type: 'status', status: status() });
    expect(text(english, 'nav-sale')).toContain('Sale');
    expect(text(sellingInGerman(), 'nav-sale')).toContain('Verkauf');
    expect(text(sellingInGerman(), 'sale-pay')).toContain('Bezahlen');
  });

  it('writes amounts with the German decimal comma', () => {
    expect(text(priced(sellingInGerman()), 'totals-to-pay')).toContain('27,00');
  });

  it('writes dates the German way in the POS time zone', () => {
    // the fixture's last contact is 2025-01-10T10:00:00Z: 11:00 in Berlin, 05:00 in New York
    expect(text(priced(sellingInGerman(), 'Europe/Berlin'), 'status-last-contact')).toContain(
      '10.01.2025, 11:00',
    );
    expect(text(priced(sellingInGerman(), 'America/New_York'), 'status-last-contact')).toContain(
      '10.01.2025, 05:00',
    );
  });

  it("writes dates in the till's own zone before any check is priced", () => {
    const s = run(initialState(), {
      type: 'status',
      status: status({ terminal: { ...status().terminal, time_zone: 'Europe/Berlin' } }),
    });
    expect(text(s, 'status-last-contact')).toContain('11:00');
  });

  it('reads a price typed with a decimal comma', () => {
    const s = run(sellingInGerman(), ...typed({ 'item-code': 'A1', 'item-price': '2,50' }), {
      type: 'item-add',
    });
    expect(s.sale.draft.lines[0]?.item.price).toBe(2.5);
  });

  it('refuses a price typed with a point instead of guessing what it means', () => {
    const s = run(sellingInGerman(), ...typed({ 'item-code': 'A1', 'item-price': '2.50' }), {
      type: 'item-add',
    });
    expect(s.sale.draft.lines).toEqual([]);
    expect(s.fieldErrors['item-price']).toBe('validation.number');
  });

  it('offers what is left to pay with a decimal comma', () => {
    let s = run(priced(sellingInGerman()), { type: 'payment-open', transactionId: TX_ID });
    s = run(s, ...typed({ 'tender-type': 'cash', 'tender-amount': '10,10' }), {
      type: 'tender-add',
    });
    expect(s.form['tender-amount']).toBe('16,90');
    expect(text(s, 'payment-tender-0')).toContain('10,10');
  });
});
