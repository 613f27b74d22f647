import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { runDevices } from '../../src/cli/devices.js';
import { encodeMessage } from '../../src/devices/concert/frame.js';

describe('loyalty-terminal devices decode', () => {
  it('prints a ZVT serial frame as JSON', async () => {
    const io = memoryIO();
    expect(
      await runDevices(
        ['decode', 'zvt-serial', '10 02 06 01 0A 04 00 00 00 01 10 10 00 49 09 78 10 03 F2 FF'],
        io,
      ),
    ).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({
      protocol: 'zvt-serial',
      apdu: {
        name: 'authorisation',
        fields: [
          { name: 'amount', value: 11000 },
          { name: 'currency', value: 978 },
        ],
      },
    });
  });

  it('exits 1 with the reason for a bad checksum, bad stuffing and a truncated frame', async () => {
    for (const [hex, reason] of [
      ['10 02 80 00 00 10 03 F5 1E', 'bad-checksum'],
      ['10 02 06 01 0A 04 00 00 00 01 10 00 49 09 78 10 03 F2 FF', 'bad-stuffing'],
      ['10 02 80 00 00 10 03', 'truncated'],
    ] as const) {
      const io = memoryIO();
      expect(await runDevices(['decode', 'zvt-serial', hex], io)).toBe(1);
      expect(io.err).toMatch(new RegExp(`^${reason}:`));
    }
  });

  // S3's captured block (docs/forecourt.md): pump 2, DC3 price 00 81 23 = 8.123 (3 decimals), nozzle 1 out, DC2, DC3.
  const DART_BLOCK =
    '51 31 01 01 04 03 04 00 81 23 11 02 08 00 00 04 28 00 00 34 77 03 04 00 81 23 11 83 55 03 FA';

  it('decodes a DART block: address, control and every transaction with its values', async () => {
    const io = memoryIO();
    expect(await runDevices(['decode', 'dart', DART_BLOCK], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({
      protocol: 'dart',
      address: '51',
      pump: 2,
      control: 'data',
      tx: 1,
      from_pump: [
        { type: 'DC1', status: 'filling', code: 4 },
        { type: 'DC3', price: 8123, unit_price: '8.123', nozzle: 1, nozzleOut: true },
        { type: 'DC2', volume: 428, amount: 3477, volume_l: '4.28', amount_value: '34.77' },
        { type: 'DC3', price: 8123, nozzle: 1, nozzleOut: true },
      ],
    });
  });

  it('decodes a DART control frame', async () => {
    const io = memoryIO();
    expect(await runDevices(['decode', 'dart', '50 70 FA'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({
      protocol: 'dart',
      address: '50',
      pump: 1,
      control: 'eot',
      tx: 0,
    });
  });

  it('refuses a DART block with a bad CRC, naming it', async () => {
    const io = memoryIO();
    const bad = DART_BLOCK.replace('83 55 03 FA', '83 56 03 FA');
    expect(await runDevices(['decode', 'dart', bad], io)).toBe(1);
    expect(io.err).toMatch(/^bad-checksum: CRC/);
  });

  it('reads the frame from standard input with -', async () => {
    const io = memoryIO({}, '01 39 39 39 39 46 46 31 42 03\n');
    expect(await runDevices(['decode', 'tls', '-'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({ protocol: 'tls', unsupported: true });
  });

  it('masks a bank card in a decoded swipe', async () => {
    const text = ';5350290149345177=16042010000056700100?';
    const hex = Buffer.from(`\u0002${text}\r\u0003`, 'latin1').toString('hex');
    const io = memoryIO();
    expect(await runDevices(['decode', 'msr', hex], io)).toBe(0);
    expect(io.out).not.toContain('5350290149345177');
    expect(JSON.parse(io.out)).toMatchObject({
      bank_card: true,
      recognition: { kind: 'bank-card', masked: '535029******5177' },
    });
  });

  it('decodes scanner, zvt-tcp, concert and escpos captures', async () => {
    const cases: [string, string][] = [
      ['scanner', Buffer.from(']E02112345678900\r').toString('hex')],
      ['zvt-tcp', '80 00 00'],
      ['concert', Buffer.from(encodeMessage('0100001234110978REF0000001A010B010')).toString('hex')],
      ['escpos', '1B 40 1B 45 01 41 0A 1D 56 00'],
    ];
    for (const [p, hex] of cases) {
      const io = memoryIO();
      const code = await runDevices(['decode', p, hex], io);
      expect(code, io.err).toBe(0);
    }
  });

  it('exits 2 for an unknown protocol or input that is not hex', async () => {
    expect(await runDevices(['decode', 'modbus', '00'], memoryIO())).toBe(2);
    expect(await runDevices(['decode', 'zvt-tcp', 'xyz'], memoryIO())).toBe(2);
  });
});

describe('loyalty-terminal devices list', () => {
  it('lists the simulated devices of the embedded default and says what the system enumerates', async () => {
    const io = memoryIO();
    // A data directory without config.json: the embedded default, as the agent there runs.
    const dir = mkdtempSync(join(tmpdir(), 'lt-devices-'));
    expect(await runDevices(['list', '--data', dir], io)).toBe(0);
    const out = JSON.parse(io.out) as {
      config: string;
      devices: { name: string; state: string }[];
      ports: { enumerated: boolean };
    };
    expect(out.devices.map((d) => [d.name, d.state])).toEqual([
      ['card_reader', 'simulated'],
      ['scanner', 'simulated'],
      ['payment', 'simulated'],
      ['printer', 'simulated'],
      ['tank_gauge', 'simulated'],
      ['pumps', 'simulated'],
    ]);
    expect(typeof out.ports.enumerated).toBe('boolean');
    expect(out.config).toBe('embedded default');
  });

  // Before, list alone fell back to the embedded default for a --config FILE that is not
  // there; the agent refuses it, and so does every command now (src/config/settings.ts).
  it('refuses a --config FILE that is not there with exit 2, as the agent does', async () => {
    const io = memoryIO();
    expect(await runDevices(['list', '--config', '/nonexistent/config.json'], io)).toBe(2);
    expect(io.err).toMatch(/^cannot read \/nonexistent\/config\.json: /);
    expect(io.out).toBe('');
  });

  it('reports a configured serial device whose path is absent', async () => {
    const config = JSON.stringify({ devices: { printer: { path: '/dev/does-not-exist' } } });
    const io = memoryIO({ 'c.json': config });
    expect(await runDevices(['list', '--config', 'c.json'], io)).toBe(0);
    expect(JSON.parse(io.out).devices).toMatchObject([
      { name: 'printer', transport: 'serial', state: 'absent', line: '9600 8N1' },
    ]);
  });
});
