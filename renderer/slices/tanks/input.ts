// The inputs of the tanks screen's two forms: a dip entered by hand (`tank-readings` with
// `dip`) and a delivery (`tank-delivery`). Litres are >= 0; a temperature may be below zero;
// an empty optional field is left out (a delivery without volumes: the gauge gives them).
import { numberStyle, type MessageKey } from '../../i18n.js';
import { cmp, parseTyped, toNumber, ZERO } from '../../money.js';
import type { Built } from '../../requests.js';
import type { State } from '../../state.js';
import type { CommandInput } from '../../types.js';
import { field, type Errors } from '../frame/state.js';
import type { TanksField } from './state.js';

type Read = { value: number | undefined } | { error: MessageKey };

/** A number typed in `name`, in the language's style; empty is `undefined` unless required. */
function typed(state: State, name: TanksField, o: { required?: boolean; signed?: boolean }): Read {
  const text = field(state, name);
  if (text.trim() === '')
    return o.required ? { error: 'validation.required' } : { value: undefined };
  const d = parseTyped(text, numberStyle(state.settings.language));
  if (d === null) return { error: 'validation.number' };
  if (!o.signed && cmp(d, ZERO) < 0) return { error: 'validation.not-negative' };
  return { value: toNumber(d) };
}

/** The values read, or every field's error. */
function readAll<K extends string>(
  state: State,
  fields: Record<K, [TanksField, { required?: boolean; signed?: boolean }]>,
): { values: Record<K, number | undefined> } | { errors: Errors } {
  const values = {} as Record<K, number | undefined>;
  const errors: Errors = {};
  for (const [key, [name, o]] of Object.entries(fields) as [K, [TanksField, object]][]) {
    const r = typed(state, name, o);
    if ('error' in r) errors[name] = r.error;
    else values[key] = r.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { values };
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function dipInput(state: State): Built<CommandInput<'tank-readings'>> {
  const read = readAll(state, {
    volume: ['dip-volume', { required: true }],
    water: ['dip-water', {}],
    temperature: ['dip-temperature', { signed: true }],
  });
  if ('errors' in read) return read;
  const { volume, water, temperature } = read.values;
  const tank = Number(field(state, 'dip-tank'));
  return { input: { dip: defined({ tank, volume: volume!, water, temperature }) } };
}

export function deliveryInput(state: State): Built<CommandInput<'tank-delivery'>> {
  const read = readAll(state, {
    note: ['delivery-note', { required: true }],
    before: ['delivery-before', {}],
    after: ['delivery-after', {}],
  });
  if ('errors' in read) return read;
  const { note, before, after } = read.values;
  const tank = Number(field(state, 'delivery-tank'));
  return {
    input: defined({ tank, note_quantity: note!, volume_before: before, volume_after: after }),
  };
}
