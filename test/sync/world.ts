// One test world: a sandbox central service on 127.0.0.1, a terminal store in a temporary
// directory, and the sync parts wired between them with short timeouts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  startCentral,
  type RunningCentral,
  type StartCentralOptions,
} from '../../src/central/index.js';
import { ConfigSchema } from '../../src/contract/config.js';
import type { EngineCheck } from '../../src/contract/engine.js';
import { DEMO } from '../../src/central/index.js';
import { openStore, type Store } from '../../src/store/open.js';
import { CentralClient } from '../../src/sync/client.js';
import { systemSyncClock, type SyncClock } from '../../src/sync/clock.js';
import { manualClock } from '../support/clock.js';
import { Connectivity } from '../../src/sync/connectivity.js';
import { entitySchemas } from '../../src/sync/entities.js';
import { outboxPayloadSchema, OUTBOX_PAYLOAD_VERSION } from '../../src/sync/outbox-payload.js';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { Puller } from '../../src/sync/puller.js';
import { SaleService } from '../../src/terminal/sale-service.js';
import { uuidv7 } from '../../src/sync/ids.js';

export interface World {
  central: RunningCentral;
  store: Store;
  client: CentralClient;
  link: Connectivity;
  pusher: OutboxPusher;
  puller: Puller;
  clock: SyncClock;
  dir: string;
  close(): Promise<void>;
}

export async function openTerminalStore(dir: string, clock: SyncClock): Promise<Store> {
  return openStore({
    file: join(dir, 'terminal.sqlite'),
    clock,
    dailyBackup: false,
    entitySchemas,
    payloadSchemas: outboxPayloadSchema,
  });
}

export function makeClient(
  url: string,
  central: { terminal_id: string; api_key: string },
  link?: Connectivity,
): CentralClient {
  return new CentralClient({
    baseUrl: url,
    terminalId: central.terminal_id,
    apiKey: central.api_key,
    timeouts: { connect_ms: 1_000, headers_ms: 3_000, body_ms: 3_000 },
    readRetry: { attempts: 3, base_ms: 5, max_ms: 50 },
    appVersion: 'test',
    schemaVersion: 2,
    ...(link ? { onResponse: link.onResponse, onNoResponse: link.onNoResponse } : {}),
  });
}

/** A till's line to the sandbox: its link state (kept in its store) and a client reporting to it. */
export function connectTill(
  store: Store,
  url: string,
  central: { terminal_id: string; api_key: string },
  clock: SyncClock,
): { link: Connectivity; client: CentralClient } {
  const link = new Connectivity({ clock, persist: store.sync, skewWarnMs: 300_000 });
  return { link, client: makeClient(url, central, link) };
}

/** A till's sale service, selling as the sandbox terminal `terminalId` under `config`. */
export function tillSales(
  till: { store: Store; client: CentralClient; link: Connectivity; clock: SyncClock },
  terminalId: string,
  config: z.input<typeof ConfigSchema>,
): SaleService {
  const { store, client, link, clock } = till;
  return new SaleService({
    store,
    client,
    link,
    clock,
    config: ConfigSchema.parse(config),
    terminalId,
    appVersion: 'test',
    schemaVersion: 2,
  });
}

export async function startWorld(
  o: StartCentralOptions & { clock?: SyncClock } = {},
): Promise<World> {
  const clock = o.clock ?? systemSyncClock;
  const central = await startCentral({ ...o, clock });
  const dir = mkdtempSync(join(tmpdir(), 'lt-sync-'));
  const store = await openTerminalStore(dir, clock);
  const { link, client } = connectTill(store, central.url, central, clock);
  const pusher = new OutboxPusher({
    store,
    client,
    clock,
    retry: { base_ms: 1, max_ms: 20 },
    concurrency: 8,
  });
  const puller = new Puller({ store, client, clock });
  return {
    central,
    store,
    client,
    link,
    pusher,
    puller,
    clock,
    dir,
    async close() {
      await client.close();
      store.close();
      await central.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Records an anonymous cash sale with its outbox row, as the sale service would. */
export function recordCashSale(
  store: Store,
  amount: number,
  clock: SyncClock = systemSyncClock,
  /** Body fields to override (a malformed body the server refuses). */
  bodyExtra: Record<string, unknown> = {},
  /** Payload fields to override (a payload that no longer passes its schema). */
  payloadExtra: Record<string, unknown> = {},
): string {
  const id = uuidv7(clock.now());
  const body = {
    transaction_id: id,
    check_items: [{ code: 'WTR-1', quantity: 1, price: amount }],
    ...bodyExtra,
  };
  store.record({
    id,
    kind: 'check',
    subtype: 'online',
    localDate: new Date(clock.now()).toISOString().slice(0, 10),
    check: { transactionType: 'sale', amountToPay: amount, currency: 'EUR', document: body },
    payments: [{ type: 'cash', amount, currency: 'EUR' }],
    outbox: {
      operation: 'process_check',
      version: OUTBOX_PAYLOAD_VERSION,
      payload: {
        body,
        app_version: 'test',
        schema_version: 2,
        made_at: new Date(clock.now()).toISOString(),
        clock_suspect: false,
        ...payloadExtra,
      },
    },
  });
  return id;
}

/** Drains until the queue is empty, sleeping until the next row is due (bounded). */
export async function drainAll(
  pusher: OutboxPusher,
  store: Store,
  deadlineMs = 60_000,
): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const r = await pusher.drain();
    const depth = store.outbox.depth();
    if (depth.queued === 0 && depth.sending === 0) return;
    if (Date.now() > end) throw new Error(`outbox not drained: ${JSON.stringify(depth)}`);
    const wait = r.nextDueAt === null ? 1 : Math.max(0, r.nextDueAt - Date.now());
    await new Promise((res) => setTimeout(res, Math.min(wait, 200)));
  }
}

export { manualClock };

/** Anna spends 2 bonuses on a can of oil: a check that goes online first. */
export const annaSpends: EngineCheck = {
  customer_id: DEMO.customers.anna,
  bonuses_redeemed_amount: 2,
  check_items: [{ code: 'OIL-1', category: 'shop', quantity: 1, price: 12.9 }],
};

/** Waits (bounded) until `check` holds, e.g. until the sandbox has recorded a transaction. */
export async function waitUntil(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
