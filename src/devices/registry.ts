// Builds the configured devices: real ones on their serial line or TCP peer (reopened on their
// own after an unplug), simulated ones on an in-memory line to their simulator. The embedded
// default (no `devices` block) simulates every device.
import { join } from 'node:path';
import type { Config, DeviceConfig } from '../contract/config.js';
import { CardReader } from './card-reader.js';
import { ConcertUnit } from './concert/driver.js';
import { ConcertSimulator } from './concert/simulator.js';
import { EscPosPrinter } from './escpos/printer.js';
import { PrinterSimulator } from './escpos/simulator.js';
import type { LineFraming } from './line-framer.js';
import { type ByteLink, ManagedLink, MemoryLink } from './link.js';
import type { PaymentUnit } from './payment-unit.js';
import { Recognizer, type RecognitionConfig } from './recognition.js';
import { openSerial } from './serial.js';
import type { Simulator } from './sim/host.js';
import { CONCERT_SIM_FILE, ZVT_SIM_FILE } from './sim/state-file.js';
import { ReaderSimulator } from './sim/reader-simulator.js';
import { DeviceStates } from './states.js';
import { openTcp } from './tcp.js';
import { TlsGauge } from './tls/driver.js';
import { TlsSimulator } from './tls/simulator.js';
import { ZvtUnit } from './zvt/driver.js';
import { ZvtSimulator } from './zvt/simulator.js';

export type DeviceName = keyof Config['devices'];

export interface DeviceSet {
  cardReader: CardReader | null;
  scanner: CardReader | null;
  payment: PaymentUnit | null;
  printer: EscPosPrinter | null;
  tankGauge: TlsGauge | null;
  states: DeviceStates;
  /** The simulators behind simulated devices, for the demo UI and tests. */
  simulators: Partial<Record<DeviceName, Simulator>>;
  close(): Promise<void>;
}

export interface RegistryOptions {
  recognition?: Partial<RecognitionConfig>;
  /** Overrides `devices.payment.zvt_password` (the configured value is the default). */
  zvtPassword?: string;
  /** Overrides `devices.payment.currency` (the configured value is the default). */
  currency?: string;
  /**
   * Where simulated payment units keep their books (DIR/simulators for a terminal), so a
   * killed process meets the same unit again; none: in memory, gone with the process.
   */
  simulatorDir?: string;
}

function openerFor(d: DeviceConfig) {
  if (d.transport === 'tcp') {
    const host = d.host ?? '127.0.0.1';
    const port = d.port ?? 0;
    return () => openTcp(host, port, d.timeouts.ack_ms);
  }
  const path = d.path ?? '';
  return () =>
    openSerial({
      path,
      baudRate: d.baud_rate,
      dataBits: d.data_bits,
      parity: d.parity,
      stopBits: d.stop_bits,
    });
}

function managedLink(d: DeviceConfig): ManagedLink {
  return new ManagedLink(openerFor(d), {
    reconnectMinMs: d.timeouts.reconnect_min_ms,
    reconnectMaxMs: d.timeouts.reconnect_max_ms,
    livenessMs: d.timeouts.reconnect_min_ms,
  });
}

function lineFraming(d: DeviceConfig, fallback: LineFraming): LineFraming {
  return d.framing === 'protocol' ? fallback : d.framing;
}

export function createDevices(
  devices: Config['devices'],
  options: RegistryOptions = {},
): DeviceSet {
  const states = new DeviceStates();
  const recognizer = new Recognizer(options.recognition ?? {});
  const simulators: DeviceSet['simulators'] = {};
  const links: ByteLink[] = [];
  const closers: (() => void | Promise<void>)[] = [];
  const simFile = (name: string) =>
    options.simulatorDir === undefined ? null : join(options.simulatorDir, name);

  const wire = (name: DeviceName, d: DeviceConfig, simulator: () => Simulator): ByteLink => {
    let link: ByteLink;
    if (d.simulated) {
      const [ours, theirs] = MemoryLink.pair();
      const sim = simulator();
      sim.attach(theirs);
      simulators[name] = sim;
      link = ours;
    } else link = managedLink(d);
    const address = d.simulated
      ? null
      : d.transport === 'tcp'
        ? `${d.host}:${d.port}`
        : (d.path ?? null);
    const transport = d.simulated ? 'simulated' : d.transport;
    states.set({ name, protocol: d.protocol, transport, address, state: link.state, detail: null });
    link.onState((state, detail) =>
      states.set({ name, protocol: d.protocol, transport, address, state, detail }),
    );
    links.push(link);
    link.start();
    return link;
  };

  let cardReader: CardReader | null = null;
  if (devices.card_reader) {
    const d = devices.card_reader;
    const framing = lineFraming(d, 'stx-etx');
    cardReader = new CardReader(
      wire('card_reader', d, () => new ReaderSimulator(framing)),
      {
        kind: 'msr',
        framing,
        interByteMs: d.timeouts.inter_byte_ms,
        recognizer,
      },
    );
    closers.push(() => cardReader?.close());
  }
  let scanner: CardReader | null = null;
  if (devices.scanner) {
    const d = devices.scanner;
    const framing = lineFraming(d, 'cr');
    scanner = new CardReader(
      wire('scanner', d, () => new ReaderSimulator(framing)),
      {
        kind: 'scanner',
        framing,
        interByteMs: d.timeouts.inter_byte_ms,
        recognizer,
      },
    );
    closers.push(() => scanner?.close());
  }
  let payment: PaymentUnit | null = null;
  if (devices.payment) {
    const d = devices.payment;
    const transport = d.simulated ? 'serial' : d.transport;
    if (d.protocol === 'zvt') {
      const link = wire(
        'payment',
        d,
        () =>
          new ZvtSimulator({
            transport,
            ackMs: d.timeouts.ack_ms,
            stateFile: simFile(ZVT_SIM_FILE),
          }),
      );
      payment = new ZvtUnit(link, {
        transport,
        timeouts: d.timeouts,
        recognizer,
        password: options.zvtPassword ?? d.zvt_password,
        configByte: d.zvt_config_byte,
        currency: options.currency ?? d.currency,
        maxRetries: d.max_retries,
      });
    } else {
      const link = wire(
        'payment',
        d,
        () => new ConcertSimulator(d.timeouts.ack_ms, simFile(CONCERT_SIM_FILE)),
      );
      payment = new ConcertUnit(link, {
        timeouts: d.timeouts,
        pos: d.pos_number,
        maxRetries: d.max_retries,
      });
    }
    closers.push(() => payment?.close());
  }
  let printer: EscPosPrinter | null = null;
  if (devices.printer) {
    const d = devices.printer;
    printer = new EscPosPrinter(
      wire('printer', d, () => new PrinterSimulator()),
      { status_ms: d.timeouts.ack_ms, width: d.line_width },
    );
    closers.push(() => printer?.close());
  }
  let tankGauge: TlsGauge | null = null;
  if (devices.tank_gauge) {
    const d = devices.tank_gauge;
    tankGauge = new TlsGauge(
      wire('tank_gauge', d, () => new TlsSimulator()),
      { timeouts: d.timeouts },
    );
    closers.push(() => tankGauge?.close());
  }
  return {
    cardReader,
    scanner,
    payment,
    printer,
    tankGauge,
    states,
    simulators,
    close: async () => {
      for (const c of closers) await c();
      for (const l of links) await l.stop();
    },
  };
}
