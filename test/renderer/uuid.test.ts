import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../renderer/uuid.js';

describe('uuidv7', () => {
  const random = [0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6];

  it('has the version 7 and variant bits', () => {
    const id = uuidv7(1_700_000_000_000, random);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the time in milliseconds', () => {
    const id = uuidv7(0x0190c2a4_1234, random);
    expect(id.slice(0, 13)).toBe('0190c2a4-1234');
  });

  it('sorts by time', () => {
    const a = uuidv7(1_000, random);
    const b = uuidv7(2_000, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(a < b).toBe(true);
  });

  it('refuses too few random bytes', () => {
    expect(() => uuidv7(1, [1, 2])).toThrow(RangeError);
  });
});
