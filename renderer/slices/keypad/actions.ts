// The number pad's actions: events as they are.
import { send, type Performers } from '../../till.js';
import type { KeypadEvent } from './state.js';

export type KeypadAction = KeypadEvent;

export const keypadActions: Performers<KeypadAction> = {
  'field-focused': send,
  'pad-key': send,
};
