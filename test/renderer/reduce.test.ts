// The reducer's shape: each event type has one handler, in one slice (the compiler proves
// there is one, and one per slice; this proves no second slice has one too, which a later
// slice would silently replace).
import { describe, expect, it } from 'vitest';
import { SLICES } from '../../renderer/reduce.js';

describe('the reducer', () => {
  it('gives every event type exactly one handler across the slices', () => {
    const seen = new Map<string, string[]>();
    for (const [group, handlers] of Object.entries(SLICES)) {
      for (const type of Object.keys(handlers)) seen.set(type, [...(seen.get(type) ?? []), group]);
    }
    const twice = [...seen].filter(([, groups]) => groups.length > 1);
    expect(twice).toEqual([]);
  });
});
