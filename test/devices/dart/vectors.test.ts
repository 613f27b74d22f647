// Frames captured from or sent to real Wayne pumps, as printed in public code (the research's
// §2.7 table; sources S2..S5 named per row, see docs/forecourt.md). Their CRCs were checked by
// hand with CRC-16/ARC; none of them comes from our encoder.
import { describe, expect, it } from 'vitest';
import { parseHex, toHex } from '../../../src/devices/bytes.js';
import { decodeFrame, encodeFrame } from '../../../src/devices/dart/frame.js';
import {
  type ControllerTransaction,
  decodeControllerTransactions,
  decodePumpTransactions,
  encodeControllerTransactions,
  encodePumpTransactions,
  type PumpTransaction,
} from '../../../src/devices/dart/transactions.js';

function hex(text: string): Uint8Array {
  const b = parseHex(text);
  if (!b) throw new Error(`bad hex in a test: ${text}`);
  return b;
}

interface Vector<T> {
  wire: string;
  source: string;
  address: number;
  tx: number;
  transactions: T[];
}

const cd1 = (command: string): ControllerTransaction =>
  ({ type: 'CD1', command }) as ControllerTransaction;

const controller: Vector<ControllerTransaction>[] = [
  {
    wire: '50 30 01 01 00 9F 5C 03 FA',
    source: 'S4, S5',
    address: 0x50,
    tx: 0,
    transactions: [cd1('return-status')],
  },
  {
    wire: '51 30 01 01 00 A2 9C 03 FA',
    source: 'S2',
    address: 0x51,
    tx: 0,
    transactions: [cd1('return-status')],
  },
  {
    wire: '51 35 01 01 00 A2 50 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 5,
    transactions: [cd1('return-status')],
  },
  {
    wire: '50 30 01 01 05 5F 5F 03 FA',
    source: 'S5',
    address: 0x50,
    tx: 0,
    transactions: [cd1('reset')],
  },
  {
    wire: '51 33 01 01 05 62 DB 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 3,
    transactions: [cd1('reset')],
  },
  {
    wire: '50 30 01 01 06 1F 5E 03 FA',
    source: 'S5',
    address: 0x50,
    tx: 0,
    transactions: [cd1('authorize')],
  },
  {
    wire: '51 36 01 01 06 22 16 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 6,
    transactions: [cd1('authorize')],
  },
  {
    wire: '51 3E 01 01 04 A1 B7 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 14,
    transactions: [cd1('return-filling-information')],
  },
  {
    wire: '51 3E 01 01 08 A1 B2 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 14,
    transactions: [cd1('stop')],
  },
  {
    wire: '51 32 02 01 01 92 E4 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 2,
    transactions: [{ type: 'CD2', nozzles: [1] }],
  },
  {
    wire: '51 34 02 01 01 92 6C 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 4,
    transactions: [{ type: 'CD2', nozzles: [1] }],
  },
  {
    wire: '50 34 02 02 01 02 01 01 05 70 ED 03 FA',
    source: 'S2 real-wayne-price review',
    address: 0x50,
    tx: 4,
    transactions: [{ type: 'CD2', nozzles: [1, 2] }, cd1('reset')],
  },
  {
    wire: '51 35 03 04 99 99 99 99 04 89 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 5,
    transactions: [{ type: 'CD3', volume: 99999999 }],
  },
  {
    wire: '51 3F 05 03 00 81 23 A8 07 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 15,
    transactions: [{ type: 'CD5', prices: [8123] }],
  },
  {
    wire: '52 3C 05 09 00 12 34 00 56 78 00 26 53 A9 46 03 FA',
    source: 'S3',
    address: 0x52,
    tx: 12,
    transactions: [{ type: 'CD5', prices: [1234, 5678, 2653] }],
  },
  {
    wire: '50 30 05 06 00 11 75 00 11 75 DA C7 03 FA',
    source: 'S2 review',
    address: 0x50,
    tx: 0,
    transactions: [{ type: 'CD5', prices: [1175, 1175] }],
  },
  {
    wire: '51 34 05 03 00 11 75 45 42 03 FA',
    source: 'S2 fixtures',
    address: 0x51,
    tx: 4,
    transactions: [{ type: 'CD5', prices: [1175] }],
  },
  {
    wire: '50 35 05 03 00 11 75 54 53 03 FA',
    source: 'S2 fixtures',
    address: 0x50,
    tx: 5,
    transactions: [{ type: 'CD5', prices: [1175] }],
  },
  {
    wire: '50 30 65 01 01 1F 43 03 FA',
    source: 'S5',
    address: 0x50,
    tx: 0,
    transactions: [{ type: 'CD101', counter: 1 }],
  },
  {
    wire: '51 30 65 01 01 22 83 03 FA',
    source: 'S2',
    address: 0x51,
    tx: 0,
    transactions: [{ type: 'CD101', counter: 1 }],
  },
  {
    wire: '51 31 65 01 01 23 7F 03 FA',
    source: 'S2',
    address: 0x51,
    tx: 1,
    transactions: [{ type: 'CD101', counter: 1 }],
  },
  {
    wire: '51 32 65 01 01 23 3B 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 2,
    transactions: [{ type: 'CD101', counter: 1 }],
  },
  {
    wire: '51 33 65 01 02 62 C6 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 3,
    transactions: [{ type: 'CD101', counter: 2 }],
  },
];

const dc1 = (status: string, code: number): PumpTransaction =>
  ({ type: 'DC1', status, code }) as PumpTransaction;
const dc3 = (price: number, nozzle: number, nozzleOut: boolean): PumpTransaction => ({
  type: 'DC3',
  price,
  nozzle,
  nozzleOut,
});
const counters = (counter: number, total: number, meter1: number, meter2 = 0) => ({
  counter,
  total,
  meter1,
  meter2,
});

const pump: Vector<PumpTransaction>[] = [
  {
    wire: '51 3A 03 04 00 81 23 11 26 14 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 10,
    transactions: [dc3(8123, 1, true)],
  },
  {
    wire: '51 3E 01 01 01 01 01 02 F7 4F 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 14,
    transactions: [dc1('reset', 1), dc1('authorised', 2)],
  },
  {
    wire: '51 33 01 01 01 01 01 02 2B 8F 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 3,
    transactions: [dc1('reset', 1), dc1('authorised', 2)],
  },
  {
    wire: '51 3D 01 01 01 01 01 02 01 01 02 03 04 00 81 23 11 B1 CE 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 13,
    transactions: [dc1('reset', 1), dc1('authorised', 2), dc1('authorised', 2), dc3(8123, 1, true)],
  },
  {
    wire: '51 31 01 01 04 03 04 00 81 23 11 02 08 00 00 04 28 00 00 34 77 03 04 00 81 23 11 83 55 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 1,
    transactions: [
      dc1('filling', 4),
      dc3(8123, 1, true),
      { type: 'DC2', volume: 428, amount: 3477 },
      dc3(8123, 1, true),
    ],
  },
  {
    wire: '53 30 01 01 05 03 04 00 04 97 01 02 08 00 00 24 14 00 01 20 00 95 EE 03 FA',
    source: 'S4',
    address: 0x53,
    tx: 0,
    transactions: [
      dc1('filling-completed', 5),
      dc3(497, 1, false),
      { type: 'DC2', volume: 2414, amount: 12000 },
    ],
  },
  {
    wire: '54 31 01 01 06 03 04 00 04 65 01 B5 F5 03 FA',
    source: 'S4',
    address: 0x54,
    tx: 1,
    transactions: [dc1('max-reached', 6), dc3(465, 1, false)],
  },
  {
    wire: '55 30 01 01 02 03 04 00 04 93 11 E3 60 03 FA',
    source: 'S4',
    address: 0x55,
    tx: 0,
    transactions: [dc1('authorised', 2), dc3(493, 1, true)],
  },
  {
    wire: '51 3A 02 08 00 00 00 00 00 00 00 00 03 04 00 11 75 01 01 01 05 60 27 03 FA',
    source: 'S2 crc_vectors.json',
    address: 0x51,
    tx: 10,
    transactions: [
      { type: 'DC2', volume: 0, amount: 0 },
      dc3(1175, 1, false),
      dc1('filling-completed', 5),
    ],
  },
  {
    wire: '51 39 65 10 01 00 00 42 66 33 00 00 42 66 33 00 00 00 00 00 A4 F0 03 FA',
    source: 'S3',
    address: 0x51,
    tx: 9,
    transactions: [{ type: 'DC101', ...counters(1, 426633, 426633) }],
  },
  {
    wire: '51 3D 65 10 01 00 00 00 00 02 00 00 00 00 02 00 00 00 00 00 58 F8 03 FA',
    source: 'S2',
    address: 0x51,
    tx: 13,
    transactions: [{ type: 'DC101', ...counters(1, 2, 2) }],
  },
  {
    // a literal 0x10 data byte, not an escape
    wire: '55 30 65 10 01 00 06 51 48 10 00 06 51 48 10 00 00 00 00 00 D8 B8 03 FA',
    source: 'S4',
    address: 0x55,
    tx: 0,
    transactions: [{ type: 'DC101', ...counters(1, 6514810, 6514810) }],
  },
  {
    // CRC 0xFA1E: the CRC-2 byte FA is sent as 10 FA; TRANS 0x66 of 16 bytes (the "2A" variant)
    wire: '50 30 66 10 01 00 00 58 10 71 00 00 58 10 71 00 00 00 00 00 1E 10 FA 03 FA',
    source: 'S4',
    address: 0x50,
    tx: 0,
    transactions: [{ type: 'DC102', variant: 'amount-counters', ...counters(1, 581071, 581071) }],
  },
  {
    // CRC 0xFA35, escaped
    wire: '55 30 65 10 01 01 65 87 85 25 01 65 87 85 25 00 00 00 00 00 35 10 FA 03 FA',
    source: 'S4',
    address: 0x55,
    tx: 0,
    transactions: [{ type: 'DC101', ...counters(1, 165878525, 165878525) }],
  },
  {
    // four transactions in one block; CRC 0xFA39, escaped
    wire:
      '50 3E 02 08 00 00 00 00 00 00 00 00 03 04 00 99 07 07 01 01 05 ' +
      '65 10 01 13 36 38 49 66 13 36 38 49 66 00 00 00 00 00 39 10 FA 03 FA',
    source: 'S2 application_transactions.json',
    address: 0x50,
    tx: 14,
    transactions: [
      { type: 'DC2', volume: 0, amount: 0 },
      dc3(9907, 7, false),
      dc1('filling-completed', 5),
      { type: 'DC101', ...counters(1, 1336384966, 1336384966) },
    ],
  },
];

describe('DART frames a controller sent to real pumps (§2.7)', () => {
  for (const v of controller) {
    it(`decodes ${v.wire} (${v.source}) to ${JSON.stringify(v.transactions)}`, () => {
      const frame = decodeFrame(hex(v.wire));
      if (!frame.ok || frame.value.type !== 'data') throw new Error(JSON.stringify(frame));
      expect(frame.value).toMatchObject({ address: v.address, tx: v.tx });
      expect(decodeControllerTransactions(frame.value.data)).toEqual({
        ok: true,
        value: v.transactions,
      });
    });

    it(`encodes ${JSON.stringify(v.transactions)} to pump ${v.address.toString(16)} as ${v.wire}`, () => {
      const data = encodeControllerTransactions(v.transactions);
      if (!data.ok) throw new Error(data.message);
      const wire = encodeFrame({ type: 'data', address: v.address, tx: v.tx, data: data.value });
      expect(wire.ok && toHex(wire.value)).toBe(v.wire);
    });
  }
});

describe('DART frames real pumps sent (§2.7)', () => {
  for (const v of pump) {
    it(`decodes ${v.wire} (${v.source}) to ${JSON.stringify(v.transactions)}`, () => {
      const frame = decodeFrame(hex(v.wire));
      if (!frame.ok || frame.value.type !== 'data') throw new Error(JSON.stringify(frame));
      expect(frame.value).toMatchObject({ address: v.address, tx: v.tx });
      expect(decodePumpTransactions(frame.value.data)).toEqual({ ok: true, value: v.transactions });
    });

    it(`encodes the same pump block back to ${v.wire} (the simulator's side)`, () => {
      const data = encodePumpTransactions(v.transactions);
      if (!data.ok) throw new Error(data.message);
      const wire = encodeFrame({ type: 'data', address: v.address, tx: v.tx, data: data.value });
      expect(wire.ok && toHex(wire.value)).toBe(v.wire);
    });
  }
});

describe('DART control frames seen on real lines', () => {
  it('decodes 50 70 FA as the EOT of pump 50 with TX# 0 (S2 report)', () => {
    expect(decodeFrame(hex('50 70 FA'))).toEqual({
      ok: true,
      value: { type: 'eot', address: 0x50, tx: 0 },
    });
  });
});

describe('DART frames the sources printed wrongly', () => {
  it('reports the STOP frame carrying the AUTHORIZE CRC (an S3 comment copy-paste) as a bad checksum', () => {
    expect(decodeFrame(hex('51 36 01 01 08 22 16 03 FA'))).toMatchObject({
      ok: false,
      reason: 'bad-checksum',
    });
  });

  it('reports the price block S4 logged before its escaping fix (CRC byte FA bare) as bad stuffing', () => {
    expect(decodeFrame(hex('51 30 05 03 00 05 25 4B FA 03 FA'))).toMatchObject({
      ok: false,
      reason: 'bad-stuffing',
    });
  });

  it('sends that price block with the CRC byte FA escaped as 10 FA', () => {
    const data = encodeControllerTransactions([{ type: 'CD5', prices: [525] }]);
    if (!data.ok) throw new Error(data.message);
    const wire = encodeFrame({ type: 'data', address: 0x51, tx: 0, data: data.value });
    expect(wire.ok && toHex(wire.value)).toBe('51 30 05 03 00 05 25 4B 10 FA 03 FA');
  });
});
