// A Veeder-Root TLS gauge answering i201 with its tanks; anything else gets 9999FF1B.
import { latin1 } from '../bytes.js';
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults, noiseWithout } from '../sim/faults.js';
import type { Simulator } from '../sim/host.js';
import { encodeAnswer, ETX, SOH, UNSUPPORTED } from './frame.js';
import { encodeInventory, type TankReading } from './i201.js';

export function demoTanks(): TankReading[] {
  return [
    {
      tank: 1,
      product_code: '1',
      status_bits: 0,
      volume: 12_345.5,
      tc_volume: 12_300.25,
      ullage: 7_654.5,
      height: 1_234.5,
      water: 2.5,
      temperature: 14.75,
      water_volume: 10,
      extra: [],
    },
    {
      tank: 2,
      product_code: '2',
      status_bits: 0,
      volume: 8_000,
      tc_volume: 7_990.5,
      ullage: 12_000,
      height: 900.25,
      water: 0,
      temperature: 15.5,
      water_volume: 0,
      extra: [],
    },
  ];
}

export class TlsSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  tanks: TankReading[];
  clock: () => string = () => '2501011200';
  private readonly writer: FaultyWriter;

  constructor(tanks: TankReading[] = demoTanks()) {
    this.tanks = tanks;
    this.writer = new FaultyWriter(this.faults, noiseWithout([SOH, ETX]));
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    let buf = '';
    let timer: NodeJS.Timeout | null = null;
    const off = link.onData((chunk) => {
      if (this.faults.silence) return;
      buf += latin1(chunk);
      // A request has no terminator: it is complete after SOH + 6 characters.
      if (timer) clearTimeout(timer);
      const start = buf.lastIndexOf('\u0001');
      if (start >= 0 && buf.length - start >= 7) {
        const cmd = buf.slice(start + 1, start + 7);
        buf = buf.slice(start + 7);
        void this.answer(cmd);
      } else timer = setTimeout(() => (buf = ''), 500);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  private async answer(cmd: string): Promise<void> {
    if (this.faults.nak > 0) {
      this.faults.nak--;
      return;
    }
    if (!cmd.startsWith('i201')) return this.writer.write(UNSUPPORTED);
    const selector = cmd.slice(4, 6);
    const tanks =
      selector === '00' ? this.tanks : this.tanks.filter((t) => t.tank === Number(selector));
    let frame = encodeAnswer(
      encodeInventory({ tank_selector: selector, gauge_time: this.clock(), tanks }),
    );
    if (this.faults.corrupt > 0) {
      this.faults.corrupt--;
      frame = Uint8Array.from(frame);
      frame[frame.length - 2] = frame[frame.length - 2] === 0x30 ? 0x31 : 0x30;
    }
    await this.writer.write(frame);
  }
}
