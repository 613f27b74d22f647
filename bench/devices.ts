// Device figures: ZVT and TLS frames parsed per second (a sanity figure), and the time from
// the last byte of a swipe to the identifier event (target under 5 ms), in process and, when
// socat is installed, across a real pty pair.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CardReader } from '../src/devices/card-reader.js';
import { DartMaster } from '../src/devices/dart/master.js';
import { DartSimulator, demoPumps } from '../src/devices/dart/simulator.js';
import { ascii } from '../src/devices/bytes.js';
import { ManagedLink, MemoryLink } from '../src/devices/link.js';
import { openSerial } from '../src/devices/serial.js';
import { decodeAnswer, encodeAnswer } from '../src/devices/tls/frame.js';
import { encodeInventory, parseInventory } from '../src/devices/tls/i201.js';
import { demoTanks } from '../src/devices/tls/simulator.js';
import { FrameStream, encodeFrame } from '../src/devices/zvt/frame.js';
import { authorisation, parseStatusInfo } from '../src/devices/zvt/messages.js';
import { benchPumpScreen } from './pump-screen.js';
import { line, sample, summarize } from './stats.js';

const SWIPE = ascii('\u0002%B7777001234^LOYAL/CUSTOMER^2512101?;7777001234=2512101?\r\u0003');

function parsers(): void {
  const frame = encodeFrame(authorisation(11_000));
  const stream = new FrameStream();
  console.log(
    line(
      'ZVT: serial frame deframed + status info',
      summarize(
        sample(20_000, 2_000, () => {
          for (const ev of stream.push(frame))
            if (ev.kind === 'frame') parseStatusInfo(ev.apdu.data);
        }),
      ),
    ),
  );
  const tls = encodeAnswer(
    encodeInventory({ tank_selector: '00', gauge_time: '2501011200', tanks: demoTanks() }),
  );
  console.log(
    line(
      'TLS: i201 answer checksummed + parsed',
      summarize(
        sample(20_000, 2_000, () => {
          const a = decodeAnswer(tls);
          if (a.ok && a.value.kind === 'data') parseInventory(a.value.body);
        }),
      ),
    ),
  );
}

async function swipeInProcess(): Promise<void> {
  const [ours, theirs] = MemoryLink.pair();
  void theirs;
  const reader = new CardReader(ours, { kind: 'msr', framing: 'stx-etx', interByteMs: 200 });
  let t1 = 0n;
  reader.onRead(() => (t1 = process.hrtime.bigint()));
  // The reader's handler runs on the chunk that carries the last byte: feed it directly.
  const emit = (chunk: Uint8Array) =>
    (ours as unknown as { events: { emit: (e: string, c: Uint8Array) => void } }).events.emit(
      'data',
      chunk,
    );
  const samples: bigint[] = [];
  for (let i = 0; i < 2_000; i++) {
    emit(SWIPE.slice(0, -1));
    const t0 = process.hrtime.bigint();
    emit(SWIPE.slice(-1));
    samples.push(t1 - t0);
  }
  reader.close();
  console.log(line('swipe: last byte -> identifier (in process)', summarize(samples.slice(200))));
}

async function swipeOverPty(): Promise<void> {
  try {
    execFileSync('which', ['socat']);
  } catch {
    console.log('swipe over a pty: skipped (socat is not installed)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'lt-bench-'));
  const a = join(dir, 'A');
  const b = join(dir, 'B');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 200 && !(existsSync(a) && existsSync(b)); i++)
      await new Promise((r) => setTimeout(r, 10));
    const settings = {
      baudRate: 115_200,
      dataBits: 8 as const,
      parity: 'none' as const,
      stopBits: 1 as const,
    };
    const backoff = { reconnectMinMs: 100, reconnectMaxMs: 400, livenessMs: 1_000 };
    const readerLink = new ManagedLink(() => openSerial({ path: a, ...settings }), backoff);
    const readerSide = new ManagedLink(() => openSerial({ path: b, ...settings }), backoff);
    readerLink.start();
    readerSide.start();
    await readerLink.waitOpen(3_000);
    await readerSide.waitOpen(3_000);
    const reader = new CardReader(readerLink, {
      kind: 'msr',
      framing: 'stx-etx',
      interByteMs: 200,
    });
    const samples: bigint[] = [];
    for (let i = 0; i < 60; i++) {
      await readerSide.write(SWIPE.slice(0, -1));
      await new Promise((r) => setTimeout(r, 5));
      const got = new Promise<bigint>((resolve) => {
        const off = reader.onRead(() => {
          off();
          resolve(process.hrtime.bigint());
        });
      });
      const t0 = process.hrtime.bigint();
      await readerSide.write(SWIPE.slice(-1));
      samples.push((await got) - t0);
    }
    reader.close();
    await readerLink.stop();
    await readerSide.stop();
    console.log(
      line('swipe: last byte -> identifier (pty, target < 5 ms)', summarize(samples.slice(10))),
    );
  } finally {
    socat.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * DART: one full poll cycle of 16 simulated pumps (idle: POLL + EOT each) and a pump's status
 * change (nozzle lifted) to the port's event, on an in-memory line (no wire time: at 9600 8O1
 * add about 7 ms a pump for POLL + EOT on a real line).
 */
async function dartForecourt(): Promise<void> {
  const [ours, theirs] = MemoryLink.pair();
  const sim = new DartSimulator(demoPumps(16));
  sim.attach(theirs);
  const pumps = Array.from({ length: 16 }, (_, i) => i + 1);
  const master = new DartMaster(ours, {
    pumps,
    timeouts: { response_ms: 50, inter_byte_ms: 20 },
    cycleGapMs: 0,
  });
  master.start();
  while (!master.pumps().every((p) => p.state === 'idle')) await wait(5);
  const cycles: bigint[] = [];
  let seen = master.cycles;
  let last = process.hrtime.bigint();
  while (cycles.length < 300) {
    await new Promise((r) => setImmediate(r));
    if (master.cycles !== seen) {
      const now = process.hrtime.bigint();
      cycles.push((now - last) / BigInt(master.cycles - seen));
      seen = master.cycles;
      last = now;
    }
  }
  console.log(line('DART: poll cycle of 16 idle pumps (in memory)', summarize(cycles.slice(20))));
  const latencies: bigint[] = [];
  for (let i = 0; i < 100; i++) {
    const pump = (i % 16) + 1;
    const t0 = process.hrtime.bigint();
    const seenEvent = new Promise<bigint>((resolve) => {
      const off = master.onEvent((e) => {
        if (e.pump.pump === pump && e.pump.state === 'calling') {
          off();
          resolve(process.hrtime.bigint());
        }
      });
    });
    sim.lift(pump);
    latencies.push((await seenEvent) - t0);
    sim.hangUp(pump);
    while (master.pump(pump)?.state !== 'idle') await wait(1);
  }
  console.log(line('DART: nozzle lifted -> port event (16 pumps)', summarize(latencies)));
  await master.close();
}

export async function benchDevices(): Promise<void> {
  parsers();
  await dartForecourt();
  await swipeInProcess();
  await swipeOverPty();
  await benchPumpScreen();
}
