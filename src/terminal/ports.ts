// What the terminal's services are given: the clock, ids, the logger, the store, the link to
// the central service, the devices and the configuration. Passed in, never imported as state,
// so a test wires real parts (a temp SQLite file, the sandbox over HTTP, simulators).
import type { EventName, EventPayload } from '../contract/commands.js';
import type { Config } from '../contract/config.js';
import type { DeviceSet } from '../devices/registry.js';
import type { Store } from '../store/open.js';
import type { SyncClock } from '../sync/clock.js';
import type { SyncService } from '../sync/sync-service.js';
import type { Logger } from './log.js';

export interface Ids {
  /** A UUIDv7 for a new operation (sync.md: made before anything is sent). */
  newId(): string;
}

export interface AppInfo {
  name: string;
  version: string;
}

export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** The sandbox central service run in-process when no central URL is configured. */
export interface EmbeddedCentral {
  readonly url: string;
  /** The demo terminal's key: the only one the sandbox knows. */
  readonly api_key: string;
  close(): Promise<void>;
}

/**
 * Starts the embedded sandbox over its SQLite file in the data directory. The terminal never
 * imports the sandbox: the launchers (the agent, the Electron app, `sync pull|push`) pass
 * src/central/embedded.ts's `startEmbeddedCentral` in.
 */
export type StartEmbeddedCentral = (o: {
  db: string;
  clock: { now(): number };
}) => Promise<EmbeddedCentral>;

export interface TerminalPorts {
  config: Config;
  terminalId: string;
  app: AppInfo;
  clock: SyncClock;
  ids: Ids;
  /** The store's schema version, carried by every outbox payload (sync.md). */
  schemaVersion: number;
  log: Logger;
  store: Store;
  sync: SyncService;
  devices: DeviceSet | null;
  /** The event hub of the transports (`on()`); absent = nobody listens. */
  emit?: Emit;
}
