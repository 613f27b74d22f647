import { describe, expect, it } from 'vitest';
import { parseGs1 } from '../../src/devices/gs1.js';
import { Recognizer } from '../../src/devices/recognition.js';
import { parseScan } from '../../src/devices/scanner.js';

const GS = '\u001d';

describe('scanner vectors of devices.md', () => {
  it('splits the GS1-128 example into (01) (10) (99)', () => {
    const r = parseScan(`]C1011231231231233310ABC123${GS}99TESTING`);
    expect(r).toMatchObject({
      ok: true,
      value: {
        aim: ']C1',
        symbology: 'gs1-128',
        gs1: [
          { ai: '01', value: '12312312312333' },
          { ai: '10', value: 'ABC123' },
          { ai: '99', value: 'TESTING' },
        ],
      },
    });
  });

  it('accepts ]E02112345678900 as a valid EAN-13', () => {
    expect(parseScan(']E02112345678900')).toMatchObject({
      ok: true,
      value: { symbology: 'ean-13', data: '2112345678900' },
    });
  });

  it('rejects ]E02112345678901 for its check digit', () => {
    expect(parseScan(']E02112345678901')).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });
});

describe('scanner parsing', () => {
  it('keeps GS bytes in the data', () => {
    const r = parseScan(`]d201095011010209171719050810ABCD1234${GS}2110`);
    expect(r.ok && r.value.data.includes(GS)).toBe(true);
  });

  it('reads a line without AIM identifier as unknown symbology', () => {
    expect(parseScan('HELLO123')).toMatchObject({
      ok: true,
      value: { aim: null, symbology: 'unknown' },
    });
  });

  it('refuses an unknown GS1 application identifier', () => {
    expect(parseGs1('7777')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('reports a fixed-length AI cut short as truncated', () => {
    expect(parseGs1('0112345')).toMatchObject({ ok: false, reason: 'truncated' });
  });
});

describe('scan recognition', () => {
  const rec = new Recognizer();
  const recognise = (line: string) => {
    const s = parseScan(line);
    if (!s.ok) throw new Error(s.message);
    return rec.recogniseScan(s.value);
  };

  it('turns a QR code into a qr identifier', () => {
    expect(recognise(']Q1a1b2c3d4e5f6')).toEqual({
      kind: 'identifier',
      id: 'a1b2c3d4e5f6',
      id_type: 'qr',
      source: 'scanner',
    });
  });

  it('turns a vehicle QR into a vehicle identifier', () => {
    expect(recognise(']Q1VEH:AB-123-CD')).toMatchObject({ id: 'AB-123-CD', id_type: 'vehicle' });
  });

  it('turns an EAN-13 loyalty card (the store’s own prefix 20) into a card identifier', () => {
    expect(recognise(']E02012345678903')).toMatchObject({ id: '2012345678903', id_type: 'card' });
  });

  it('reads the EAN-13 example of devices.md as our in-store weight label, a good', () => {
    expect(recognise(']E02112345678900')).toEqual({
      kind: 'goods',
      barcode: '2112345678900',
      source: 'scanner',
    });
  });

  it('uses configured patterns first', () => {
    const custom = new Recognizer({
      rules: [{ source: 'scanner', pattern: '^(?<id>\\+\\d{11})$', id_type: 'phone' }],
    });
    const s = parseScan('+79991234567');
    expect(s.ok && custom.recogniseScan(s.value)).toMatchObject({
      id: '+79991234567',
      id_type: 'phone',
    });
  });
});
