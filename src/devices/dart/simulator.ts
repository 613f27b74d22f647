// A simulated DART forecourt: the slave side of the line for several pumps (addresses from
// 0x50), with nozzles, grades and prices, a flow rate, totalizers and presets, and the faults
// the driver must survive (a silent pump, a corrupt block, a pump switched off mid-fill, a
// nozzle hung up early). A person or a test lifts a nozzle, dispenses and hangs up through its
// methods. Numbers are the integers on the wire, with the pump's decimals (DEFAULT_DECIMALS).
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults } from '../sim/faults.js';
import type { Simulator } from '../sim/host.js';
import {
  type DartFrame,
  DartStream,
  encodeFrame,
  isRetransmission,
  nextTx,
  pumpAddress,
} from './frame.js';
import {
  type ControllerTransaction,
  decodeControllerTransactions,
  DEFAULT_DECIMALS,
  encodePumpTransactions,
  type PumpTransaction,
  type UnknownTransaction,
} from './transactions.js';

/** DC1 status codes the simulator reports. */
const S = {
  unprogrammed: 0,
  reset: 1,
  authorised: 2,
  filling: 4,
  completed: 5,
  max: 6,
  off: 7,
  suspended: 8,
};

export interface SimPumpConfig {
  pump: number;
  /** Unit price per grade (nozzle 1, 2, ...), raw at 3 decimals: 1799 is 1.799. */
  prices: number[];
  /** Raw volume units (0.01 l) per second of `flow()`. */
  flowRate?: number;
}

export interface SimPump {
  pump: number;
  address: number;
  status: number;
  nozzle: number;
  nozzleOut: boolean;
  prices: number[];
  flowRate: number;
  allowed: number[] | null;
  preset: { volume: number } | { amount: number } | null;
  volume: number;
  amount: number;
  /** Per nozzle: raw volume and amount totals. */
  totals: { volume: number; amount: number }[];
  /** The slave's TX# and its block awaiting an ACK (resent at each poll until ACKed). */
  tx: number;
  pending: { tx: number; data: Uint8Array } | null;
  lastAccepted: number | null;
  /** Transactions to report at the next poll. */
  outbox: PumpTransaction[];
  /** Fault: this pump does not answer at all. */
  silent: boolean;
  /** Master data blocks applied (retransmissions not counted). */
  applied: number;
}

export function demoPumps(n = 4): SimPumpConfig[] {
  return Array.from({ length: n }, (_, i) => ({ pump: i + 1, prices: [1799, 1659, 1899] }));
}

export class DartSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  /** Fault: the next N data blocks stop half way (the master's inter-byte timeout ends them). */
  cut = 0;
  readonly pumps = new Map<number, SimPump>();
  private readonly byAddress = new Map<number, SimPump>();
  private readonly writer: FaultyWriter;
  private readonly stream = new DartStream();

  constructor(configs: SimPumpConfig[] = demoPumps()) {
    // Line noise must not contain addresses or FA, or it could complete a frame by chance.
    this.writer = new FaultyWriter(this.faults, Uint8Array.from([0x00, 0x01, 0x0d, 0x41, 0x7e]));
    for (const c of configs) {
      const p: SimPump = {
        pump: c.pump,
        address: pumpAddress(c.pump),
        status: S.reset,
        nozzle: 0,
        nozzleOut: false,
        prices: [...c.prices],
        flowRate: c.flowRate ?? 50,
        allowed: null,
        preset: null,
        volume: 0,
        amount: 0,
        totals: c.prices.map(() => ({ volume: 0, amount: 0 })),
        tx: 0,
        pending: null,
        lastAccepted: null,
        outbox: [],
        silent: false,
        applied: 0,
      };
      this.pumps.set(c.pump, p);
      this.byAddress.set(p.address, p);
    }
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    const off = link.onData((chunk) => {
      for (const e of this.stream.push(chunk)) {
        if (e.kind === 'frame') void this.frame(e.frame);
        else if (e.address !== undefined && e.tx !== undefined) void this.nak(e.address, e.tx);
      }
    });
    return () => {
      off();
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  get(n: number): SimPump {
    const p = this.pumps.get(n);
    if (!p) throw new Error(`no simulated pump ${n}`);
    return p;
  }

  // ---- what a person does at the pump ----

  lift(n: number, nozzle = 1): void {
    const p = this.get(n);
    p.nozzle = nozzle;
    p.nozzleOut = true;
    this.report(p);
  }

  /** Dispenses `volume` raw units (0.01 l) if the pump is authorised; stops at the preset. */
  dispense(n: number, volume: number): void {
    const p = this.get(n);
    if (!p.nozzleOut || (p.status !== S.authorised && p.status !== S.filling)) return;
    if (p.allowed && !p.allowed.includes(p.nozzle)) return;
    p.status = S.filling;
    let v = p.volume + volume;
    const limit = this.limit(p);
    if (limit !== null && v >= limit) v = limit;
    this.setVolume(p, v);
    if (limit !== null && v >= limit) p.status = S.completed;
    this.report(p, true);
  }

  /** Dispenses what the flow rate gives in `ms`. */
  flow(n: number, ms: number): void {
    const p = this.get(n);
    this.dispense(n, Math.round((p.flowRate * ms) / 1000));
  }

  hangUp(n: number): void {
    const p = this.get(n);
    p.nozzleOut = false;
    if (p.status === S.filling || p.status === S.suspended) p.status = S.completed;
    else if (p.status === S.authorised && p.volume === 0) p.status = S.completed;
    this.report(p, p.volume > 0);
  }

  /** Fault: the pump loses power mid-fill (switched off, DC1 7), keeping its fill. */
  switchOff(n: number): void {
    const p = this.get(n);
    p.status = S.off;
    this.report(p, true);
  }

  switchOn(n: number): void {
    const p = this.get(n);
    p.status = p.volume > 0 ? S.completed : S.reset;
    this.report(p, true);
  }

  /**
   * Power cut and back: the pump lost its prices and reports PUMP NOT PROGRAMMED (DC1 0) until
   * it is told them (CD5); it takes no other command meanwhile.
   */
  powerUp(n: number): void {
    const p = this.get(n);
    p.status = S.unprogrammed;
    p.prices = p.prices.map(() => 0);
    p.volume = 0;
    p.amount = 0;
    this.report(p, true);
  }

  // ---- the pump's arithmetic (raw integers: volume 2, amount 2, price 3 decimals) ----

  private price(p: SimPump): number {
    return p.prices[p.nozzle - 1] ?? p.prices[0] ?? 0;
  }

  /** amount = volume x price, rounded half up to the amount's decimals. */
  private amountOf(p: SimPump, volume: number): number {
    const shift =
      10 ** (DEFAULT_DECIMALS.volume + DEFAULT_DECIMALS.price - DEFAULT_DECIMALS.amount);
    return Math.floor((volume * this.price(p) + shift / 2) / shift);
  }

  /** The volume at which the preset stops the pump. */
  private limit(p: SimPump): number | null {
    if (!p.preset) return null;
    if ('volume' in p.preset) return p.preset.volume;
    const shift =
      10 ** (DEFAULT_DECIMALS.volume + DEFAULT_DECIMALS.price - DEFAULT_DECIMALS.amount);
    let v = Math.floor((p.preset.amount * shift) / this.price(p));
    while (this.amountOf(p, v + 1) <= p.preset.amount) v++;
    while (v > 0 && this.amountOf(p, v) > p.preset.amount) v--;
    return v;
  }

  private setVolume(p: SimPump, v: number): void {
    const t = p.totals[p.nozzle - 1];
    const amount = this.amountOf(p, v);
    if (t) {
      t.volume += v - p.volume;
      t.amount += amount - p.amount;
    }
    p.volume = v;
    p.amount = amount;
  }

  /** Queues the pump's status (and nozzle, and filling) for the next poll. */
  private report(p: SimPump, filling = false): void {
    // A filling queued and not sent yet stays unless a newer one replaces it: a status asked
    // for (RETURN STATUS after the master's restart) must not drop the fill's last volume.
    p.outbox = p.outbox.filter(
      (t) => t.type !== 'DC1' && t.type !== 'DC3' && (t.type !== 'DC2' || !filling),
    );
    p.outbox.push({ type: 'DC1', status: 'unknown', code: p.status });
    p.outbox.push({
      type: 'DC3',
      price: this.price(p),
      nozzle: p.nozzle,
      nozzleOut: p.nozzleOut,
    });
    if (filling) p.outbox.push({ type: 'DC2', volume: p.volume, amount: p.amount });
  }

  // ---- the line ----

  private async send(frame: DartFrame): Promise<void> {
    const bytes = encodeFrame(frame);
    if (!bytes.ok) return;
    let out = bytes.value;
    if (frame.type === 'data' && this.faults.corrupt > 0) {
      this.faults.corrupt--;
      out = Uint8Array.from(out);
      // Flips a bit of the CRC's low byte (or of the DLE before it): a broken block either way.
      const i = out.length - 4;
      out[i] = (out[i] as number) ^ 0x01;
    }
    if (frame.type === 'data' && this.cut > 0) {
      this.cut--;
      out = out.slice(0, Math.ceil(out.length / 2));
    }
    await this.writer.write(out);
  }

  private async nak(address: number, tx: number): Promise<void> {
    const p = this.byAddress.get(address);
    if (!p || p.silent || this.faults.silence) return;
    await this.send({ type: 'nak', address, tx });
  }

  private async frame(f: DartFrame): Promise<void> {
    const p = this.byAddress.get(f.address);
    if (!p || p.silent || this.faults.silence) return;
    if (f.type === 'poll' || f.type === 'ackpoll') {
      if (f.type === 'ackpoll') this.acked(p, f.tx);
      return this.answerPoll(p);
    }
    if (f.type === 'ack') return this.acked(p, f.tx);
    if (f.type === 'nak') return; // the pending block goes again at the next poll
    if (f.type !== 'data') return;
    if (this.faults.nak > 0) {
      this.faults.nak--;
      return this.send({ type: 'nak', address: p.address, tx: f.tx });
    }
    // TX# 0 only follows a protocol restart (docs G3), so it is always a new block.
    if (f.tx === 0 || !isRetransmission(p.lastAccepted, f.tx)) {
      const list = decodeControllerTransactions(f.data);
      if (!list.ok) return this.send({ type: 'nak', address: p.address, tx: f.tx });
      p.lastAccepted = f.tx;
      p.applied++;
      for (const t of list.value) this.command(p, t);
    }
    await this.send({ type: 'ack', address: p.address, tx: f.tx });
  }

  private acked(p: SimPump, tx: number): void {
    if (p.pending && p.pending.tx === tx) {
      p.pending = null;
      p.tx = nextTx(tx);
    }
  }

  private async answerPoll(p: SimPump): Promise<void> {
    if (!p.pending && p.outbox.length > 0) {
      const data = encodePumpTransactions(p.outbox);
      p.outbox = [];
      if (data.ok) p.pending = { tx: p.tx, data: data.value };
    }
    if (p.pending)
      return this.send({
        type: 'data',
        address: p.address,
        tx: p.pending.tx,
        data: p.pending.data,
      });
    await this.send({ type: 'eot', address: p.address, tx: p.tx });
  }

  private command(p: SimPump, t: ControllerTransaction | UnknownTransaction): void {
    switch (t.type) {
      case 'CD1':
        return this.cd1(p, t.command);
      case 'CD2':
        p.allowed = t.nozzles;
        return;
      case 'CD3':
        p.preset = { volume: t.volume };
        return;
      case 'CD4':
        p.preset = { amount: t.amount };
        return;
      case 'CD5':
        p.prices = [...t.prices];
        // programmed: the pump is ready to sell
        if (p.status === S.unprogrammed) {
          p.status = S.reset;
          return this.report(p, true);
        }
        this.report(p);
        return;
      case 'CD101': {
        const n = t.counter > 0x10 ? t.counter - 0x10 : t.counter;
        const tot = p.totals[n - 1] ?? { volume: 0, amount: 0 };
        const total = t.counter > 0x10 ? tot.amount : tot.volume;
        p.outbox.push({ type: 'DC101', counter: t.counter, total, meter1: total, meter2: 0 });
        return;
      }
      default:
        return;
    }
  }

  private cd1(p: SimPump, command: string): void {
    if ((p.status === S.off || p.status === S.unprogrammed) && command !== 'return-status')
      return this.report(p);
    switch (command) {
      case 'authorize':
        p.volume = 0;
        p.amount = 0;
        p.status = S.authorised;
        return this.report(p, true);
      case 'reset':
        p.status = S.reset;
        p.preset = null;
        p.allowed = null;
        return this.report(p);
      case 'stop':
        if (p.status === S.filling || p.status === S.authorised || p.status === S.suspended)
          p.status = S.completed;
        return this.report(p, true);
      case 'suspend':
        if (p.status === S.filling) p.status = S.suspended;
        return this.report(p, true);
      case 'resume':
        if (p.status === S.suspended) p.status = S.filling;
        return this.report(p, true);
      case 'return-filling-information':
        return this.report(p, true);
      default:
        return this.report(p);
    }
  }
}
