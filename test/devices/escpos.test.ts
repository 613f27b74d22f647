import { describe, expect, it } from 'vitest';
import { ascii, concatBytes, toHex } from '../../src/devices/bytes.js';
import * as c from '../../src/devices/escpos/commands.js';
import { decodeEscPos, decodePreview } from '../../src/devices/escpos/decode.js';
import { EscPosPrinter } from '../../src/devices/escpos/printer.js';
import { renderReceipt, wrap } from '../../src/devices/escpos/receipt.js';
import { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { MemoryLink } from '../../src/devices/link.js';

describe('ESC/POS vectors of devices.md', () => {
  it('encodes the QR "1234" with default model, size and correction', () => {
    expect(toHex(c.qr('1234'))).toBe(
      '1D 28 6B 04 00 31 41 32 00 1D 28 6B 03 00 31 43 03 1D 28 6B 03 00 31 45 30 1D 28 6B 07 00 31 50 30 31 32 33 34 1D 28 6B 03 00 31 51 30',
    );
  });

  it('encodes initialise, bold, align, size and full cut', () => {
    expect(toHex(c.init())).toBe('1B 40');
    expect(toHex(c.bold(true))).toBe('1B 45 01');
    expect(toHex(c.bold(false))).toBe('1B 45 00');
    expect(toHex(c.align('center'))).toBe('1B 61 01');
    expect(toHex(c.size(2, 2))).toBe('1D 21 11');
    expect(toHex(c.cut())).toBe('1D 56 00');
  });

  it('encodes the drawer pulse on pin 2, 50 ms on and 500 ms off', () => {
    expect(toHex(c.drawerPulse())).toBe('1B 70 00 19 FA');
    expect(toHex(c.drawerPulse(5, 100, 200))).toBe('1B 70 01 32 64');
  });

  it('encodes a CODE128 barcode in code set B with its height, width and text below', () => {
    expect(toHex(c.barcode('AB'))).toBe('1D 68 50 1D 77 02 1D 48 02 1D 6B 49 04 7B 42 41 42');
  });
});

describe('the ESC/POS decoder', () => {
  it('reads back every command the encoder writes, in order', () => {
    const bytes = concatBytes([
      c.init(),
      c.drawerPulse(),
      c.bold(true),
      c.align('center'),
      c.size(2, 2),
      c.line('COPY'),
      c.size(1, 1),
      c.bold(false),
      c.barcode('CPN-1'),
      c.qr('https://fb.example/x'),
      c.feed(),
      c.cut(),
    ]);
    const d = decodeEscPos(bytes);
    expect(d).toEqual({
      ok: true,
      value: [
        { cmd: 'init' },
        { cmd: 'drawer-pulse', pin: 2, on_ms: 50, off_ms: 500 },
        { cmd: 'bold', on: true },
        { cmd: 'align', align: 'center' },
        { cmd: 'size', width: 2, height: 2 },
        { cmd: 'text', text: 'COPY' },
        { cmd: 'feed' },
        { cmd: 'size', width: 1, height: 1 },
        { cmd: 'bold', on: false },
        { cmd: 'barcode-height', dots: 80 },
        { cmd: 'barcode-width', dots: 2 },
        { cmd: 'barcode-hri', position: 2 },
        { cmd: 'barcode', symbology: 'CODE128', data: 'CPN-1' },
        { cmd: 'qr-model', model: 2 },
        { cmd: 'qr-size', size: 3 },
        { cmd: 'qr-correction', level: 'L' },
        { cmd: 'qr-store', data: 'https://fb.example/x' },
        { cmd: 'qr-print' },
        { cmd: 'feed' },
        { cmd: 'cut' },
      ],
    });
  });

  it('lays the bytes out as the paper shows them: styled lines, QR, barcode, drawer and cut', () => {
    const bytes = concatBytes([
      c.init(),
      c.drawerPulse(),
      c.align('center'),
      c.bold(true),
      c.size(2, 2),
      c.line('COPY'),
      c.size(1, 1),
      c.bold(false),
      c.align('left'),
      c.line('Coffee'),
      c.feed(),
      c.barcode('CPN-1'),
      c.qr('https://fb.example/x'),
      c.text('tail'),
      c.cut(),
    ]);
    expect(decodePreview(bytes, 32)).toEqual({
      ok: true,
      value: {
        width: 32,
        rows: [
          { kind: 'drawer', pin: 2 },
          { kind: 'text', text: 'COPY', align: 'center', bold: true, large: true },
          { kind: 'text', text: 'Coffee', align: 'left', bold: false, large: false },
          { kind: 'text', text: '', align: 'left', bold: false, large: false },
          { kind: 'barcode', symbology: 'CODE128', data: 'CPN-1' },
          { kind: 'qr', data: 'https://fb.example/x' },
          { kind: 'text', text: 'tail', align: 'left', bold: false, large: false },
          { kind: 'cut' },
        ],
      },
    });
  });

  it('reads a barcode of function A up to its NUL and a CODE128 in code set C as digits', () => {
    const a = Uint8Array.of(0x1d, 0x6b, 0x02, ...ascii('4006381333931'), 0x00);
    const cset = Uint8Array.of(0x1d, 0x6b, 0x49, 0x04, 0x7b, 0x43, 12, 3);
    expect(decodeEscPos(concatBytes([a, cset]))).toEqual({
      ok: true,
      value: [
        { cmd: 'barcode', symbology: 'EAN13', data: '4006381333931' },
        { cmd: 'barcode', symbology: 'CODE128', data: '1203' },
      ],
    });
  });

  it('refuses a drawer pulse on a pin that does not exist', () => {
    expect(decodeEscPos(Uint8Array.of(0x1b, 0x70, 0x07, 0x19, 0xfa))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });
});

const receipt = {
  items: [
    {
      title: 'AI-95',
      quantity: '30.00',
      price: '1.90',
      amount: '57.00',
      discounts: [{ rule: 'Fuel Tuesday', amount: '1.50' }],
      bonuses: [{ rule: 'Base earn 2%', amount: '1.11' }],
    },
  ],
  total: '55.50',
  balances: [{ title: 'Bonuses', value: '120.11' }],
  transaction_id: '018f0000-0000-7000-8000-00000000abcd',
  offline: true,
  feedback: { print: 'qr-code' as const, url: 'https://fb.example/x1' },
};

describe('receipts', () => {
  it('carries lines, discounts and bonuses by rule, balances, the transaction id and the offline mark', () => {
    const d = decodeEscPos(renderReceipt(receipt));
    expect(d.ok).toBe(true);
    const text = d.ok
      ? d.value
          .filter((x) => x.cmd === 'text')
          .map((x) => (x as { text: string }).text)
          .join('\n')
      : '';
    expect(text).toContain('*** OFFLINE ***');
    expect(text).toContain('Fuel Tuesday');
    expect(text).toContain('Base earn 2%');
    expect(text).toContain('120.11');
    expect(text).toContain('018f0000-0000-7000-8000-00000000abcd');
  });

  it('prints the feedback QR only when print_feedback_on_check asks for it', () => {
    const withQr = decodeEscPos(renderReceipt(receipt));
    expect(
      withQr.ok &&
        withQr.value.some((x) => x.cmd === 'qr-store' && x.data === 'https://fb.example/x1'),
    ).toBe(true);
    const none = decodeEscPos(
      renderReceipt({ ...receipt, feedback: { print: 'none', url: 'https://fb.example/x1' } }),
    );
    expect(none.ok && none.value.some((x) => x.cmd === 'qr-store')).toBe(false);
  });

  it('wraps free text at spaces, splitting only a word wider than the line', () => {
    expect(wrap('Recorded offline; confirmed later.', 24)).toEqual([
      'Recorded offline;',
      'confirmed later.',
    ]);
    expect(wrap('https://fb.example/abcdefghij', 12)).toEqual([
      'https://fb.e',
      'xample/abcde',
      'fghij',
    ]);
    expect(wrap('', 24)).toEqual(['']);
  });

  it('never puts control bytes from data on paper', () => {
    expect(toHex(c.text('a\u001bb\u00e9'))).toBe('61 3F 62 65');
  });

  it('reports a command cut off as truncated', () => {
    expect(decodeEscPos(Uint8Array.of(0x1d, 0x28, 0x6b, 0x07, 0x00, 0x31))).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });

  it('opens the drawer first when cash was tendered, and never on a copy', () => {
    const pulses = (doc: typeof receipt & { drawer: boolean; copy?: boolean }) => {
      const d = decodeEscPos(renderReceipt(doc));
      return d.ok ? d.value.filter((x) => x.cmd === 'drawer-pulse') : null;
    };
    expect(pulses({ ...receipt, drawer: true })).toHaveLength(1);
    expect(pulses({ ...receipt, drawer: true, copy: true })).toHaveLength(0);
    expect(pulses({ ...receipt, drawer: false })).toHaveLength(0);
  });

  it('prints an emitted coupon with a barcode of its code, and a QR when too long for one', () => {
    const long = 'COUPON-0123456789-ABCDEFGHIJ';
    const d = decodeEscPos(
      renderReceipt({
        ...receipt,
        coupons_emitted: [
          { code: 'ST7-000001', title: 'A free coffee', expire: '2027-03-01' },
          { code: long },
        ],
      }),
    );
    const cmds = d.ok ? d.value : [];
    const text = cmds.flatMap((x) => (x.cmd === 'text' ? [x.text] : []));
    expect(text).toEqual(
      expect.arrayContaining([
        'Your coupon: A free coffee',
        'Code ST7-000001',
        'Valid until 2027-03-01',
      ]),
    );
    expect(cmds).toContainEqual({ cmd: 'barcode', symbology: 'CODE128', data: 'ST7-000001' });
    expect(cmds).toContainEqual({ cmd: 'qr-store', data: long });
  });

  it('prints through the printer driver to the simulator after a status check', async () => {
    const [a, b] = MemoryLink.pair();
    const sim = new PrinterSimulator();
    sim.attach(b);
    const printer = new EscPosPrinter(a, { status_ms: 300 });
    await printer.print(receipt);
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.receipts).toHaveLength(1);
    expect(sim.receipts[0]?.qr).toEqual(['https://fb.example/x1']);
    await printer.print({ ...receipt, offline: false, drawer: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.receipts[1]?.drawer).toBe(1);
    expect(sim.drawerOpened).toBe(1);
    sim.offline = true;
    await expect(printer.print(receipt)).rejects.toThrow(/offline/);
  });
});
