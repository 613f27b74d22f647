import { describe, expect, it } from 'vitest';
import { ascii, latin1, toHex } from '../../src/devices/bytes.js';
import {
  decodeAnswer,
  encodeAnswer,
  encodeRequest,
  tlsChecksum,
  UNSUPPORTED,
} from '../../src/devices/tls/frame.js';
import {
  encodeInventory,
  floatToHex,
  hexToFloat,
  parseInventory,
} from '../../src/devices/tls/i201.js';
import { demoTanks } from '../../src/devices/tls/simulator.js';

describe('TLS vectors of devices.md', () => {
  it('checksums SOH 9999 to FF1B, the unsupported-command answer', () => {
    expect(tlsChecksum(Uint8Array.from([0x01, ...ascii('9999')]))).toBe('FF1B');
    expect(decodeAnswer(UNSUPPORTED)).toEqual({ ok: true, value: { kind: 'unsupported' } });
  });

  it('asks in-tank inventory of all tanks as SOH i20100', () => {
    expect(toHex(encodeRequest('i201', '00'))).toBe('01 69 32 30 31 30 30');
  });
});

describe('TLS i201', () => {
  const body = encodeInventory({
    tank_selector: '00',
    gauge_time: '2501011200',
    tanks: demoTanks(),
  });

  it('round-trips volumes and temperature through IEEE-754 hex', () => {
    expect(floatToHex(1)).toBe('3F800000');
    expect(hexToFloat('46C0E700')).toBeCloseTo(24691.5);
    const inv = parseInventory(body);
    expect(inv).toMatchObject({
      ok: true,
      value: {
        gauge_time: '2501011200',
        tanks: [{ tank: 1, volume: 12345.5, temperature: 14.75 }, { tank: 2 }],
      },
    });
  });

  it('verifies the checksum of a framed answer', () => {
    const frame = encodeAnswer(body);
    expect(latin1(frame.slice(-7, -5))).toBe('&&');
    expect(decodeAnswer(frame)).toMatchObject({ ok: true, value: { kind: 'data', body } });
    const broken = Uint8Array.from(frame);
    broken[10] = broken[10] === 0x30 ? 0x31 : 0x30;
    expect(decodeAnswer(broken)).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });

  it('reports a tank record cut short as truncated', () => {
    expect(parseInventory(body.slice(0, body.length - 5))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });
});
