// Builds the configured devices: real ones on their serial line or TCP peer (reopened on their
// own after an unplug), simulated ones on an in-memory line to their simulator. The embedded
// default (no `devices` block) simulates every device.
import { join } from 'node:path';
import type { Config, DeviceConfig } from '../contract/config.js';
import { CardReader } from './card-reader.js';
import { ConcertUnit } from './concert/driver.js';
import { ConcertSimulator } from './concert/simulator.js';
import { DartMaster } from './dart/master.js';
import { DartSimulator } from './dart/simulator.js';
import { EscPosPrinter } from './escpos/printer.js';
import { PrinterSimulator } from './escpos/simulator.js';
import type { LineFraming } from './line-framer.js';
import { type ByteLink, ManagedLink, MemoryLink } from './link.js';
import type { PaymentUnit } from './payment-unit.js';
import { type CatalogLookup, Recognizer, type RecognitionConfig } from './recognition.js';
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
  /** The forecourt port of the pumps' line (DART), polling from the start. */
  pumps: DartMaster | null;
  states: DeviceStates;
  /** The simulators behind simulated devices, for the demo UI and tests. */
  simulators: Partial<Record<DeviceName, Simulator>>;
  close(): Promise<void>;
}

export interface RegistryOptions {
  recognition?: Partial<RecognitionConfig>;
  /** Whether the POS catalogue lists a scanned barcode: such a scan is a good's. */
  catalog?: CatalogLookup;
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

type Devices = Config['devices'];

/** What building the devices gathers: their states, simulators, links and what closes them. */
interface Wiring {
  states: DeviceStates;
  recognizer: Recognizer;
  simulators: DeviceSet['simulators'];
  links: ByteLink[];
  closers: (() => void | Promise<void>)[];
  options: RegistryOptions;
}

export function createDevices(devices: Devices, options: RegistryOptions = {}): DeviceSet {
  const w: Wiring = {
    states: new DeviceStates(),
    recognizer: new Recognizer(options.recognition ?? {}, options.catalog),
    simulators: {},
    links: [],
    closers: [],
    options,
  };
  // Built in this order, and closed in it.
  const cardReader = devices.card_reader
    ? createReader(w, 'card_reader', devices.card_reader, 'msr', 'stx-etx')
    : null;
  const scanner = devices.scanner
    ? createReader(w, 'scanner', devices.scanner, 'scanner', 'cr')
    : null;
  const payment = devices.payment ? createPayment(w, devices.payment) : null;
  const printer = devices.printer ? createPrinter(w, devices.printer) : null;
  const tankGauge = devices.tank_gauge ? createTankGauge(w, devices.tank_gauge) : null;
  const pumps = devices.pumps ? createPumps(w, devices.pumps) : null;
  return {
    cardReader,
    scanner,
    payment,
    printer,
    tankGauge,
    pumps,
    states: w.states,
    simulators: w.simulators,
    close: async () => {
      for (const c of w.closers) await c();
      for (const l of w.links) await l.stop();
    },
  };
}

/** The device's link, started and watched: to a fresh simulator when simulated, else its line. */
function wire(w: Wiring, name: DeviceName, d: DeviceConfig, simulator: () => Simulator): ByteLink {
  const link = d.simulated ? simulatedLink(w, name, simulator) : managedLink(d);
  trackState(w.states, name, d, link);
  w.links.push(link);
  link.start();
  return link;
}

function simulatedLink(w: Wiring, name: DeviceName, simulator: () => Simulator): ByteLink {
  const [ours, theirs] = MemoryLink.pair();
  const sim = simulator();
  sim.attach(theirs);
  w.simulators[name] = sim;
  return ours;
}

/** Mirrors the link's state into `states`, with where the device is. */
function trackState(states: DeviceStates, name: DeviceName, d: DeviceConfig, link: ByteLink) {
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
}

/** A card reader or a scanner: both are line devices read by a CardReader. */
function createReader(
  w: Wiring,
  name: 'card_reader' | 'scanner',
  d: DeviceConfig,
  kind: 'msr' | 'scanner',
  fallback: LineFraming,
): CardReader {
  const framing = lineFraming(d, fallback);
  const reader = new CardReader(
    wire(w, name, d, () => new ReaderSimulator(framing)),
    { kind, framing, interByteMs: d.timeouts.inter_byte_ms, recognizer: w.recognizer },
  );
  w.closers.push(() => reader.close());
  return reader;
}

function createPayment(w: Wiring, d: NonNullable<Devices['payment']>): PaymentUnit {
  const payment = d.protocol === 'zvt' ? createZvt(w, d) : createConcert(w, d);
  w.closers.push(() => payment.close());
  return payment;
}

function createZvt(w: Wiring, d: NonNullable<Devices['payment']>): PaymentUnit {
  // A simulated unit speaks the serial framing.
  const transport = d.simulated ? 'serial' : d.transport;
  const link = wire(
    w,
    'payment',
    d,
    () =>
      new ZvtSimulator({
        transport,
        ackMs: d.timeouts.ack_ms,
        stateFile: simFile(w, ZVT_SIM_FILE),
      }),
  );
  return new ZvtUnit(link, {
    transport,
    timeouts: d.timeouts,
    recognizer: w.recognizer,
    password: w.options.zvtPassword ?? d.zvt_password,
    configByte: d.zvt_config_byte,
    currency: w.options.currency ?? d.currency,
    maxRetries: d.max_retries,
  });
}

function createConcert(w: Wiring, d: NonNullable<Devices['payment']>): PaymentUnit {
  const link = wire(
    w,
    'payment',
    d,
    () => new ConcertSimulator(d.timeouts.ack_ms, simFile(w, CONCERT_SIM_FILE)),
  );
  return new ConcertUnit(link, {
    timeouts: d.timeouts,
    pos: d.pos_number,
    maxRetries: d.max_retries,
  });
}

/** Where a simulated payment unit keeps its books; null: in memory. */
function simFile(w: Wiring, name: string): string | null {
  return w.options.simulatorDir === undefined ? null : join(w.options.simulatorDir, name);
}

function createPrinter(w: Wiring, d: NonNullable<Devices['printer']>): EscPosPrinter {
  const printer = new EscPosPrinter(
    wire(w, 'printer', d, () => new PrinterSimulator()),
    { status_ms: d.timeouts.ack_ms, width: d.line_width },
  );
  w.closers.push(() => printer.close());
  return printer;
}

function createTankGauge(w: Wiring, d: NonNullable<Devices['tank_gauge']>): TlsGauge {
  const gauge = new TlsGauge(
    wire(w, 'tank_gauge', d, () => new TlsSimulator()),
    { timeouts: d.timeouts },
  );
  w.closers.push(() => gauge.close());
  return gauge;
}

function createPumps(w: Wiring, d: NonNullable<Devices['pumps']>): DartMaster {
  const sim = () =>
    new DartSimulator(d.pumps.map((pump) => ({ pump, prices: [1799, 1659, 1899] })));
  const master = new DartMaster(wire(w, 'pumps', d, sim), {
    pumps: d.pumps,
    // DART timings are the line's, not the general device timeouts (seconds): a pump answers
    // within 25 ms (docs G4, 50 with USB adapter latency); a byte takes 1.15 ms at 9600 8O1.
    // A simulated pump answers on this process's event loop, which a busy till can hold up
    // for longer than a line ever would: it gets 500 ms before it counts as silent.
    timeouts: d.simulated
      ? { response_ms: 500, inter_byte_ms: 200 }
      : { response_ms: 50, inter_byte_ms: 20 },
  });
  master.start();
  w.closers.push(() => master.close());
  return master;
}
