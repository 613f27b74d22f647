import { describe, expect, it } from 'vitest';
import { parseHex, toHex } from '../../src/devices/bytes.js';
import { ApduStream, encodeApdu, parseApdu, readApdu } from '../../src/devices/zvt/apdu.js';
import { crc16Kermit } from '../../src/devices/zvt/crc.js';
import { decodeFrame, encodeFrame, FrameStream } from '../../src/devices/zvt/frame.js';
import {
  ACK_APDU,
  authorisation,
  describeApdu,
  displayText,
  parseStatusInfo,
  registration,
  reversal,
} from '../../src/devices/zvt/messages.js';
import { asciiField, panField, toBcd } from '../../src/devices/zvt/bmp.js';

const hex = (s: string) => parseHex(s) as Uint8Array;

describe('ZVT vectors of devices.md', () => {
  it('frames the positive acknowledgement 80 00 00 as 10 02 80 00 00 10 03 F5 1F', () => {
    expect(toHex(encodeFrame(ACK_APDU))).toBe('10 02 80 00 00 10 03 F5 1F');
  });

  it('frames registration with password 123456, config BA, EUR', () => {
    expect(toHex(encodeFrame(registration('123456', 0xba)))).toBe(
      '10 02 06 00 06 12 34 56 BA 09 78 10 03 24 C3',
    );
  });

  it('frames an authorisation of 110.00 EUR with the amount 0x10 doubled and LEN unstuffed', () => {
    expect(toHex(encodeFrame(authorisation(11000)))).toBe(
      '10 02 06 01 0A 04 00 00 00 01 10 10 00 49 09 78 10 03 F2 FF',
    );
  });

  it('frames a status enquiry with password 123456', () => {
    const statusEnquiry = { cls: 0x05, ins: 0x01, data: hex('12 34 56') };
    expect(toHex(encodeFrame(statusEnquiry))).toBe('10 02 05 01 03 12 34 56 10 03 E0 43');
  });

  it('computes CRC-16/KERMIT over the APDU and ETX', () => {
    expect(crc16Kermit(hex('80 00 00 03'))).toBe(0x1ff5);
    // The catalogue check value of CRC-16/KERMIT.
    expect(crc16Kermit(new TextEncoder().encode('123456789'))).toBe(0x2189);
  });
});

describe('ZVT serial frames decoded', () => {
  it('decodes the authorisation vector back to its APDU', () => {
    const r = decodeFrame(hex('10 02 06 01 0A 04 00 00 00 01 10 10 00 49 09 78 10 03 F2 FF'));
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(describeApdu(r.value.apdu)).toMatchObject({ name: 'authorisation', length: 10 });
  });

  it('reports a wrong CRC as bad-checksum', () => {
    const r = decodeFrame(hex('10 02 80 00 00 10 03 F5 1E'));
    expect(r).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });

  it('reports a lone 10 inside the frame as bad-stuffing', () => {
    const r = decodeFrame(hex('10 02 06 01 0A 04 00 00 00 01 10 00 49 09 78 10 03 F2 FF'));
    expect(r).toMatchObject({ ok: false, reason: 'bad-stuffing' });
  });

  it('reports a frame cut before its CRC as truncated', () => {
    expect(decodeFrame(hex('10 02 80 00 00 10 03 F5'))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
    expect(decodeFrame(hex('10 02 80 00'))).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('reports a LEN longer than the data as truncated', () => {
    // 06 01 0B with only 10 data bytes, CRC recomputed so only LEN is wrong.
    const apdu = hex('06 01 0B 04 00 00 00 01 10 00 49 09 78');
    expect(parseApdu(apdu)).toMatchObject({ ok: false, reason: 'truncated' });
  });
});

describe('ZVT frame stream', () => {
  it('finds ACK, NAK and a frame among noise and split chunks', () => {
    const s = new FrameStream();
    const frame = encodeFrame(authorisation(11000));
    const events = [
      ...s.push(hex('41 42 06')),
      ...s.push(frame.slice(0, 7)),
      ...s.push(frame.slice(7)),
      ...s.push(hex('15')),
    ];
    expect(events.map((e) => e.kind)).toEqual(['ack', 'frame', 'nak']);
    expect(s.noise).toBe(2);
  });

  it('reports a corrupted frame once and recovers for the next', () => {
    const s = new FrameStream();
    const bad = encodeFrame(ACK_APDU);
    bad[4] = 0x01;
    const events = [...s.push(bad), ...s.push(encodeFrame(ACK_APDU))];
    expect(events.map((e) => e.kind)).toEqual(['error', 'frame']);
  });
});

describe('ZVT APDUs over TCP', () => {
  it('uses FF and two little-endian bytes for LEN from 255 bytes on', () => {
    const a = { cls: 0x06, ins: 0xd3, data: new Uint8Array(300) };
    const bytes = encodeApdu(a);
    expect(toHex(bytes.slice(0, 5))).toBe('06 D3 FF 2C 01');
    expect(readApdu(bytes)?.used).toBe(305);
  });

  it('reassembles APDUs split across TCP reads', () => {
    const s = new ApduStream();
    const bytes = encodeApdu(authorisation(11000));
    expect(s.push(bytes.slice(0, 2))).toEqual([]);
    const out = s.push(Uint8Array.from([...bytes.slice(2), ...encodeApdu(ACK_APDU)]));
    expect(out.map((a) => a.ins)).toEqual([0x01, 0x00]);
  });

  it('keeps its own copy of a partial APDU, so a reader that reuses its buffer cannot change it', () => {
    const s = new ApduStream();
    const whole = encodeApdu(authorisation(11000));
    const chunk = Uint8Array.from([...encodeApdu(ACK_APDU), ...whole.slice(0, 4)]);
    expect(s.push(chunk).map((a) => a.ins)).toEqual([0x00]);
    expect(s.pending).toBe(true);
    chunk.fill(0xee); // the serial port's buffer, reused for the next read
    const [apdu] = s.push(whole.slice(4));
    expect(apdu && toHex(encodeApdu(apdu))).toBe(toHex(whole));
    expect(s.pending).toBe(false);
  });
});

describe('ZVT messages', () => {
  it('puts the receipt number as BMP 87 in a reversal', () => {
    expect(toHex(encodeApdu(reversal('123456', 42)))).toBe('06 30 06 12 34 56 87 00 42');
  });

  it('sends display text as F0 duration and F1.. lines', () => {
    expect(toHex(encodeApdu(displayText(['HI'], 5)))).toBe('06 E0 07 F0 05 F1 F0 F2 48 49');
  });

  it('reads result, amount, receipt, trace and masked PAN from status information', () => {
    const data = Uint8Array.from([
      0x27,
      0x00,
      0x04,
      0,
      0,
      0,
      0,
      0x12,
      0x34,
      0x0b,
      0x00,
      0x00,
      0x07,
      0x87,
      0x00,
      0x42,
      ...panField('535029******5177'),
    ]);
    expect(parseStatusInfo(data)).toMatchObject({
      result_code: 0,
      amount_cents: 1234,
      trace_no: 7,
      receipt_no: 42,
      pan_masked: '535029******5177',
    });
  });

  it('reads the authorisation code (3B) and the terminal id (29) for the card slip', () => {
    const data = Uint8Array.from([
      0x27,
      0x00,
      0x29,
      ...toBcd('52500001', 4),
      ...asciiField(0x3b, 'A00007\0\0'),
    ]);
    expect(parseStatusInfo(data)).toMatchObject({ terminal_id: 52500001, auth_code: 'A00007' });
  });
});
