// The tanks screen's slice (renderer/slices/tanks): opened from the forecourt, Esc back to it;
// a dip and a delivery read from their forms in the cashier's language (litres >= 0, a
// temperature below zero, empty optional fields left out); a delivery recorded says what the
// tank received against the note and clears its form.
import { describe, expect, it } from 'vitest';
import { reduce } from '../../renderer/reduce.js';
import { deliveryInput, dipInput } from '../../renderer/slices/tanks/input.js';
import { tankNumbers } from '../../renderer/slices/tanks/state.js';
import { initialState, type Event, type State } from '../../renderer/state.js';
import { status } from './fixtures.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
const typed = (s: State, fields: Record<string, string>) =>
  run(
    s,
    ...Object.entries(fields).map(([name, value]) => ({ type: 'field', name, value }) as Event),
  );
const open = () =>
  run(initialState(), { type: 'status', status: status() }, { type: 'tanks-open' });

const reading = (tank: number) => ({
  tank,
  source: 'gauge' as const,
  volume: 12345.5,
  read_at: '2026-11-27T08:00:00.000Z',
});

describe('the tanks screen', () => {
  it('opens for a signed-in person, and Esc goes back to the forecourt', () => {
    const s = open();
    expect(s.screen).toBe('tanks');
    expect(run(s, { type: 'back' }).screen).toBe('forecourt');
    expect(run(initialState(), { type: 'tanks-open' }).screen).toBe('sign-in');
  });

  it('offers the tanks read so far, in order, and tank 1 before any reading', () => {
    const s = open();
    expect(tankNumbers(s)).toEqual([1]);
    const read = run(s, { type: 'tanks-read', readings: [reading(3), reading(1)] });
    expect(tankNumbers(read)).toEqual([1, 3]);
    expect(read.tanks.loaded).toBe(true);
  });

  it('reads a dip in German, with a temperature below zero and no water', () => {
    const s = typed(run(open(), { type: 'language', value: 'de' }), {
      'dip-volume': '1.234,5',
      'dip-temperature': '-3,5',
    });
    expect(dipInput(s)).toEqual({ input: { dip: { tank: 1, volume: 1234.5, temperature: -3.5 } } });
  });

  it('refuses a dip without its volume, and negative water, naming each field', () => {
    const s = typed(open(), { 'dip-water': '-1' });
    expect(dipInput(s)).toEqual({
      errors: { 'dip-volume': 'validation.required', 'dip-water': 'validation.not-negative' },
    });
  });

  it('sends a delivery without volumes for the gauge to give them', () => {
    const s = typed(open(), { 'delivery-note': '1000' });
    expect(deliveryInput(s)).toEqual({ input: { tank: 1, note_quantity: 1000 } });
  });

  it('says what a recorded delivery received against its note, and clears the form', () => {
    const s = typed(open(), { 'delivery-note': '1000', 'delivery-before': '12345.5' });
    const done = run(s, {
      type: 'tank-delivered',
      delivery: {
        id: '0190c2a4-0000-7000-8000-000000000001',
        tank: 1,
        source: 'entered',
        volume_before: 12345.5,
        volume_after: 13340.5,
        received: 995,
        note_quantity: 1000,
        difference: -5,
        shift_id: null,
        recorded_at: '2026-11-27T08:00:00.000Z',
      },
    });
    expect(done.message).toMatchObject({
      kind: 'notice',
      key: 'tanks.delivery-done',
      params: { tank: 1, received: '995.00', difference: '-5.00' },
    });
    expect(done.form['delivery-note']).toBe('');
    expect(done.form['delivery-before']).toBe('');
  });

  it('says a delivery read from a gauge against its note at 15 °C, the note’s litres', () => {
    const done = run(open(), {
      type: 'tank-delivered',
      delivery: {
        id: '0190c2a4-0000-7000-8000-000000000002',
        tank: 1,
        source: 'gauge',
        volume_before: 2000,
        volume_after: 7000,
        received: 5000,
        note_quantity: 4980,
        difference: 20,
        received_tc: 4975,
        difference_tc: -5,
        shift_id: null,
        recorded_at: '2026-11-27T08:00:00.000Z',
      },
    });
    expect(done.message).toMatchObject({
      key: 'tanks.delivery-done-tc',
      params: { received: '5,000.00', received_tc: '4,975.00', difference_tc: '-5.00' },
    });
  });
});
