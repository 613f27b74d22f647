// The forecourt's slice (renderer/slices/forecourt): the pumps as `forecourt-state` answered
// them, each `pump-state` event putting its pump and its unpaid fills in place, the simulated
// pumps' input read from the settings' controls.
import { describe, expect, it } from 'vitest';
import { initialState, type Event, type State } from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { simulatorInput } from '../../renderer/slices/forecourt/actions.js';
import { forecourtState, FILL_ID, status } from './fixtures.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
/** The POS sells catalogue goods only (as its catalogue's answer tells the screen). */
const presetsOnly = (s: State) => run(s, { type: 'quick-keys', pages: [], mode: 'presets-only' });
/** Pump 1 prepaid from its Super 95 button (1.759), 20 typed and added. */
const prepaid20 = (s: State) =>
  run(
    s,
    { type: 'prepay-for', pump: 1 },
    { type: 'prepay-grade', code: 'FUEL-95', price: '1.759' },
    { type: 'field', name: 'item-amount', value: '20' },
    { type: 'item-add' },
  );
const loaded = () =>
  run(
    initialState(),
    { type: 'status', status: status() },
    { type: 'forecourt-open' },
    { type: 'forecourt-loaded', forecourt: forecourtState() },
  );

describe('the forecourt on screen', () => {
  it('opens from any signed-in screen, and Esc goes back to the sale', () => {
    const s = loaded();
    expect(s.screen).toBe('forecourt');
    expect(run(s, { type: 'back' }).screen).toBe('sale');
    expect(run(initialState(), { type: 'forecourt-open' }).screen).toBe('sign-in');
  });

  it('puts a pump event’s pump and unpaid fills in place, the other pumps untouched', () => {
    const before = loaded();
    const three = before.forecourt.pumps[2]!;
    const s = run(before, {
      type: 'pump-changed',
      event: { previous: 'finished', pump: { ...three, state: 'idle', unpaid: 0 }, unpaid: [] },
    });
    expect(s.forecourt.pumps.map((p) => p.state)).toEqual([
      'calling',
      'fuelling',
      'idle',
      'stopped',
      'offline',
    ]);
    expect(s.forecourt.unpaid).toEqual([]);
  });

  it('keeps a pump an event changed after the load was asked, when the load lands late', () => {
    const before = loaded();
    const three = before.forecourt.pumps[2]!;
    const later = new Date(Date.parse(three.changed_at) + 1_000).toISOString();
    const idle = { ...three, state: 'idle' as const, unpaid: 0, changed_at: later };
    const s = run(
      before,
      { type: 'pump-changed', event: { previous: 'finished', pump: idle, unpaid: [] } },
      // the answer to a load sent before that event: pump 3 still finished with its fill
      { type: 'forecourt-loaded', forecourt: forecourtState() },
    );
    expect(s.forecourt.pumps[2]).toMatchObject({ state: 'idle' });
    expect(s.forecourt.unpaid.filter((f) => f.pump === 3)).toEqual([]);
  });

  it('keeps a pump an event changed after a command answered, when the answer lands late', () => {
    const before = loaded();
    const two = before.forecourt.pumps[1]!;
    const later = new Date(Date.parse(two.changed_at) + 1_000).toISOString();
    const stopped = { ...two, state: 'stopped' as const, changed_at: later };
    const s = run(
      before,
      // the pump stopped (its event) before the stop command's answer reached the screen
      { type: 'pump-changed', event: { previous: 'fuelling', pump: stopped, unpaid: [] } },
      { type: 'pumps-answered', pumps: [two] },
    );
    expect(s.forecourt.pumps[1]).toMatchObject({ state: 'stopped' });
  });

  it('takes a command answer at least as new as what the screen shows', () => {
    const before = loaded();
    const one = before.forecourt.pumps[0]!;
    const later = new Date(Date.parse(one.changed_at) + 1_000).toISOString();
    const s = run(before, {
      type: 'pumps-answered',
      pumps: [{ ...one, state: 'authorised', changed_at: later }],
    });
    expect(s.forecourt.pumps[0]).toMatchObject({ state: 'authorised' });
  });

  it('follows the litres running on a fuelling pump', () => {
    const before = loaded();
    const two = before.forecourt.pumps[1]!;
    const filling = { volume: '3.25', amount: '5.85', price: '1.799', nozzle: 1 };
    const s = run(before, {
      type: 'pump-changed',
      event: { previous: 'fuelling', pump: { ...two, filling }, unpaid: [] },
    });
    expect(s.forecourt.pumps[1]?.filling?.volume).toBe('3.25');
    expect(s.forecourt.unpaid.map((f) => f.id)).toEqual([FILL_ID]);
  });

  it('fills a prepay’s fuel line from the grade picked: its code and price as the cashier types them', () => {
    const s = run(
      loaded(),
      { type: 'language', value: 'de' },
      { type: 'prepay-for', pump: 1 },
      { type: 'prepay-grade', code: 'FUEL-95', price: '1.759' },
    );
    expect(s.form).toMatchObject({
      'item-kind': 'fuel-amount',
      'item-code': 'FUEL-95',
      'item-price': '1,759',
    });
    expect(s.focus?.testid).toBe('item-amount');
  });

  it('takes a prepay’s fuel at a presets-only till from the grade picked, its price left to the terminal', () => {
    const s = prepaid20(presetsOnly(loaded()));
    expect(s.sale.draft.lines.map((l) => l.item)).toEqual([
      {
        code: 'FUEL-95',
        quantity: 11.37,
        price_decimal_digits: 3,
        quantity_decimal_digits: 3,
        amount: 20,
        quantity_recalculate_type: 'recalculate-by-amount',
      },
    ]);
    // no kind to pick there: the form is back to goods once the fuel line is on the check
    expect(s.form['item-kind']).toBe('goods');
  });

  it('refuses any other typed line at a presets-only till, a fuel not the pump’s included', () => {
    const typed = (code: string) =>
      run(
        presetsOnly(loaded()),
        { type: 'prepay-for', pump: 1 },
        { type: 'prepay-grade', code: 'FUEL-95', price: '1.759' },
        { type: 'field', name: 'item-code', value: code },
        { type: 'field', name: 'item-amount', value: '20' },
        { type: 'item-add' },
      );
    const other = typed('FUEL-98');
    expect(other.sale.draft.lines).toEqual([]);
    expect(other.fieldErrors['item-code']).toBe('validation.presets-only');
    // and goods typed with a price, on a sale that prepays no pump
    const goods = run(
      presetsOnly(loaded()),
      { type: 'field', name: 'item-code', value: 'A1' },
      { type: 'field', name: 'item-price', value: '1' },
      { type: 'item-add' },
    );
    expect(goods.sale.draft.lines).toEqual([]);
    expect(goods.fieldErrors['item-code']).toBe('validation.presets-only');
  });

  it('prices a prepay of 20.00 from the grade picked: 11.370 l at 1.759', () => {
    const s = prepaid20(loaded());
    expect(s.sale.draft.lines.map((l) => l.item)).toEqual([
      {
        code: 'FUEL-95',
        quantity: 11.37,
        price: 1.759,
        price_decimal_digits: 3,
        quantity_decimal_digits: 3,
        amount: 20,
        quantity_recalculate_type: 'recalculate-by-amount',
      },
    ]);
  });

  it('reads a dispense’s litres in the language, and none as up to the preset', () => {
    const s = run(loaded(), { type: 'language', value: 'de' });
    const typed = run(s, { type: 'field', name: 'sim-litres', value: '2,5' });
    expect(simulatorInput(typed, 'dispense')).toEqual({
      input: { pump: 1, action: 'dispense', litres: 2.5 },
    });
    expect(simulatorInput(s, 'dispense')).toEqual({ input: { pump: 1, action: 'dispense' } });
    const wrong = run(s, { type: 'field', name: 'sim-litres', value: 'abc' });
    expect(simulatorInput(wrong, 'dispense')).toEqual({
      errors: { 'sim-litres': 'validation.number' },
    });
  });
});
