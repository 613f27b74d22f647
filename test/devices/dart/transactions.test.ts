import { describe, expect, it } from 'vitest';
import { parseHex, toHex } from '../../../src/devices/bytes.js';
import { decodeBcd, encodeBcd } from '../../../src/devices/dart/bcd.js';
import {
  type ControllerTransaction,
  decodePumpTransactions,
  DEFAULT_DECIMALS,
  encodeControllerTransactions,
  fillingValues,
  toWire,
  unitPrice,
} from '../../../src/devices/dart/transactions.js';
import { dec, toFixed } from '../../../src/money/index.js';

function hex(text: string): Uint8Array {
  const b = parseHex(text);
  if (!b) throw new Error(`bad hex in a test: ${text}`);
  return b;
}

function encoded(list: ControllerTransaction[]): string {
  const r = encodeControllerTransactions(list);
  if (!r.ok) throw new Error(r.message);
  return toHex(r.value);
}

describe('DART packed BCD', () => {
  it('writes 8123 in three bytes as 00 81 23, most significant first', () => {
    const r = encodeBcd(8123, 3, 'price');
    expect(r.ok && toHex(r.value)).toBe('00 81 23');
  });

  it('reads ten digits exactly (1336384966)', () => {
    expect(decodeBcd(hex('13 36 38 49 66'))).toBe(1336384966);
  });

  it('reads a nibble above 9 as no number', () => {
    expect(decodeBcd(hex('00 1A'))).toBeNull();
  });
});

describe('DART controller transactions', () => {
  it('sends each CD1 command with its code', () => {
    const codes = (
      [
        ['return-status', '00'],
        ['return-pump-parameters', '02'],
        ['return-pump-identity', '03'],
        ['return-filling-information', '04'],
        ['reset', '05'],
        ['authorize', '06'],
        ['stop', '08'],
        ['switch-off', '0A'],
        ['suspend', '0D'],
        ['resume', '0E'],
      ] as const
    ).map(([command, code]) => [encoded([{ type: 'CD1', command }]), `01 01 ${code}`]);
    for (const [got, want] of codes) expect(got).toBe(want);
  });

  it('sends a preset amount as CD4 with four BCD bytes', () => {
    expect(encoded([{ type: 'CD4', amount: 2000 }])).toBe('04 04 00 00 20 00');
  });

  it('asks the amount counter of nozzle 2 as CD101 12', () => {
    expect(encoded([{ type: 'CD101', counter: 0x12 }])).toBe('65 01 12');
  });

  it('refuses a preset volume of nine digits, naming the field', () => {
    expect(encodeControllerTransactions([{ type: 'CD3', volume: 123456789 }])).toEqual({
      ok: false,
      reason: 'malformed',
      message: 'preset volume 123456789 has more than 8 digits',
    });
  });

  it('refuses a price of seven digits', () => {
    expect(encodeControllerTransactions([{ type: 'CD5', prices: [1175, 1000000] }])).toMatchObject({
      ok: false,
      message: 'price 1000000 has more than 6 digits',
    });
  });

  it('refuses a negative or fractional preset amount', () => {
    expect(encodeControllerTransactions([{ type: 'CD4', amount: -1 }]).ok).toBe(false);
    expect(encodeControllerTransactions([{ type: 'CD4', amount: 12.5 }]).ok).toBe(false);
  });

  it('refuses allowed nozzles outside 1..15 and an empty list', () => {
    expect(encodeControllerTransactions([{ type: 'CD2', nozzles: [0] }]).ok).toBe(false);
    expect(encodeControllerTransactions([{ type: 'CD2', nozzles: [16] }]).ok).toBe(false);
    expect(encodeControllerTransactions([{ type: 'CD2', nozzles: [] }]).ok).toBe(false);
  });

  it('refuses a total counter that is not 01..09 or 11..19', () => {
    expect(encodeControllerTransactions([{ type: 'CD101', counter: 0x0a }]).ok).toBe(false);
  });
});

describe('DART pump transactions', () => {
  it('reads every DC1 status code', () => {
    const r = decodePumpTransactions(
      hex('01 01 00 01 01 01 01 01 02 01 01 04 01 01 05 01 01 06 01 01 07 01 01 08'),
    );
    expect(r.ok && r.value.map((t) => (t.type === 'DC1' ? t.status : t.type))).toEqual([
      'not-programmed',
      'reset',
      'authorised',
      'filling',
      'filling-completed',
      'max-reached',
      'switched-off',
      'suspended',
    ]);
  });

  it('reads status 0B as suspended (a variant), keeping the code', () => {
    expect(decodePumpTransactions(hex('01 01 0B'))).toEqual({
      ok: true,
      value: [{ type: 'DC1', status: 'suspended', code: 0x0b }],
    });
  });

  it('reads an unknown status code as unknown, keeping the code, without failing', () => {
    expect(decodePumpTransactions(hex('01 01 03'))).toEqual({
      ok: true,
      value: [{ type: 'DC1', status: 'unknown', code: 3 }],
    });
  });

  it('reads the selected nozzle from NOZIO bits 0-3 and "out" from bit 4', () => {
    const r = decodePumpTransactions(hex('03 04 00 11 75 1F 03 04 00 11 75 E3'));
    expect(r.ok && r.value).toEqual([
      { type: 'DC3', price: 1175, nozzle: 15, nozzleOut: true },
      { type: 'DC3', price: 1175, nozzle: 3, nozzleOut: false },
    ]);
  });

  it('reads a DC5 alarm code', () => {
    expect(decodePumpTransactions(hex('05 01 09'))).toEqual({
      ok: true,
      value: [{ type: 'DC5', alarm: 9 }],
    });
  });

  it('reads DC102 of two bytes as the stand-alone mode', () => {
    expect(decodePumpTransactions(hex('66 02 01 00'))).toEqual({
      ok: true,
      value: [{ type: 'DC102', variant: 'stand-alone', enabled: true, localAuthorise: false }],
    });
  });

  it('keeps DC102 of another length as an unknown transaction', () => {
    const r = decodePumpTransactions(hex('66 03 01 00 00'));
    expect(r.ok && r.value).toMatchObject([{ type: 'unknown', trans: 0x66 }]);
  });

  it('skips an unknown transaction by its LNG and reads the next one', () => {
    const r = decodePumpTransactions(hex('09 05 12 34 56 78 90 01 01 05'));
    expect(r.ok && r.value).toEqual([
      { type: 'unknown', trans: 0x09, data: hex('12 34 56 78 90') },
      { type: 'DC1', status: 'filling-completed', code: 5 },
    ]);
  });

  it('keeps a known transaction of the wrong length as unknown', () => {
    const r = decodePumpTransactions(hex('01 02 05 05'));
    expect(r.ok && r.value).toMatchObject([
      { type: 'unknown', trans: 1, reason: '2 bytes, 1 expected' },
    ]);
  });

  it('keeps a DC2 with a non-decimal digit as unknown', () => {
    const r = decodePumpTransactions(hex('02 08 00 00 0A 00 00 00 00 00'));
    expect(r.ok && r.value).toMatchObject([{ type: 'unknown', trans: 2, reason: 'not BCD' }]);
  });

  it('refuses a block whose LNG runs past its end as truncated', () => {
    expect(decodePumpTransactions(hex('02 08 00 00 04 28'))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });
});

describe('DART decimals (configured, not on the wire)', () => {
  it('defaults to volume 2, amount 2, unit price 3 decimals', () => {
    expect(DEFAULT_DECIMALS).toEqual({ volume: 2, amount: 2, price: 3 });
    const v = fillingValues({ volume: 2414, amount: 12000 });
    expect([toFixed(v.volume), toFixed(v.amount)]).toEqual(['24.14', '120.00']);
    expect(toFixed(unitPrice(1175))).toBe('1.175');
  });

  it('applies a pump own decimals exactly: 428 at 3 is 0.428 l, 3477 at 0 is 3477', () => {
    const v = fillingValues({ volume: 428, amount: 3477 }, { volume: 3, amount: 0, price: 0 });
    expect([toFixed(v.volume), toFixed(v.amount)]).toEqual(['0.428', '3477']);
  });

  it('turns a preset of 20.00 into the wire integer 2000', () => {
    expect(toWire(dec('20.00'), 2, 'preset amount')).toEqual({ ok: true, value: 2000 });
    expect(toWire(dec('20'), 2, 'preset amount')).toEqual({ ok: true, value: 2000 });
    expect(toWire(dec('1.2'), 3, 'price')).toEqual({ ok: true, value: 1200 });
  });

  it('refuses a value finer than the pump decimals, naming the field', () => {
    expect(toWire(dec('11.375'), 2, 'preset volume')).toEqual({
      ok: false,
      reason: 'malformed',
      message: 'preset volume 11.375 has more than 2 decimals',
    });
  });

  it('refuses a negative value', () => {
    expect(toWire(dec('-1'), 2, 'preset amount').ok).toBe(false);
  });
});
