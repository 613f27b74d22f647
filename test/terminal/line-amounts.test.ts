// The till's check that a line's given amount is its price x quantity (src/terminal/line-amounts.ts)
// computes that figure as the engine does (engine.md 17.1): on the price exactly as sent.
import { describe, expect, it } from 'vitest';
import type { EngineCheck, EngineCheckResult } from '../../src/contract/engine.js';
import { amountDisagrees } from '../../src/terminal/line-amounts.js';

const fuel = { code: 'F95', quantity: 28.43, price: 1.759 };
const sent = (amount: number): EngineCheck => ({ check_items: [{ ...fuel, amount }] });
const computed = { amount_decimal_digits: 2, check_items: [fuel] } as unknown as EngineCheckResult;

describe('a line amount the caller sends', () => {
  it('stands when it is the price as sent x quantity, rounded once (1.759 x 28.43 = 50.01)', () => {
    expect(amountDisagrees(sent(50.01), computed)).toBeNull();
  });

  it('is refused when it is the price rounded to price digits first (1.76 x 28.43 = 50.04)', () => {
    expect(amountDisagrees(sent(50.04), computed)).toMatchObject({
      code: 'invalid-input',
      path: 'check.check_items[0].amount',
      details: { expected: 50.01 },
    });
  });
});
