// The on-screen number pad: it types into the field that has the focus (quantities, amounts,
// PINs, odometers), so a touch till needs no keyboard. The slice remembers which field that
// is (the inputs report their focus); the pad's keys edit that field's text at its end.
import type { FieldName } from '../../state.js';

export type PadKey =
  '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'sep' | 'back' | 'clear';

export const PAD_KEYS: readonly PadKey[] = [
  '7',
  '8',
  '9',
  '4',
  '5',
  '6',
  '1',
  '2',
  '3',
  'sep',
  '0',
  'back',
];

export interface KeypadState {
  /** The field the pad types into: the last one that had the focus. */
  focused: FieldName | null;
}

export function initialKeypad(): KeypadState {
  return { focused: null };
}

export type KeypadEvent =
  { type: 'field-focused'; name: FieldName } | { type: 'pad-key'; key: PadKey };

/** A field's text after a pad key; `decimal` is the language's separator. */
export function typed(text: string, key: PadKey, decimal: string): string {
  if (key === 'clear') return '';
  if (key === 'back') return text.slice(0, -1);
  if (key === 'sep') return text.includes(decimal) ? text : `${text === '' ? '0' : text}${decimal}`;
  return text + key;
}
