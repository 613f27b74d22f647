// bench/sync: the two figures of the sync issue, on loopback with the real sandbox.
//   1. drain 10,000 queued sales to the sandbox (target >= 500 per second);
//   2. apply a 1,000,000-record snapshot (target >= 150,000 records per second, peak RSS
//      <= 300 MB; issue 17). `SYNC_BENCH=snapshot` runs this one alone.
// The sandbox runs in a child process, so the RSS figure is the terminal's alone. The snapshot
// line is followed by its memory per phase (docs/sync.md, "Snapshot memory and speed"): RSS and the V8
// heap before the pull, at the highest staging sample, after the swap, and the kernel's
// high-water mark of the process (getrusage maxrss), which is the peak the target is about.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { getHeapSpaceStatistics } from 'node:v8';
import { openStore, type Store } from '../src/store/open.js';
import { CentralClient } from '../src/sync/client.js';
import { systemSyncClock } from '../src/sync/clock.js';
import { entitySchemas } from '../src/sync/entities.js';
import { uuidv7 } from '../src/sync/ids.js';
import { OUTBOX_PAYLOAD_VERSION, outboxPayloadSchema } from '../src/sync/outbox-payload.js';
import { OutboxPusher } from '../src/sync/pusher.js';
import { Puller } from '../src/sync/puller.js';

const SALES = 10_000;
const RECORDS = 1_000_000;
/** Records per second the snapshot apply must reach (issue 17; 50,000 before). */
const APPLY_TARGET = 150_000;

// The child: start the sandbox on a file, optionally load `records` customers and cards.
const CHILD = `
const [central, records, db] = process.argv.slice(1);
const m = await import(central);
const c = await m.startCentral({ db, seed: 'demo' });
const n = Number(records);
if (n > 0) {
  const half = Math.floor(n / 2);
  const rows = function* (kind) {
    for (let i = 0; i < half; i++) {
      const id = (kind === 'customer' ? 'c' : 'k') + String(i).padStart(9, '0');
      yield kind === 'customer'
        ? { id, data: { id, type: 'customer', access_type: 'full-bonuses-access', phone: '+4930' + i, bonuses: { regular: i % 500 } } }
        : { id, data: { id, code: '8' + String(i).padStart(12, '0'), customer_id: 'c' + String(i).padStart(9, '0') } };
    }
  };
  c.store.bulkUpsert('customer', rows('customer'));
  c.store.bulkUpsert('card', rows('card'));
}
console.log(JSON.stringify({ url: c.url, terminal_id: c.terminal_id, api_key: c.api_key }));
process.on('SIGTERM', async () => { await c.close(); process.exit(0); });
`;

export async function startChild(
  records: number,
  db: string,
): Promise<{ child: ChildProcess; url: string; terminal_id: string; api_key: string }> {
  const central = new URL('../src/central/index.js', import.meta.url).href;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', CHILD, central, String(records), db],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { url: string; terminal_id: string; api_key: string }) };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function terminal(dir: string): Promise<Store> {
  return openStore({
    file: join(dir, 'terminal.sqlite'),
    clock: systemSyncClock,
    dailyBackup: false,
    entitySchemas,
    payloadSchemas: outboxPayloadSchema,
  });
}

export function client(
  c: { url: string; terminal_id: string; api_key: string },
  connections = 8,
): CentralClient {
  return new CentralClient({
    baseUrl: c.url,
    terminalId: c.terminal_id,
    apiKey: c.api_key,
    timeouts: { connect_ms: 5_000, headers_ms: 30_000, body_ms: 60_000 },
    appVersion: 'bench',
    schemaVersion: 2,
    connections,
  });
}

/** Queues `n` anonymous cash sales in the outbox (each its own lane). */
export function queueSales(store: Store, n: number): void {
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  for (let i = 0; i < n; i++) {
    const id = uuidv7(now + i);
    const amount = 1 + (i % 50) / 4;
    const body = {
      transaction_id: id,
      check_items: [{ code: 'WTR-1', category: 'shop', quantity: 1, price: amount }],
    };
    store.record({
      id,
      kind: 'check',
      subtype: 'offline',
      localDate: day,
      check: { transactionType: 'sale', amountToPay: amount, document: body },
      payments: [{ type: 'cash', amount }],
      outbox: {
        operation: 'process_check',
        version: OUTBOX_PAYLOAD_VERSION,
        payload: {
          body,
          app_version: 'bench',
          schema_version: 2,
          made_at: new Date(now).toISOString(),
          clock_suspect: false,
        },
      },
    });
  }
}

async function benchDrain(dir: string): Promise<string> {
  const sandbox = await startChild(0, join(dir, 'central-drain.sqlite'));
  const store = await terminal(join(dir, 'drain'));
  const http = client(sandbox);
  try {
    queueSales(store, SALES);
    const pusher = new OutboxPusher({
      store,
      client: http,
      clock: systemSyncClock,
      retry: { base_ms: 10, max_ms: 1_000 },
      concurrency: 8,
    });
    const t0 = process.hrtime.bigint();
    for (let guard = 0; guard < 1_000 && store.outbox.depth().queued > 0; guard++)
      await pusher.drain();
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const left = store.outbox.depth().queued;
    const rate = Math.round(SALES / s);
    return `sync drain ${SALES} sales to the sandbox (loopback)   ${s.toFixed(2)} s   ${rate}/s   target >= 500/s ${rate >= 500 && left === 0 ? 'MET' : 'MISSED'}${left ? ` (${left} left)` : ''}`;
  } finally {
    await http.close();
    store.close();
    await stopChild(sandbox.child);
  }
}

const MB = (bytes: number) => Math.round(bytes / 2 ** 20);

/** A child's CPU seconds (user + system) from /proc; null off Linux. */
function childCpu(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/** RSS and the V8 heap (committed, of which the young generation) right now. */
function memory(): { rss: number; heap: number; young: number } {
  const young = getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'new_space' || s.space_name === 'new_large_object_space')
    .reduce((n, s) => n + s.space_size, 0);
  return { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapTotal, young };
}

const shown = (m: { rss: number; heap: number; young: number }) =>
  `${MB(m.rss)} MB (heap ${MB(m.heap)}, young ${MB(m.young)})`;

export async function benchSnapshot(dir: string): Promise<string> {
  const sandbox = await startChild(RECORDS, join(dir, 'central-snapshot.sqlite'));
  const store = await terminal(join(dir, 'snapshot'));
  const http = client(sandbox);
  try {
    const puller = new Puller({ store, client: http, clock: systemSyncClock });
    const before = memory();
    let staging = before;
    const t0 = process.hrtime.bigint();
    let swapFrom = t0;
    let sampledAt = 0n;
    const cpu0 = process.cpuUsage();
    const sandboxCpu0 = childCpu(sandbox.child.pid);
    const r = await puller.pull({
      onProgress: (p) => {
        // Pages before the last are staging; the last page's apply is the swap.
        if (p.total === null || p.done >= p.total) return;
        swapFrom = process.hrtime.bigint();
        // A sample every 50 ms, not every page: reading the process's memory costs about
        // 0.3 ms, 0.14 s over the 500 pages of 2,000 (the peak judged is the kernel's own).
        if (swapFrom - sampledAt < 50_000_000n) return;
        sampledAt = swapFrom;
        const m = memory();
        if (m.rss > staging.rss) staging = m;
      },
    });
    const t1 = process.hrtime.bigint();
    const after = memory();
    const cpu = cpuSeconds(process.cpuUsage(cpu0));
    const sandboxCpu1 = childCpu(sandbox.child.pid);
    const sandboxCpu =
      sandboxCpu0 === null || sandboxCpu1 === null
        ? 'n/a'
        : `${(sandboxCpu1 - sandboxCpu0).toFixed(2)} s`;
    const s = Number(t1 - t0) / 1e9;
    const maxRss = Math.max(staging.rss, after.rss, process.resourceUsage().maxRSS * 1024);
    const applied = r.ok ? r.applied : 0;
    const rate = Math.round(applied / s);
    const mb = MB(maxRss);
    const ok = rate >= APPLY_TARGET && mb <= 300 && applied >= RECORDS;
    return (
      `sync apply a ${applied}-record snapshot          ${s.toFixed(2)} s   ${rate}/s   peak RSS ${mb} MB   target >= ${APPLY_TARGET}/s, <= 300 MB ${ok ? 'MET' : 'MISSED'}\n` +
      `     memory: before ${shown(before)}; staging peak ${shown(staging)}; after the swap ${shown(after)}; ` +
      `process max ${mb} MB; the last page with the swap ${(Number(t1 - swapFrom) / 1e9).toFixed(2)} s\n` +
      `     CPU: terminal ${cpu.toFixed(2)} s, sandbox ${sandboxCpu} (it serves the pages on the other core)`
    );
  } finally {
    await http.close();
    store.close();
    await stopChild(sandbox.child);
  }
}

export async function benchSync(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lt-bench-sync-'));
  try {
    console.log(
      `sync: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    );
    // The snapshot first: its peak RSS is then the terminal's apply alone, not the drain's heap.
    console.log(await benchSnapshot(dir));
    if (process.env.SYNC_BENCH !== 'snapshot') console.log(await benchDrain(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
