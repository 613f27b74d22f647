// Fault switches every simulator honours, to test drivers against a misbehaving line:
// garbage before an answer, answers split into pieces, NAKs, silence. (Unplugging is done
// by killing the pty pair or calling `MemoryLink.unplug()`.)
import type { ByteLink } from '../link.js';
import { sleep } from '../inbox.js';

export interface FaultSwitches {
  /** Random bytes (from the simulator's noise alphabet) before each answer. */
  garbage: boolean;
  /** Each answer written in three pieces a few milliseconds apart. */
  split: boolean;
  /** The next N frames received are answered NAK (or, without a link NAK, ignored). */
  nak: number;
  /** The next N frames sent carry a broken checksum. */
  corrupt: number;
  /** Nothing is answered at all while true. */
  silence: boolean;
}

export function noFaults(): FaultSwitches {
  return { garbage: false, split: false, nak: 0, corrupt: 0, silence: false };
}

/** Writes through the fault switches. `noise` is what garbage is drawn from. */
export class FaultyWriter {
  readonly faults: FaultSwitches;
  private readonly noise: Uint8Array;
  link: ByteLink | null = null;
  private seed = 12345;

  constructor(faults: FaultSwitches, noise: Uint8Array) {
    this.faults = faults;
    this.noise = noise;
  }

  /** Deterministic noise, so a failing test fails the same way again. */
  private rand(n: number): number {
    this.seed = (this.seed * 1103515245 + 12345) & 0x7fffffff;
    return this.seed % n;
  }

  async write(bytes: Uint8Array): Promise<void> {
    const link = this.link;
    if (!link || this.faults.silence) return;
    let out = bytes;
    if (this.faults.garbage) {
      const junk = Array.from(
        { length: 3 + this.rand(6) },
        () => this.noise[this.rand(this.noise.length)] ?? 0x41,
      );
      out = Uint8Array.from([...junk, ...bytes]);
    }
    try {
      if (this.faults.split && out.length >= 3) {
        const a = Math.max(1, Math.floor(out.length / 3));
        const b = Math.max(a + 1, Math.floor((2 * out.length) / 3));
        await link.write(out.slice(0, a));
        await sleep(5);
        await link.write(out.slice(a, b));
        await sleep(5);
        await link.write(out.slice(b));
      } else await link.write(out);
    } catch {
      // The line is gone: a real device would not notice either.
    }
  }
}

/** Printable noise without a protocol's control bytes. */
export function noiseWithout(exclude: readonly number[]): Uint8Array {
  const out: number[] = [];
  for (let b = 0x20; b < 0x7f; b++) if (!exclude.includes(b)) out.push(b);
  return Uint8Array.from(out);
}
