// The bounds of docs/contract.md, "Bounds", on the schemas themselves.
import { describe, expect, it } from 'vitest';
import { looseShared, strictShared } from '../../src/contract/shared.js';
import { EngineCheck } from '../../src/contract/engine.js';
import { BOUNDS, FreeFormObject, jsonShape } from '../../src/contract/wire.js';

const pathsOf = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
  r.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('bounds of a check request', () => {
  it('accepts money of exactly 1e9 and refuses one unit more', () => {
    expect(strictShared.Check.safeParse({ amount: 1e9 }).success).toBe(true);
    expect(pathsOf(strictShared.Check.safeParse({ amount: 1e9 + 0.01 }))).toEqual(['amount']);
  });

  it('accepts 8 decimal digits and refuses 9', () => {
    const line = (price: number) => ({ check_items: [{ code: 'A', quantity: 1, price }] });
    expect(strictShared.Check.safeParse(line(0.12345678)).success).toBe(true);
    expect(pathsOf(strictShared.Check.safeParse(line(0.123456789)))).toEqual([
      'check_items.0.price',
    ]);
  });

  it('holds the inbound variant to the same bounds', () => {
    expect(pathsOf(looseShared.Check.safeParse({ amount: 1e308 }))).toEqual(['amount']);
  });

  it('allows a code of 128 characters and line breaks in a comment, not in a title', () => {
    const r = strictShared.Check.safeParse({
      comment: 'first line\nsecond\tline',
      check_items: [{ code: 'C'.repeat(BOUNDS.code), quantity: 1, title: 'two\nlines' }],
    });
    expect(pathsOf(r)).toEqual(['check_items.0.title']);
  });
});

describe('bounds of an answer', () => {
  it('takes figures a generous rule computed beyond 1e9, within what the terminal computes exactly', () => {
    const answer = {
      amount: 5e8,
      bonuses_added_amount: 5e12,
      check_items: [{ code: 'A', quantity: 1, bonuses_added: 5e12 }],
    };
    expect(looseShared.CheckResponse.safeParse(answer).success).toBe(true);
    expect(pathsOf(looseShared.CheckResponse.safeParse({ amount: 1e16 }))).toEqual(['amount']);
  });
});

describe('free-form objects', () => {
  const nested = (depth: number) => {
    let v: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it('accepts 8 levels and refuses 9', () => {
    expect(FreeFormObject.safeParse(nested(7)).success).toBe(true);
    expect(FreeFormObject.safeParse(nested(8)).success).toBe(false);
  });

  it('refuses more than 1000 values', () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    expect(FreeFormObject.safeParse(wide).success).toBe(false);
  });

  it('measures a value 100,000 levels deep without walking it all', () => {
    expect(jsonShape(nested(100_000)).depth).toBe(BOUNDS.depth + 1);
  });
});

describe('engine fixtures', () => {
  it('keep exact numbers of any size: the engine is exact beyond the till bounds', () => {
    expect(
      EngineCheck.safeParse({ check_items: [{ code: 'A', quantity: 1, amount: 1e17 }] }).success,
    ).toBe(true);
  });
});
