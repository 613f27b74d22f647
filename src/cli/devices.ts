// `loyalty-terminal devices list`, `devices decode PROTOCOL HEX|-` and `devices sim-books`.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FLAGS, parseFlags } from '../config/flags.js';
import { resolveSettings, type Settings } from '../config/settings.js';
import type { Config } from '../contract/config.js';
import { parseHex } from '../devices/bytes.js';
import { decodeCapture, type DecodeProtocol, PROTOCOLS } from '../devices/decode.js';
import { listSerialPorts } from '../devices/serial.js';
import { readConcertSimBooks, readZvtSimBooks, SIMULATOR_DIR } from '../devices/sim/state-file.js';
import { openTcp } from '../devices/tcp.js';
import { refuseUsage, type CliIO } from './io.js';

const DEVICES_HELP = `loyalty-terminal devices: serial devices and their captures

Usage:
  loyalty-terminal devices list [--data DIR] [--config FILE]
      ports the system enumerates (or why it cannot) and the configured devices with their state
  loyalty-terminal devices decode PROTOCOL HEX|-
      a captured frame as JSON; exit 1 with the reason when it does not parse
      PROTOCOL: ${PROTOCOLS.join(', ')}
  loyalty-terminal devices sim-books [--data DIR] [--config FILE]
      the simulated payment units' books (DIR/${SIMULATOR_DIR}) as JSON: every approved
      operation with amount, receipt, kind and whether reversed; read-only
`;

/**
 * The settings of `list` and `sim-books`: the agent's configuration and data directory
 * (`terminal.data_dir` honoured), so they show what the terminal there runs with. Null when
 * refused, the reason already on stderr.
 */
async function settingsOf(sub: string, args: string[], io: CliIO): Promise<Settings | null> {
  const parsed = parseFlags(args, DATA_FLAGS);
  if (!parsed.ok) {
    refuseUsage(io, `devices ${sub}`, parsed.message, DEVICES_HELP);
    return null;
  }
  if (parsed.positionals.length > 0) {
    refuseUsage(io, `devices ${sub}`, `unknown argument "${parsed.positionals[0]}"`, DEVICES_HELP);
    return null;
  }
  const resolved = await resolveSettings(parsed.values, { readText: (f) => io.readInput(f) });
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return null;
  }
  return resolved.settings;
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
  const settings = await settingsOf('list', args, io);
  if (!settings) return 2;
  const listed = await listSerialPorts();
  const ports = listed.ok
    ? {
        enumerated: true,
        ports: listed.ports,
        note: 'pseudo-terminals (ptys) are never listed; udev is needed on Linux',
      }
    : { enumerated: false, reason: `cannot enumerate serial ports: ${listed.reason}` };
  const devices = [];
  for (const [name, d] of Object.entries(settings.config.devices)) {
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
  const source = settings.configFile ?? 'embedded default';
  io.stdout(`${JSON.stringify({ config: source, ports, devices }, null, 2)}\n`);
  return 0;
}

async function decode(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, {});
  if (!parsed.ok) return refuseUsage(io, 'devices decode', parsed.message, DEVICES_HELP);
  const [protocol, ...rest] = parsed.positionals;
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

async function simBooks(args: string[], io: CliIO): Promise<number> {
  const settings = await settingsOf('sim-books', args, io);
  if (!settings) return 2;
  const dir = join(settings.dataDir, SIMULATOR_DIR);
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
