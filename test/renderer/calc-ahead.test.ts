// A check-calc started ahead (a typed code while its search runs) is taken only by the
// calculation of exactly its check, once; anything else discards it.
import { describe, expect, it } from 'vitest';
import { CalcAhead } from '../../renderer/calc-ahead.js';

const check = (code: string) => ({ check_items: [{ code, quantity: 1 }] });

describe('a calculation started ahead', () => {
  it('is the answer of the calculation of the same check, once', async () => {
    const ahead = new CalcAhead<string>();
    ahead.start(check('A'), async () => 'answer A');
    expect(await ahead.take(check('A'))).toBe('answer A');
    expect(ahead.take(check('A'))).toBeNull();
  });

  it('is dropped by the calculation of another check', () => {
    const ahead = new CalcAhead<string>();
    ahead.start(check('A'), async () => 'answer A');
    expect(ahead.take(check('B'))).toBeNull();
    expect(ahead.take(check('A'))).toBeNull();
  });

  it('is dropped on request', () => {
    const ahead = new CalcAhead<string>();
    ahead.start(check('A'), async () => 'answer A');
    ahead.drop();
    expect(ahead.take(check('A'))).toBeNull();
  });
});
