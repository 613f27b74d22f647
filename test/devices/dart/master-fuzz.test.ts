// The DART master's input path under random line bytes: nothing throws, every state it
// publishes reads back through the port's schema, and the pumps keep being served.
import { describe, expect, it } from 'vitest';
import { DartMaster } from '../../../src/devices/dart/master.js';
import { DartSimulator } from '../../../src/devices/dart/simulator.js';
import { PumpSchema } from '../../../src/devices/forecourt/port.js';
import { MemoryLink } from '../../../src/devices/link.js';
import { waitFor } from '../support/pty.js';

function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe('DART master fuzz', () => {
  it('survives random bytes between real answers and still serves its pumps', async () => {
    const [ours, theirs] = MemoryLink.pair();
    const sim = new DartSimulator();
    sim.attach(theirs);
    const master = new DartMaster(ours, {
      pumps: [1, 2, 3, 4],
      timeouts: { response_ms: 30, inter_byte_ms: 10 },
      cycleGapMs: 1,
    });
    master.start();
    const rand = rng(7);
    // Biased towards the line's own bytes (addresses, control bytes, FA, DLE, ETX).
    const alphabet = [0x50, 0x51, 0x52, 0x53, 0x30, 0x31, 0xc0, 0x70, 0xfa, 0x10, 0x03, 0x01];
    for (let i = 0; i < 200; i++) {
      const chunk = Array.from({ length: 1 + rand(12) }, () =>
        rand(3) === 0 ? rand(256) : (alphabet[rand(alphabet.length)] as number),
      );
      await theirs.write(Uint8Array.from(chunk));
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    for (const p of master.pumps()) expect(PumpSchema.safeParse(p).success).toBe(true);
    sim.lift(3);
    await waitFor(() => master.pump(3)?.state === 'calling', 3_000, 'pump 3 calling');
    await master.close();
  });
});
