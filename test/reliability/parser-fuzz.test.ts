// The serial frame parsers on random and truncated bytes (issue 8). test/devices/fuzz.test.ts
// already feeds every parser random bytes, prefixes and flipped bytes of valid frames; this
// adds what it leaves out: that a stream reader gives the same frames however the line splits
// the bytes (a serial port delivers any chunking), that long noise neither throws nor hangs,
// and the track, APDU-head and hex readers called directly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHex } from '../../src/devices/bytes.js';
import { ConcertStream, encodeMessage } from '../../src/devices/concert/frame.js';
import { LineFramer } from '../../src/devices/line-framer.js';
import { parseTrack1, parseTrack2 } from '../../src/devices/msr.js';
import { encodeAnswer, TlsStream } from '../../src/devices/tls/frame.js';
import { encodeInventory } from '../../src/devices/tls/i201.js';
import { demoTanks } from '../../src/devices/tls/simulator.js';
import { ApduStream, readApdu } from '../../src/devices/zvt/apdu.js';
import { encodeFrame, FrameStream } from '../../src/devices/zvt/frame.js';
import { authorisation } from '../../src/devices/zvt/messages.js';

const SCALE = Math.max(1, Number(process.env.FUZZ_RUNS ?? 10_000) / 10_000);
const RUNS = { numRuns: Math.round(300 * SCALE) };

interface Reader {
  push(chunk: Uint8Array): unknown[];
}

const READERS: Record<string, () => Reader> = {
  'ZVT frames': () => new FrameStream(),
  'ZVT APDUs (TCP)': () => new ApduStream(),
  'TLS answers': () => new TlsStream(),
  'Concert messages': () => new ConcertStream(),
  'lines stx-etx': () => new LineFramer('stx-etx'),
  'lines cr': () => new LineFramer('cr'),
  'lines lf': () => new LineFramer('lf'),
  'lines crlf': () => new LineFramer('crlf'),
};

const VALID = [
  encodeFrame(authorisation(11_000)),
  encodeAnswer(
    encodeInventory({ tank_selector: '00', gauge_time: '2501011200', tanks: demoTanks() }),
  ),
  encodeMessage('0100001234110978REF0000001A010B010'),
  Uint8Array.from([0x02, 0x3b, 0x31, 0x32, 0x3f, 0x0d, 0x03]),
  Uint8Array.from([0x41, 0x42, 0x0d, 0x0a]),
];

/** Noise and valid frames interleaved: what a line with interference carries. */
const line = fc
  .array(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(...VALID)), { maxLength: 12 })
  .map((parts) => Uint8Array.from(parts.flatMap((p) => Array.from(p))));

/** Cut points splitting `bytes` into chunks. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 });

function split(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.slice(from, p));
    from = p;
  }
  out.push(bytes.slice(from));
  return out;
}

/** Events with their bytes as plain arrays, so two runs compare by value. */
const plain = (events: unknown[]) =>
  JSON.parse(
    JSON.stringify(events, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v)),
  ) as unknown;

describe('stream readers on a line that splits anywhere', () => {
  for (const [name, make] of Object.entries(READERS)) {
    it(`${name}: the same frames whatever the chunking`, () => {
      fc.assert(
        fc.property(line, cuts, (bytes, at) => {
          const whole = make().push(bytes);
          const reader = make();
          const chunked = split(bytes, at).flatMap((c) => reader.push(c));
          expect(plain(chunked)).toEqual(plain(whole));
        }),
        RUNS,
      );
    });
  }

  it('every reader takes 256 KiB of noise without throwing or stalling', () => {
    const noise = fc.uint8Array({ minLength: 256 * 1024, maxLength: 256 * 1024 });
    fc.assert(
      fc.property(noise, (bytes) => {
        for (const make of Object.values(READERS)) {
          const reader = make();
          for (let at = 0; at < bytes.length; at += 4096)
            reader.push(bytes.subarray(at, at + 4096));
        }
      }),
      { numRuns: 3 },
    );
  }, 60_000);
});

describe('the readers the device fuzz does not call directly', () => {
  it('readApdu never throws and never claims more bytes than it was given', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (b) => {
        const r = readApdu(b);
        if (r) expect(r.used).toBeLessThanOrEqual(b.length);
      }),
      RUNS,
    );
  });

  it('track 1 and track 2 readers never throw on any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 120 })),
        (s) => {
          for (const t of [s, `%B${s}`, `;${s}?`, `${s}^${s}^${s}`, `${s}=${s}`]) {
            parseTrack1(t);
            parseTrack2(t);
          }
        },
      ),
      RUNS,
    );
  });

  it('parseHex answers bytes or null for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = parseHex(s);
        expect(r === null || r instanceof Uint8Array).toBe(true);
      }),
      RUNS,
    );
  });
});
