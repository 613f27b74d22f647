// The number pad's reducer: which field has the focus, and a key typed into it (its error
// cleared, as typing on a keyboard clears it).
import { numberStyle } from '../../i18n.js';
import type { Reducer } from '../../state.js';
import { field, withForm } from '../frame/state.js';
import { typed, type KeypadEvent } from './state.js';

export const keypad: Reducer<KeypadEvent> = {
  'field-focused': (state, event) =>
    state.keypad.focused === event.name ? state : { ...state, keypad: { focused: event.name } },
  'pad-key': (state, event) => {
    const name = state.keypad.focused;
    if (name === null) return state;
    const decimal = numberStyle(state.settings.language).decimal;
    const value = typed(field(state, name), event.key, decimal);
    const { [name]: _cleared, ...rest } = state.fieldErrors;
    return { ...withForm(state, { [name]: value }), fieldErrors: rest };
  },
};
