import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uuidv7 } from '../../src/sync/ids.js';

describe('transaction ids', () => {
  it('are UUIDv7 (version 7, RFC 9562 variant) that the contract accepts', () => {
    const id = uuidv7(1_700_000_000_000);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it("carry the caller's clock in their first 48 bits, not the machine's", () => {
    expect(uuidv7(0x0190c2a4_1234).replace('-', '').slice(0, 12)).toBe('0190c2a41234');
  });

  it('sort by the time they were made', () => {
    const ids = [3_000, 1_000, 2_000].map((ms) => uuidv7(ms));
    expect([...ids].sort()).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('are the same for the same time and random bytes (tests pin them)', () => {
    const random = new Uint8Array(16).fill(7);
    expect(uuidv7(5, random)).toBe(uuidv7(5, random));
    expect(uuidv7(5)).not.toBe(uuidv7(5));
  });
});
