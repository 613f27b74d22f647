// Parsers never throw on random or truncated bytes, and always return within the test's time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latin1 } from '../../src/devices/bytes.js';
import {
  ConcertStream,
  decodeMessage,
  encodeMessage,
  parseAnswer,
  parseRequest,
} from '../../src/devices/concert/frame.js';
import { decodeCapture, PROTOCOLS } from '../../src/devices/decode.js';
import { decodeEscPos, decodeEscPosPrefix } from '../../src/devices/escpos/decode.js';
import { renderReceipt } from '../../src/devices/escpos/receipt.js';
import { parseGs1 } from '../../src/devices/gs1.js';
import { LineFramer } from '../../src/devices/line-framer.js';
import { parseSwipe } from '../../src/devices/msr.js';
import { Recognizer } from '../../src/devices/recognition.js';
import { parseScan } from '../../src/devices/scanner.js';
import { decodeAnswer, encodeAnswer, TlsStream } from '../../src/devices/tls/frame.js';
import { encodeInventory, parseInventory } from '../../src/devices/tls/i201.js';
import { demoTanks } from '../../src/devices/tls/simulator.js';
import { ApduStream, parseApdu } from '../../src/devices/zvt/apdu.js';
import { parseBmps } from '../../src/devices/zvt/bmp.js';
import { decodeFrame, encodeFrame, FrameStream } from '../../src/devices/zvt/frame.js';
import { authorisation, describeApdu, parseStatusInfo } from '../../src/devices/zvt/messages.js';

const bytes = fc.uint8Array({ maxLength: 300 });
const RUNS = { numRuns: 400 };

/** Every prefix of a valid frame, and the frame with one byte flipped. */
function damaged(frame: Uint8Array) {
  return fc.oneof(
    fc.nat({ max: frame.length }).map((n) => frame.slice(0, n)),
    fc.tuple(fc.nat({ max: frame.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
      const copy = Uint8Array.from(frame);
      copy[i] = (copy[i] ?? 0) ^ x;
      return copy;
    }),
  );
}

const zvtFrame = encodeFrame(authorisation(11_000));
const tlsFrame = encodeAnswer(
  encodeInventory({ tank_selector: '00', gauge_time: '2501011200', tanks: demoTanks() }),
);
const concertFrame = encodeMessage('0100001234110978REF0000001A010B010');
const receipt = renderReceipt({
  items: [{ title: 'x', quantity: '1', price: '1', amount: '1' }],
  total: '1',
  transaction_id: 't',
  feedback: { print: 'qr-code', url: 'u' },
});

describe('parsers on random and damaged bytes', () => {
  it('ZVT: frames, streams, APDUs and fields never throw', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, damaged(zvtFrame)), (b) => {
        decodeFrame(b);
        new FrameStream().push(b);
        new ApduStream().push(b);
        parseBmps(b);
        parseStatusInfo(b);
        const a = parseApdu(b);
        if (a.ok) describeApdu(a.value);
        describeApdu({ cls: b[0] ?? 0, ins: b[1] ?? 0, data: b });
      }),
      RUNS,
    );
  });

  it('ZVT: a damaged frame is never taken for the original', () => {
    fc.assert(
      fc.property(damaged(zvtFrame), (b) => {
        const r = decodeFrame(b);
        if (r.ok) expect(Array.from(b)).toEqual(Array.from(zvtFrame));
      }),
      RUNS,
    );
  });

  it('TLS: answers, streams and inventories never throw', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, damaged(tlsFrame)), (b) => {
        decodeAnswer(b);
        new TlsStream().push(b);
        parseInventory(latin1(b));
        parseInventory(`i20100${latin1(b)}`);
      }),
      RUNS,
    );
  });

  it('Concert: messages, requests, answers and streams never throw', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, damaged(concertFrame)), (b) => {
        decodeMessage(b);
        new ConcertStream().push(b);
        parseRequest(latin1(b));
        parseAnswer(latin1(b));
      }),
      RUNS,
    );
  });

  it('ESC/POS, readers and scanners never throw', () => {
    const rec = new Recognizer();
    fc.assert(
      fc.property(fc.oneof(bytes, damaged(receipt)), (b) => {
        decodeEscPos(b);
        decodeEscPosPrefix(b);
        for (const f of ['stx-etx', 'cr', 'lf', 'crlf'] as const) new LineFramer(f).push(b);
        const s = parseScan(b);
        if (s.ok) rec.recogniseScan(s.value);
        rec.recogniseSwipe(parseSwipe(latin1(b)));
        parseGs1(latin1(b));
      }),
      RUNS,
    );
  });

  it('devices decode answers every protocol with a result or a reason, never an exception', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTOCOLS), bytes, (p, b) => {
        const r = decodeCapture(p, b);
        expect(typeof r.ok).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('track text of any characters never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (s) => {
        parseSwipe(s);
        parseSwipe(`%B${s}?;${s}?`);
      }),
      RUNS,
    );
  });
});
