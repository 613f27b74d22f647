// `loyalty-terminal devices list`, `devices decode PROTOCOL HEX|-` and `devices sim-books`.
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Config, ConfigSchema, parseConfig } from '../contract/config.js';
import { parseHex } from '../devices/bytes.js';
import { decodeCapture, type DecodeProtocol, PROTOCOLS } from '../devices/decode.js';
import { listSerialPorts } from '../devices/serial.js';
import { readConcertSimBooks, readZvtSimBooks, SIMULATOR_DIR } from '../devices/sim/state-file.js';
import { openTcp } from '../devices/tcp.js';
import type { CliIO } from './io.js';

export const DEVICES_HELP = `loyalty-terminal devices: serial devices and their captures

Usage:
  loyalty-terminal devices list [--data DIR] [--config FILE]
      ports the system enumerates (or why it cannot) and the configured devices with their state
  loyalty-terminal devices decode PROTOCOL HEX|-
      a captured frame as JSON; exit 1 with the reason when it does not parse
      PROTOCOL: ${PROTOCOLS.join(', ')}
  loyalty-terminal devices sim-books [--data DIR]
      the simulated payment units' books (DIR/${SIMULATOR_DIR}) as JSON: every approved
      operation with amount, receipt, kind and whether reversed; read-only
`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function loadConfig(
  args: string[],
  io: CliIO,
): Promise<{ ok: true; config: Config; source: string } | { ok: false; message: string }> {
  const file =
    flag(args, '--config') ??
    join(flag(args, '--data') ?? join(homedir(), '.loyalty-terminal'), 'config.json');
  let text: string;
  try {
    text = await io.readInput(file);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT')
      return { ok: true, config: ConfigSchema.parse({}), source: 'embedded default' };
    return { ok: false, message: `cannot read ${file}: ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `${file}: ${(e as Error).message}` };
  }
  const parsed = parseConfig(json);
  if (!parsed.ok)
    return { ok: false, message: parsed.errors.map((e) => `${e.path}: ${e.message}`).join('\n') };
  return { ok: true, config: parsed.config, source: file };
}

async function probe(d: NonNullable<Config['devices'][keyof Config['devices']]>): Promise<string> {
  if (d.simulated) return 'simulated';
  if (d.transport === 'serial') {
    try {
      await stat(d.path ?? '');
      return 'present';
    } catch {
      return 'absent';
    }
  }
  try {
    const conn = await openTcp(d.host ?? '', d.port ?? 0, Math.min(d.timeouts.ack_ms, 2_000));
    await conn.close();
    return 'reachable';
  } catch {
    return 'unreachable';
  }
}

async function list(args: string[], io: CliIO): Promise<number> {
  const cfg = await loadConfig(args, io);
  if (!cfg.ok) {
    io.stderr(`${cfg.message}\n`);
    return 2;
  }
  const listed = await listSerialPorts();
  const ports = listed.ok
    ? {
        enumerated: true,
        ports: listed.ports,
        note: 'pseudo-terminals (ptys) are never listed; udev is needed on Linux',
      }
    : { enumerated: false, reason: `cannot enumerate serial ports: ${listed.reason}` };
  const devices = [];
  for (const [name, d] of Object.entries(cfg.config.devices)) {
    if (!d) continue;
    devices.push({
      name,
      protocol: d.protocol,
      transport: d.simulated ? 'simulated' : d.transport,
      address: d.simulated
        ? null
        : d.transport === 'tcp'
          ? `${d.host}:${d.port}`
          : (d.path ?? null),
      line:
        d.simulated || d.transport === 'tcp'
          ? null
          : `${d.baud_rate} ${d.data_bits}${d.parity[0]?.toUpperCase()}${d.stop_bits}`,
      framing: d.framing,
      state: await probe(d),
    });
  }
  io.stdout(`${JSON.stringify({ config: cfg.source, ports, devices }, null, 2)}\n`);
  return 0;
}

async function decode(args: string[], io: CliIO): Promise<number> {
  const [protocol, ...rest] = args;
  if (protocol === undefined || !(PROTOCOLS as readonly string[]).includes(protocol)) {
    io.stderr(`unknown protocol "${protocol ?? ''}"; one of ${PROTOCOLS.join(', ')}\n`);
    return 2;
  }
  if (rest.length === 0) {
    io.stderr('give the frame as hex, or - to read it from standard input\n');
    return 2;
  }
  let text: string;
  try {
    text = rest.length === 1 && rest[0] === '-' ? await io.readInput('-') : rest.join(' ');
  } catch (e) {
    io.stderr(`cannot read standard input: ${(e as Error).message}\n`);
    return 2;
  }
  const bytes = parseHex(text.trim());
  if (bytes === null) {
    io.stderr('not hex: give whole bytes such as "10 02 80 00 00 10 03 F5 1F"\n');
    return 2;
  }
  const r = decodeCapture(protocol as DecodeProtocol, bytes);
  if (!r.ok) {
    io.stderr(`${r.reason}: ${r.message}\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify(r.value, null, 2)}\n`);
  return 0;
}

function simBooks(args: string[], io: CliIO): number {
  const dir = join(flag(args, '--data') ?? join(homedir(), '.loyalty-terminal'), SIMULATOR_DIR);
  const zvt = readZvtSimBooks(dir);
  const concert = readConcertSimBooks(dir);
  for (const r of [zvt, concert])
    if (!r.ok) {
      io.stderr(`${r.message}\n`);
      return 1;
    }
  const books = (r: typeof zvt | typeof concert) => (r.ok ? r.books : []);
  io.stdout(`${JSON.stringify({ dir, zvt: books(zvt), concert: books(concert) }, null, 2)}\n`);
  return 0;
}

export async function runDevices(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') return list(rest, io);
  if (sub === 'decode') return decode(rest, io);
  if (sub === 'sim-books') return simBooks(rest, io);
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(DEVICES_HELP);
    return 0;
  }
  io.stderr(DEVICES_HELP);
  return 2;
}
