import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/devices/bytes.js';
import * as c from '../../src/devices/escpos/commands.js';
import { decodeEscPos } from '../../src/devices/escpos/decode.js';
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

  it('prints through the printer driver to the simulator after a status check', async () => {
    const [a, b] = MemoryLink.pair();
    const sim = new PrinterSimulator();
    sim.attach(b);
    const printer = new EscPosPrinter(a, { status_ms: 300 });
    await printer.print(receipt);
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.receipts).toHaveLength(1);
    expect(sim.receipts[0]?.qr).toEqual(['https://fb.example/x1']);
    sim.offline = true;
    await expect(printer.print(receipt)).rejects.toThrow(/offline/);
  });
});
