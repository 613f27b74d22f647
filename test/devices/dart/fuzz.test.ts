// The DART parsers never throw on random or damaged bytes, and line noise never hides a frame.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes, parseHex } from '../../../src/devices/bytes.js';
import { DartStream, decodeFrame } from '../../../src/devices/dart/frame.js';
import {
  decodeControllerTransactions,
  decodePumpTransactions,
} from '../../../src/devices/dart/transactions.js';

const RUNS = { numRuns: 400 };
const bytes = fc.uint8Array({ maxLength: 300 });
// Four transactions, a literal 10 and an escaped CRC byte FA (S2's capture).
const block = parseHex(
  '50 3E 02 08 00 00 00 00 00 00 00 00 03 04 00 99 07 07 01 01 05 ' +
    '65 10 01 13 36 38 49 66 13 36 38 49 66 00 00 00 00 00 39 10 FA 03 FA',
) as Uint8Array;

/** Every prefix of the block, and the block with one byte changed. */
const damaged = fc.oneof(
  fc.nat({ max: block.length - 1 }).map((n) => block.slice(0, n)),
  fc.tuple(fc.nat({ max: block.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
    const copy = Uint8Array.from(block);
    copy[i] = (copy[i] ?? 0) ^ x;
    return copy;
  }),
);

describe('DART parsers on random and damaged bytes', () => {
  it('frames, streams and transactions never throw', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, damaged), (b) => {
        decodeFrame(b);
        const s = new DartStream();
        s.push(b);
        s.end();
        decodePumpTransactions(b);
        decodeControllerTransactions(b);
      }),
      RUNS,
    );
  });

  it('never takes a damaged block for a good one', () => {
    fc.assert(
      fc.property(damaged, (b) => {
        expect(decodeFrame(b).ok).toBe(false);
        const events = new DartStream().push(b);
        expect(events.some((e) => e.kind === 'frame' && e.frame.type === 'data')).toBe(false);
      }),
      RUNS,
    );
  });

  it('finds the block after any line noise', () => {
    const want = decodeFrame(block);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (noise) => {
        const events = new DartStream().push(concatBytes([noise, block]));
        expect(events.at(-1)).toEqual({ kind: 'frame', frame: want.ok && want.value });
      }),
      RUNS,
    );
  });
});
