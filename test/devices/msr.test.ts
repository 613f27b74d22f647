import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../src/devices/line-framer.js';
import { isBankCard, luhnValid, maskPan } from '../../src/devices/mask.js';
import { parseSwipe, parseTrack1, parseTrack2 } from '../../src/devices/msr.js';
import { Recognizer } from '../../src/devices/recognition.js';
import { ascii } from '../../src/devices/bytes.js';
import { decodeCapture } from '../../src/devices/decode.js';

const T1 = '%B5350290149345177^FATEHI/SUALEH^16042010000000000000000000000000000567001000?';
const T2 = ';5350290149345177=16042010000056700100?';

describe('magnetic stripe vectors of devices.md', () => {
  it('reads PAN, name, expiry and service code from the track 1 example', () => {
    expect(parseTrack1(T1)).toMatchObject({
      ok: true,
      value: {
        pan: '5350290149345177',
        name: 'FATEHI/SUALEH',
        expiry: '1604',
        service_code: '201',
      },
    });
  });

  it('reads the track 2 example', () => {
    expect(parseTrack2(T2)).toMatchObject({
      ok: true,
      value: {
        pan: '5350290149345177',
        expiry: '1604',
        service_code: '201',
        discretionary: '0000056700100',
      },
    });
  });

  it('treats the example card as a bank card and masks it to first 6 and last 4', () => {
    expect(luhnValid('5350290149345177')).toBe(true);
    expect(isBankCard('5350290149345177')).toBe(true);
    expect(maskPan('5350290149345177')).toBe('535029******5177');
  });
});

describe('magnetic stripe parsing', () => {
  it('accepts skipped expiry and service code fields', () => {
    expect(parseTrack2(';1234567=?')).toMatchObject({ ok: true, value: { expiry: null } });
    expect(parseTrack1('%B1234567^DOE/J^^^?')).toMatchObject({
      ok: true,
      value: { expiry: null, service_code: null },
    });
  });

  it('reports a track without end sentinel as truncated', () => {
    expect(parseTrack2(';5350290149345177=1604')).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('splits a MagTek swipe into tracks and reports a failed track as E', () => {
    const s = parseSwipe(`${T1}${T2}`);
    expect(s.track1?.pan).toBe('5350290149345177');
    expect(s.track2?.pan).toBe('5350290149345177');
    expect(parseSwipe('%E?;7777001234=2512?').errors).toEqual(['track read error (E)']);
  });

  it('frames STX..CR ETX swipes, skipping noise outside the frame', () => {
    const f = new LineFramer('stx-etx');
    expect(f.push(ascii('zz\u0002;123456=?\r\u0003zz'))).toEqual([ascii(';123456=?')]);
  });

  it('frames CR LF lines under a CR setting without leaking the LF', () => {
    const f = new LineFramer('cr');
    expect(f.push(ascii('abc\r\ndef\r\n'))).toEqual([ascii('abc'), ascii('def')]);
  });
});

describe('swipe recognition', () => {
  it('reports a bank card masked, never as an identifier', () => {
    const r = new Recognizer().recogniseSwipe(parseSwipe(`${T1}${T2}`));
    expect(r).toEqual({ kind: 'bank-card', masked: '535029******5177', source: 'msr' });
    expect(JSON.stringify(r)).not.toContain('5350290149345177');
  });

  it('turns a loyalty card track 2 into a card identifier', () => {
    expect(new Recognizer().recogniseSwipe(parseSwipe(';7777001234=2512?'))).toEqual({
      kind: 'identifier',
      id: '7777001234',
      id_type: 'card',
      source: 'msr',
    });
  });

  it('can take the loyalty code from the discretionary data instead', () => {
    const r = new Recognizer({ msr_field: 'discretionary' }).recogniseSwipe(
      parseSwipe(';7777001234=2512101998877?'),
    );
    expect(r).toMatchObject({ kind: 'identifier', id: '998877' });
  });
});

describe('misreads are refused, naming the field', () => {
  const misread = (text: string) => new Recognizer().recogniseSwipe(parseSwipe(text));

  it('refuses a track 2 whose expiry month is 13', () => {
    expect(parseTrack2(';5350290149345177=16132010000056700100?')).toMatchObject({
      ok: false,
      message: 'misread: track2.expiry 1613 has no month 13',
    });
  });

  it('refuses a track 1 whose expiry month is 00', () => {
    const t1 = T1.replace('^1604', '^1600');
    expect(parseTrack1(t1)).toMatchObject({
      ok: false,
      message: expect.stringContaining('track1.expiry'),
    });
  });

  it('refuses a bank card number that fails its check digit', () => {
    expect(parseTrack2(';5350290149345178=16042010000056700100?')).toMatchObject({
      ok: false,
      message: 'misread: track2.pan fails its check digit',
    });
  });

  it('reports the whole swipe as a misread when one track is, never recognising the other', () => {
    const read = misread(`${T1};5350290149345177=16132010000056700100?`);
    expect(read).toEqual({
      kind: 'unrecognised',
      source: 'msr',
      reason: 'track 2: misread: track2.expiry 1613 has no month 13',
    });
  });

  it('reports tracks that carry different numbers as a misread', () => {
    const t1 = '%B5350290149345177^FATEHI/SUALEH^1604201000?';
    const t2 = ';4111111111111111=16042010000056700100?';
    expect(misread(t1 + t2)).toMatchObject({
      kind: 'unrecognised',
      reason: 'misread: track1.pan and track2.pan differ',
    });
  });

  it('keeps a loyalty stripe without a service code a loyalty card, whatever its check digit', () => {
    expect(misread(';5350290149345178=?')).toMatchObject({
      kind: 'identifier',
      id: '5350290149345178',
    });
  });
});

describe('devices decode msr', () => {
  it('answers a misread swipe with its reason, naming the field', () => {
    const swipe = ';5350290149345178=16042010000056700100?';
    expect(decodeCapture('msr', ascii(swipe))).toEqual({
      ok: false,
      reason: 'malformed',
      message: 'track 2: misread: track2.pan fails its check digit',
    });
  });
});
