import { describe, expect, it } from 'vitest';
import { concatBytes, parseHex, toHex } from '../../../src/devices/bytes.js';
import { crc16Arc, crcBytes } from '../../../src/devices/dart/crc.js';
import {
  controlByte,
  DartStream,
  type DartEvent,
  decodeFrame,
  encodeFrame,
  isRetransmission,
  nextTx,
  parseControl,
  pumpAddress,
} from '../../../src/devices/dart/frame.js';

function hex(text: string): Uint8Array {
  const b = parseHex(text);
  if (!b) throw new Error(`bad hex in a test: ${text}`);
  return b;
}

const STATUS_TO_50 = '50 30 01 01 00 9F 5C 03 FA';
const STUFFED_DC102 = '50 30 66 10 01 00 00 58 10 71 00 00 58 10 71 00 00 00 00 00 1E 10 FA 03 FA';
const FOUR_TRANSACTIONS =
  '50 3E 02 08 00 00 00 00 00 00 00 00 03 04 00 99 07 07 01 01 05 ' +
  '65 10 01 13 36 38 49 66 13 36 38 49 66 00 00 00 00 00 39 10 FA 03 FA';

describe('DART CRC-16/ARC', () => {
  it('gives the catalogue check value BB3D for "123456789"', () => {
    expect(crc16Arc(new TextEncoder().encode('123456789'))).toBe(0xbb3d);
  });

  it('covers ADR through the last data byte: 50 30 01 01 00 gives 5C9F', () => {
    expect(crc16Arc(hex('50 30 01 01 00'))).toBe(0x5c9f);
  });

  it('is sent low byte first', () => {
    expect(crcBytes(0x5c9f)).toEqual([0x9f, 0x5c]);
  });
});

describe('DART control bytes', () => {
  it('numbers DATA, NAK, EOT, ACK and ACKPOLL with the TX# in the low nibble', () => {
    expect([
      controlByte('data', 5),
      controlByte('nak', 5),
      controlByte('eot', 5),
      controlByte('ack', 5),
      controlByte('ackpoll', 5),
    ]).toEqual([0x35, 0x55, 0x75, 0xc5, 0xe5]);
  });

  it('has POLL 20 and IAP 40 as single values', () => {
    expect([controlByte('poll'), controlByte('iap')]).toEqual([0x20, 0x40]);
    expect(parseControl(0x21)).toBeNull();
    expect(parseControl(0x41)).toBeNull();
  });

  it('reads a control byte back to its type and TX#', () => {
    expect(parseControl(0xcf)).toEqual({ type: 'ack', tx: 15 });
    expect(parseControl(0x40)).toEqual({ type: 'iap', tx: 0 });
    expect(parseControl(0x90)).toBeNull();
  });

  it('addresses pump 1 as 50 and pump 32 as 6F', () => {
    expect([pumpAddress(1), pumpAddress(32)]).toEqual([0x50, 0x6f]);
  });
});

describe('DART frames encoded', () => {
  it('sends a POLL to pump 50 as 50 20 FA', () => {
    const r = encodeFrame({ type: 'poll', address: 0x50, tx: 0 });
    expect(r.ok && toHex(r.value)).toBe('50 20 FA');
  });

  it('acknowledges TX# 7 of pump 51 as 51 C7 FA', () => {
    const r = encodeFrame({ type: 'ack', address: 0x51, tx: 7 });
    expect(r.ok && toHex(r.value)).toBe('51 C7 FA');
  });

  it('refuses an address outside 50..6F', () => {
    expect(encodeFrame({ type: 'poll', address: 0x70, tx: 0 })).toMatchObject({ ok: false });
  });

  it('refuses a TX# outside 0..F', () => {
    expect(encodeFrame({ type: 'ack', address: 0x50, tx: 16 })).toMatchObject({ ok: false });
  });

  it('refuses a block over 256 bytes on the wire', () => {
    const data = new Uint8Array(252); // ADR CTRL + 252 + CRC CRC ETX SF = 258
    expect(encodeFrame({ type: 'data', address: 0x50, tx: 1, data })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    const fits = new Uint8Array(250);
    expect(encodeFrame({ type: 'data', address: 0x50, tx: 1, data: fits }).ok).toBe(true);
  });

  it('keeps a literal 10 in the data unescaped', () => {
    const r = encodeFrame({ type: 'data', address: 0x50, tx: 0, data: hex('65 01 10') });
    expect(r.ok && Array.from(r.value.subarray(2, 5))).toEqual([0x65, 0x01, 0x10]);
  });
});

describe('DART one frame decoded', () => {
  it('reports a wrong CRC as bad-checksum', () => {
    expect(decodeFrame(hex('50 30 01 01 00 9F 5D 03 FA'))).toMatchObject({
      ok: false,
      reason: 'bad-checksum',
    });
  });

  it('reports a frame without its stop flag as truncated', () => {
    expect(decodeFrame(hex('50 30 01 01 00 9F 5C 03'))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });

  it('reports a frame ending in DLE as bad stuffing', () => {
    expect(decodeFrame(hex('50 30 66 10 01 1E 10'))).toMatchObject({
      ok: false,
      reason: 'bad-stuffing',
    });
  });

  it('reports bytes after the stop flag as malformed', () => {
    expect(decodeFrame(hex('50 20 FA 00'))).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('reports a byte that is no control byte as malformed', () => {
    expect(decodeFrame(hex('50 90 FA'))).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('decodes ACKPOLL and IAP as control frames (never sent by us)', () => {
    expect(decodeFrame(hex('52 E3 FA'))).toEqual({
      ok: true,
      value: { type: 'ackpoll', address: 0x52, tx: 3 },
    });
    expect(decodeFrame(hex('52 40 FA'))).toEqual({
      ok: true,
      value: { type: 'iap', address: 0x52, tx: 0 },
    });
  });
});

/** Frames and errors only, without the data bytes' identity (for comparing runs). */
function summary(events: DartEvent[]): unknown[] {
  return events.map((e) =>
    e.kind === 'frame'
      ? { ...e.frame, ...('data' in e.frame ? { data: toHex(e.frame.data) } : {}) }
      : { error: e.reason, address: e.address, tx: e.tx },
  );
}

describe('DART stream', () => {
  const line = concatBytes([
    hex('50 20 FA'),
    hex(STUFFED_DC102),
    hex('50 C0 FA'),
    hex(FOUR_TRANSACTIONS),
    hex('55 30 65 10 01 00 06 51 48 10 00 06 51 48 10 00 00 00 00 00 D8 B8 03 FA'),
  ]);

  it('finds a poll, three data blocks and an ACK in one read', () => {
    const events = new DartStream().push(line);
    expect(summary(events)).toMatchObject([
      { type: 'poll', address: 0x50 },
      { type: 'data', address: 0x50, tx: 0 },
      { type: 'ack', address: 0x50, tx: 0 },
      { type: 'data', address: 0x50, tx: 14 },
      { type: 'data', address: 0x55, tx: 0 },
    ]);
  });

  it('decodes the same when the bytes are split at every boundary', () => {
    const whole = summary(new DartStream().push(line));
    for (let cut = 1; cut < line.length; cut++) {
      const s = new DartStream();
      const events = [...s.push(line.subarray(0, cut)), ...s.push(line.subarray(cut))];
      expect(summary(events), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('decodes the same when the bytes arrive one at a time', () => {
    const s = new DartStream();
    const events = Array.from(line).flatMap((b) => s.push(Uint8Array.of(b)));
    expect(summary(events)).toEqual(summary(new DartStream().push(line)));
  });

  it('skips garbage before a frame and counts it as noise', () => {
    const s = new DartStream();
    const events = s.push(concatBytes([hex('00 FF 13 37 03 10'), hex(STATUS_TO_50)]));
    expect(summary(events)).toEqual([{ type: 'data', address: 0x50, tx: 0, data: '01 01 00' }]);
    expect(s.noise).toBe(6);
  });

  it('skips garbage that looks like a frame start, finding the block by its CRC', () => {
    const s = new DartStream();
    const events = s.push(concatBytes([hex('51 31 07'), hex(STATUS_TO_50)]));
    expect(summary(events)).toEqual([{ type: 'data', address: 0x50, tx: 0, data: '01 01 00' }]);
    expect(s.noise).toBe(3);
  });

  it('skips garbage ending in a stray FA, then reads the next frame', () => {
    const events = new DartStream().push(concatBytes([hex('13 FA 00'), hex('51 75 FA')]));
    expect(summary(events)).toEqual([{ type: 'eot', address: 0x51, tx: 5 }]);
  });

  it('reports a corrupt CRC with the address and TX#, then reads the next frame', () => {
    const events = new DartStream().push(
      concatBytes([hex('51 3A 03 04 00 81 23 11 26 15 03 FA'), hex('51 20 FA')]),
    );
    expect(summary(events)).toEqual([
      { error: 'bad-checksum', address: 0x51, tx: 10 },
      { type: 'poll', address: 0x51, tx: 0 },
    ]);
  });

  it('reports an unescaped FA inside a block as bad stuffing and recovers at the next frame', () => {
    const events = new DartStream().push(
      concatBytes([hex('51 30 05 03 00 05 25 4B FA 03 FA'), hex(STATUS_TO_50)]),
    );
    expect(summary(events)).toEqual([
      { error: 'bad-stuffing', address: 0x51, tx: 0 },
      { type: 'data', address: 0x50, tx: 0, data: '01 01 00' },
    ]);
  });

  it('reports a block that ends in DLE when the line goes quiet', () => {
    const s = new DartStream();
    expect(s.push(hex('50 30 66 10 01 1E 10'))).toEqual([]);
    expect(s.pending).toBe(true);
    expect(summary(s.end())).toEqual([{ error: 'bad-stuffing', address: 0x50, tx: 0 }]);
    expect(s.pending).toBe(false);
  });

  it('reports a block cut off when the line goes quiet as truncated', () => {
    const s = new DartStream();
    s.push(hex('51 31 01 01 04'));
    expect(summary(s.end())).toEqual([{ error: 'truncated', address: 0x51, tx: 1 }]);
  });

  it('reports a data block cut off by the next frame, then that frame', () => {
    const events = new DartStream().push(hex('51 31 01 01 04 03 04 51 C1 FA'));
    expect(summary(events)).toEqual([
      { error: 'truncated', address: 0x51, tx: 1 },
      { type: 'ack', address: 0x51, tx: 1 },
    ]);
  });

  it('reports a block over 256 bytes once and waits for the next stop flag', () => {
    const long = concatBytes([hex('50 31'), new Uint8Array(300), hex('03 FA')]);
    const events = new DartStream().push(concatBytes([long, hex(STATUS_TO_50)]));
    expect(summary(events)).toEqual([
      { error: 'too-long', address: 0x50, tx: 1 },
      { type: 'data', address: 0x50, tx: 0, data: '01 01 00' },
    ]);
  });

  it('accepts a block of exactly 256 bytes', () => {
    const r = encodeFrame({ type: 'data', address: 0x50, tx: 2, data: new Uint8Array(250) });
    if (!r.ok) throw new Error(r.message);
    expect(r.value.length).toBe(256);
    expect(summary(new DartStream().push(r.value))).toMatchObject([{ type: 'data', tx: 2 }]);
  });

  it('does not end a frame at an escaped FA split from its DLE', () => {
    const bytes = hex(STUFFED_DC102);
    const at = bytes.indexOf(0x10, 20); // the DLE before the CRC byte FA
    const s = new DartStream();
    expect(s.push(bytes.subarray(0, at + 1))).toEqual([]);
    expect(summary(s.push(bytes.subarray(at + 1)))).toMatchObject([{ type: 'data' }]);
  });
});

describe('DART TX# rules', () => {
  it('counts 0, 1 .. F, then 1 again (0 only after a restart)', () => {
    const seen = [0];
    for (let i = 0; i < 16; i++) seen.push(nextTx(seen[seen.length - 1] as number));
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1]);
  });

  it('takes a block with the TX# of the last accepted one as a retransmission', () => {
    expect(isRetransmission(4, 4)).toBe(true);
  });

  it('accepts any other TX#, including a wrap from F to 0', () => {
    expect(isRetransmission(15, 0)).toBe(false);
    expect(isRetransmission(3, 9)).toBe(false);
  });

  it('accepts the first block after a restart whatever its TX#', () => {
    expect(isRetransmission(null, 0)).toBe(false);
  });
});
