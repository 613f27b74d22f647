// A check-calc started ahead (a typed code while its search runs) is taken only by the
// calculation of exactly its check, once; anything else discards it.
import { describe, expect, it } from 'vitest';
import { CalcAhead } from '../../renderer/calc-ahead.js';

const check = (code: string) => ({ check_items: [{ code, quantity: 1 }] });

describe('a calculation started ahead', () => {
  it('is the answer of the calculation of the same check, once', async () => {
    const ahead = new CalcAhead<string>();
    let answer!: (a: string) => void;
    ahead.start(check('A'), () => new Promise((resolve) => (answer = resolve)));
    const taken = ahead.take(check('A'));
    answer('answer A');
    expect(taken?.ready).toBe(false);
    expect(taken?.ready === false && (await taken.answer)).toBe('answer A');
    expect(ahead.take(check('A'))).toBeNull();
  });

  it('is given as the value itself once it is in, so the taker needs no await', async () => {
    const ahead = new CalcAhead<string>();
    ahead.start(check('A'), async () => 'answer A');
    await Promise.resolve(); // the answer lands
    expect(ahead.take(check('A'))).toEqual({ ready: true, value: 'answer A' });
  });

  it('leaves a failed answer to whoever awaits it', async () => {
    const ahead = new CalcAhead<string>();
    ahead.start(check('A'), () => Promise.reject(new Error('down')));
    await Promise.resolve();
    const taken = ahead.take(check('A'));
    expect(taken?.ready).toBe(false);
    await expect(taken?.ready === false ? taken.answer : null).rejects.toThrow('down');
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
