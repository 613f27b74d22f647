// bench/network: sync over a slow or thin link (issue 17), on loopback with the real sandbox in
// a child process; the sandbox's `latency_ms` fault adds the link's delay to every request.
//   1. the outbox's drain rate at 0 and at 100 ms added latency (target >= 200/s at 100 ms), in
//      write_batch requests of PUSH_BATCH sales as the sync service drains;
//   2. a snapshot cut off half-way and resumed, against the same snapshot uncut;
//   3. the bytes of a 1,000,000-record snapshot on the wire, compressed and plain;
//   4. the bytes a busy station's day costs: its first snapshot, 2,000 sales, one rules update,
//      and a pull every 5 minutes for 12 hours (bodies on the wire; headers counted apart).
// Every loop is bounded (a guard on passes and pages).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startCentral } from '../src/central/index.js';
import { systemSyncClock } from '../src/sync/clock.js';
import { OutboxPusher, PUSH_BATCH, PUSH_IN_FLIGHT } from '../src/sync/pusher.js';
import { Puller } from '../src/sync/puller.js';
import { client, queueSales, startChild, stopChild, terminal } from './sync.js';

const DRAIN_SALES = 2_000;
const RESUME_RECORDS = 200_000;
const BYTES_RECORDS = 1_000_000;
const DAY_SALES = 2_000;
const DAY_PULLS = 144;
const PAGE = 5_000;
const MAX_PAGES = 1_000;
/** Request and response headers of one call, roughly (measured on this client: ~420 bytes). */
const HEADER_BYTES = 420;

type Sandbox = Awaited<ReturnType<typeof startChild>>;

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const MB = (n: number) => (n / 2 ** 20).toFixed(1);

async function setFaults(s: Sandbox, faults: Record<string, number>): Promise<void> {
  const r = await request(`${s.url}/sandbox/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${s.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  await r.body.text();
  if (r.statusCode !== 200) throw new Error(`PUT /sandbox/faults: ${r.statusCode}`);
}

async function drainRate(s: Sandbox, dir: string, latencyMs: number): Promise<string> {
  const store = await terminal(dir);
  // As the sync service: batches, and one socket per request in flight.
  const http = client(s, PUSH_IN_FLIGHT);
  try {
    queueSales(store, DRAIN_SALES);
    await setFaults(s, { latency_ms: latencyMs });
    const pusher = new OutboxPusher({
      store,
      client: http,
      clock: systemSyncClock,
      retry: { base_ms: 10, max_ms: 1_000 },
    });
    const t0 = process.hrtime.bigint();
    for (let guard = 0; guard < 1_000 && store.outbox.depth().queued > 0; guard++)
      await pusher.drain();
    const s1 = seconds(t0);
    const left = store.outbox.depth().queued;
    const rate = Math.round((DRAIN_SALES - left) / s1);
    const target =
      latencyMs === 100 ? `   target >= 200/s ${rate >= 200 && !left ? 'MET' : 'MISSED'}` : '';
    return `network drain ${DRAIN_SALES} sales in batches of ${PUSH_BATCH}, +${latencyMs} ms per request   ${s1.toFixed(2)} s   ${rate}/s${target}${left ? ` (${left} left)` : ''}`;
  } finally {
    await setFaults(s, {});
    await http.close();
    store.close();
  }
}

/** One full snapshot into a fresh store; `cutAfter` pages in, the link resets every request. */
async function snapshotPull(s: Sandbox, dir: string, cutAfter: number | null) {
  const store = await terminal(dir);
  const http = client(s);
  const puller = new Puller({ store, client: http, clock: systemSyncClock });
  try {
    const t0 = process.hrtime.bigint();
    let pages = 0;
    let cut: Promise<void> | null = null;
    let r = await puller.pull({
      limit: PAGE,
      maxPages: MAX_PAGES,
      onProgress: () => {
        if (++pages === cutAfter) cut = setFaults(s, { reset_rate: 1 });
      },
    });
    let pulls = 1;
    if (cut) {
      await cut;
      await setFaults(s, {});
      for (; pulls < 5 && !(r.ok && r.complete); pulls++)
        r = await puller.pull({ limit: PAGE, maxPages: MAX_PAGES });
    }
    if (!(r.ok && r.complete)) throw new Error(`snapshot not complete after ${pulls} pulls`);
    return { s: seconds(t0), pulls, pages };
  } finally {
    await http.close();
    store.close();
  }
}

async function benchResume(dir: string): Promise<string> {
  const s = await startChild(RESUME_RECORDS, join(dir, 'central-resume.sqlite'));
  try {
    const uncut = await snapshotPull(s, join(dir, 'uncut'), null);
    const half = Math.ceil(RESUME_RECORDS / PAGE / 2);
    const resumed = await snapshotPull(s, join(dir, 'resumed'), half);
    return (
      `network snapshot of ${RESUME_RECORDS} records uncut   ${uncut.s.toFixed(2)} s\n` +
      `network the same cut after page ${half} and resumed   ${resumed.s.toFixed(2)} s (${resumed.pulls} pulls, ${(resumed.s / uncut.s).toFixed(2)} x uncut)`
    );
  } finally {
    await stopChild(s.child);
  }
}

/** The snapshot's bodies as sent plain: pages fetched with `Accept-Encoding: identity`. */
async function plainSnapshotBytes(s: Sandbox): Promise<number> {
  const signIn = await request(`${s.url}/v1/terminal/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body: JSON.stringify({ terminal_id: s.terminal_id, api_key: s.api_key }),
  });
  const { token } = (await signIn.body.json()) as { token: string };
  let bytes = 0;
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({ limit: String(PAGE), ...(cursor ? { cursor } : {}) });
    const r = await request(`${s.url}/v1/terminal/changes?${q.toString()}`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
    });
    const body = Buffer.from(await r.body.arrayBuffer());
    if (r.statusCode !== 200) throw new Error(`changes: ${r.statusCode}`);
    bytes += body.length;
    const p = JSON.parse(body.toString('utf8')) as { cursor: string; has_more: boolean };
    if (!p.has_more) break;
    cursor = p.cursor;
  }
  return bytes;
}

/** The snapshot's bodies as this client receives them (compressed), without applying them. */
async function compressedSnapshotBytes(s: Sandbox): Promise<{ received: number; decoded: number }> {
  const http = client(s);
  try {
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await http.changesLazy(cursor, PAGE);
      if (!r.ok) throw new Error(`changes: ${r.failure.message}`);
      if (!r.value.has_more) break;
      cursor = r.value.cursor;
    }
    return http.wireBytes();
  } finally {
    await http.close();
  }
}

async function benchBytes(dir: string): Promise<string> {
  const s = await startChild(BYTES_RECORDS, join(dir, 'central-bytes.sqlite'));
  try {
    const plain = await plainSnapshotBytes(s);
    const z = await compressedSnapshotBytes(s);
    return `network a ${BYTES_RECORDS}-record snapshot on the wire   plain ${MB(plain)} MB   compressed (br) ${MB(z.received)} MB   ${(plain / z.received).toFixed(1)} x smaller`;
  } finally {
    await stopChild(s.child);
  }
}

/** A busy station's day, against an in-process sandbox (to publish the rules update). */
async function benchDay(dir: string): Promise<string> {
  const central = await startCentral({ db: join(dir, 'central-day.sqlite'), seed: 'demo' });
  const store = await terminal(join(dir, 'day'));
  const http = client(central, PUSH_IN_FLIGHT);
  try {
    const puller = new Puller({ store, client: http, clock: systemSyncClock });
    const first = await puller.pull({ limit: 1_000, maxPages: MAX_PAGES });
    const afterSnapshot = http.wireBytes();
    queueSales(store, DAY_SALES);
    const pusher = new OutboxPusher({
      store,
      client: http,
      clock: systemSyncClock,
      retry: { base_ms: 10, max_ms: 1_000 },
    });
    for (let guard = 0; guard < 1_000 && store.outbox.depth().queued > 0; guard++)
      await pusher.drain();
    const afterSales = http.wireBytes();
    for (const rule of central.store.list('rule') as { id: string }[])
      central.store.upsert('rule', rule.id, rule);
    // The sales went in write_batch requests of PUSH_BATCH (a page of 200 rows as 4 batches).
    let requests = 1 + (first.ok ? first.pages : 0) + Math.ceil(DAY_SALES / PUSH_BATCH);
    for (let i = 0; i < DAY_PULLS; i++) {
      const r = await puller.pull({ limit: 1_000, maxPages: 10 });
      requests += r.pages;
    }
    const end = http.wireBytes();
    const bodies = end.sent + end.received;
    const headers = requests * HEADER_BYTES;
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    return (
      `network a busy station's day (snapshot, ${DAY_SALES} sales, 1 rules update, ${DAY_PULLS} pulls)   ` +
      `${MB(bodies + headers)} MB\n` +
      `     bodies ${MB(bodies)} MB: first snapshot ${kb(afterSnapshot.received)}, sales sent ${kb(afterSales.sent - afterSnapshot.sent)} ` +
      `and answered ${kb(afterSales.received - afterSnapshot.received)}, rules update and pulls ${kb(end.received - afterSales.received)}; ` +
      `headers ~${MB(headers)} MB (${requests} requests x ~${HEADER_BYTES} B)`
    );
  } finally {
    await http.close();
    store.close();
    await central.close();
  }
}

export async function benchNetwork(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lt-bench-network-'));
  try {
    const s = await startChild(0, join(dir, 'central-drain.sqlite'));
    try {
      console.log(await drainRate(s, join(dir, 'drain-0'), 0));
      console.log(await drainRate(s, join(dir, 'drain-100'), 100));
    } finally {
      await stopChild(s.child);
    }
    console.log(await benchResume(dir));
    console.log(await benchBytes(dir));
    console.log(await benchDay(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
