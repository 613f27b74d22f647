// The reducer's shape: each event type has one handler (the compiler proves there is one;
// this proves there is not a second, which a later group would silently replace).
import { describe, expect, it } from 'vitest';
import { HANDLER_GROUPS } from '../../renderer/reduce.js';

describe('the reducer', () => {
  it('gives every event type exactly one handler across its groups', () => {
    const seen = new Map<string, string[]>();
    for (const [group, handlers] of Object.entries(HANDLER_GROUPS)) {
      for (const type of Object.keys(handlers)) seen.set(type, [...(seen.get(type) ?? []), group]);
    }
    const twice = [...seen].filter(([, groups]) => groups.length > 1);
    expect(twice).toEqual([]);
  });
});
