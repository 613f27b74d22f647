// The attention list (what staff must look at) and the last payment recovery's outcome.
import type { AttentionItem, RecoverResult } from '../../types.js';

export interface AttentionState {
  items: AttentionItem[];
  includeResolved: boolean;
  loaded: boolean;
  recover: RecoverResult | null;
}

/** A manager's comment on an open item, by the item's id. */
export type AttentionField = `attention-comment-${string}`;

export function initialAttention(): AttentionState {
  return { items: [], includeResolved: false, loaded: false, recover: null };
}

export type AttentionEvent =
  | { type: 'attention-loaded'; items: AttentionItem[] }
  | { type: 'attention-toggle-resolved' }
  | { type: 'attention-resolved'; item: AttentionItem }
  | { type: 'recovered'; output: RecoverResult };
