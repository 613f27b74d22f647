// Starts the sandbox central service: its store, its service over the check engine, its HTTP
// server on 127.0.0.1. Everything is passed in or built here, so a test can run several.
import { randomInt } from 'node:crypto';
import { seededRandom } from './faults.js';
import { defaultEngine } from './engine.js';
import { DEMO, seedDemo, seedTerminalOnly } from './seed.js';
import { createCentralServer, type CentralServer } from './server.js';
import {
  createService,
  type CentralClock,
  type CentralService,
  type RunEngine,
} from './service.js';
import { CentralStore } from './store/central-store.js';

export interface StartCentralOptions {
  /** 0 = any free port. */
  port?: number;
  /** The sandbox's SQLite file; `:memory:` by default. */
  db?: string;
  seed?: 'demo' | 'none';
  clock?: CentralClock;
  engine?: RunEngine;
  /** Seed of the fault generator; random by default. */
  faultSeed?: number;
  tokenTtlMs?: number;
  /** PEM certificate and key: the sandbox serves HTTPS (`central --tls-cert --tls-key`). */
  tls?: { cert: string; key: string };
}

export interface RunningCentral {
  url: string;
  terminal_id: string;
  api_key: string;
  store: CentralStore;
  service: CentralService;
  server: CentralServer;
  close(): Promise<void>;
}

export const systemClock: CentralClock = { now: () => Date.now() };

export async function startCentral(o: StartCentralOptions = {}): Promise<RunningCentral> {
  const clock = o.clock ?? systemClock;
  const store = CentralStore.open(o.db ?? ':memory:');
  try {
    // A new sandbox gets the demo business, or at least the demo terminal (so its printed
    // credentials work); an existing file keeps what it has.
    if (!store.firstTerminal()) {
      if ((o.seed ?? 'demo') === 'demo') seedDemo(store, clock.now());
      else seedTerminalOnly(store);
    }
    const service = createService({
      store,
      engine: o.engine ?? defaultEngine,
      clock,
      ...(o.tokenTtlMs ? { tokenTtlMs: o.tokenTtlMs } : {}),
    });
    const server = createCentralServer({
      store,
      service,
      clock,
      random: seededRandom(o.faultSeed ?? randomInt(2 ** 31)),
      ...(o.tls ? { tls: o.tls } : {}),
    });
    const url = await server.listen(o.port ?? 0);
    return {
      url,
      terminal_id: DEMO.terminalId,
      api_key: DEMO.apiKey,
      store,
      service,
      server,
      async close() {
        await server.close();
        store.close();
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}

export { DEMO, demoId } from './seed.js';
export type { FaultSettings } from './faults.js';
