// One till for the workflow tests: the sandbox central service over HTTP on 127.0.0.1 (its own
// SQLite file), a terminal over a real SQLite file in a temp directory, simulated devices, and
// the command map in front, so every call is validated as the UI's and the API's would be.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { CommandName, CommandOutput, ErrorResponse } from '../../src/contract/commands.js';
import { ConfigSchema } from '../../src/contract/config.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { createCommandMap } from '../../src/terminal/command-map.js';
import { createFileLogger } from '../../src/terminal/log.js';
import type { SecretStore } from '../../src/config/secret-store.js';
import { setCataloguePrice } from '../support/catalogue.js';
import { memorySecretStore } from '../support/secrets.js';
import {
  createTerminal,
  type CreateTerminalOptions,
  type Terminal,
} from '../../src/terminal/terminal.js';
import type { SyncClock } from '../../src/sync/clock.js';
import { MemoryLink } from '../../src/devices/link.js';
import type { DeviceSet } from '../../src/devices/registry.js';
import { DeviceStates } from '../../src/devices/states.js';
import { ZvtUnit } from '../../src/devices/zvt/driver.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';

export interface Till {
  dir: string;
  central: RunningCentral;
  terminal: Terminal;
  /** Calls a command through the command map: the answer (status 200) or the refusal. */
  call<N extends CommandName>(
    name: N,
    input: unknown,
  ): Promise<{ status: number; body: CommandOutput<N> | ErrorResponse }>;
  /** Calls and expects success. */
  ok<N extends CommandName>(name: N, input: unknown): Promise<CommandOutput<N>>;
  /** Calls and expects a refusal with this code. */
  refused(name: CommandName, input: unknown, code: string): Promise<ErrorResponse>;
  close(): Promise<void>;
}

export interface TillOptions {
  standin?: Record<string, number>;
  signIn?: Record<string, number>;
  /** `terminal.pin_attempts` (the PIN-attempt limit). */
  pinAttempts?: Record<string, number>;
  /** The terminal's clock (default: the system's). */
  clock?: SyncClock;
  /** Reuse this sandbox (else one is started with its own file). */
  central?: RunningCentral;
  dir?: string;
  devices?: Record<string, unknown>;
  /** Keys merged into the `central` section (e.g. an `api_key` written in clear). */
  central_config?: Record<string, unknown>;
  /** Default: an empty store in memory. */
  secrets?: SecretStore;
  /** The devices themselves (default: built from `devices`). */
  deviceSet?: DeviceSet;
  /** Keys merged into the `terminal` section. */
  terminal_config?: Record<string, unknown>;
  /** The pumps (a forecourt port and each nozzle's grade). */
  forecourt?: CreateTerminalOptions['forecourt'];
  /** Where the terminal's events go (none: not sent). */
  emit?: CreateTerminalOptions['emit'];
  /** Outputs left unchecked, as a running terminal leaves them (default: every one checked). */
  trusted?: ReadonlySet<CommandName>;
}

export function tempDir(prefix = 'lt-till-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function openTill(o: TillOptions = {}): Promise<Till> {
  const dir = o.dir ?? tempDir();
  const central =
    o.central ?? (await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 }));
  const config = ConfigSchema.parse({
    central: {
      url: central.url,
      timeouts: { connect_ms: 500, headers_ms: 1_500, body_ms: 1_500, online_deadline_ms: 1_000 },
      retry: { base_ms: 1, max_ms: 20, drain_interval_ms: 60_000 },
      ...o.central_config,
    },
    standin: o.standin ?? {},
    terminal: { sign_in: o.signIn ?? {}, pin_attempts: o.pinAttempts ?? {}, ...o.terminal_config },
    ...(o.devices ? { devices: o.devices } : {}),
  });
  const log = createFileLogger({ dir: join(dir, 'logs'), name: 'terminal' });
  const terminal = await createTerminal({
    dataDir: dir,
    config,
    secrets: o.secrets ?? memorySecretStore(),
    log,
    startSync: false,
    app: { name: 'lt', version: 'test' },
    ...(o.deviceSet ? { devices: o.deviceSet } : {}),
    ...(o.forecourt ? { forecourt: o.forecourt } : {}),
    ...(o.emit ? { emit: o.emit } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
  });
  const pulled = await terminal.sync.pull();
  expect(pulled.ok).toBe(true);
  const map = createCommandMap({ log, ...(o.trusted ? { trusted: o.trusted } : {}) });
  for (const [name, handler] of Object.entries(terminal.handlers))
    map.register(name as CommandName, handler as never);
  let n = 0;
  const call = async (name: CommandName, input: unknown) => {
    const r = await map.dispatch(name, input, { via: 'internal', requestId: `t${++n}` });
    return { status: r.status, body: r.body };
  };
  return {
    dir,
    central,
    terminal,
    call: call as Till['call'],
    async ok(name, input) {
      const r = await call(name, input);
      if (r.status !== 200) throw new Error(`${name} refused: ${JSON.stringify(r.body)}`);
      return r.body as never;
    },
    async refused(name, input, code) {
      const r = await call(name, input);
      expect(r.status, JSON.stringify(r.body)).not.toBe(200);
      const body = r.body as ErrorResponse;
      expect(body.error.code).toBe(code);
      return body;
    },
    async close() {
      await terminal.close();
      log.close();
      if (!o.central) await central.close();
      if (!o.dir && !process.env.KEEP_TILL) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A till's devices: only a ZVT payment unit, on a fresh line to `sim`. The simulator outlives
 * the till, as a real unit does; `unplug()` cuts the line (the till died).
 */
export function paymentDevices(sim: ZvtSimulator): DeviceSet & { unplug(): void } {
  const [ours, theirs] = MemoryLink.pair();
  const detach = sim.attach(theirs);
  const unit = new ZvtUnit(ours, {
    transport: 'serial',
    timeouts: { inter_byte_ms: 200, ack_ms: 300, message_ms: 1_500, transaction_ms: 3_000 },
  });
  return {
    cardReader: null,
    scanner: null,
    payment: unit,
    printer: null,
    tankGauge: null,
    pumps: null,
    states: new DeviceStates(),
    simulators: { payment: sim },
    unplug: detach,
    async close() {
      detach();
      await unit.close();
    },
  };
}

export const item = (code: string, quantity: number, extra: Record<string, unknown> = {}) => ({
  code,
  quantity,
  ...extra,
});

/**
 * One till per test, closed after it: `open` starts it, `signedIn` also signs the staff member
 * in (the cashier unless named) and opens a shift.
 */
export function tillPerTest() {
  let till: Till | null = null;
  afterEach(async () => {
    await till?.close();
    till = null;
  });
  const open = async (o: TillOptions = {}): Promise<Till> => {
    till = await openTill(o);
    return till;
  };
  const signedIn = async (
    code: string = DEMO.authCodes.cashier,
    o: TillOptions = {},
  ): Promise<Till> => {
    const t = await open(o);
    await t.ok('staff-sign-in', { auth_code: code });
    await t.ok('shift-open', {});
    return t;
  };
  return { open, signedIn };
}

/** Driver 1 paying from the fleet account through the driver's access, presented by card. */
export const driver1Fleet = {
  customer_id: DEMO.customers.driver1,
  id: DEMO.cards.driver1,
  id_type: 'card',
  corporate_customer_id: DEMO.customers.fleet,
  payment_type: 'corporate-special-account',
  payment_id: DEMO.accesses.driver1,
  vehicle_id: 'TRUCK-1',
} as const;

/** Sets a good's price in the central service's POS catalogue and pulls it into the till. */
export async function centralPrice(t: Till, code: string, price: number): Promise<void> {
  setCataloguePrice(t.central, code, price);
  expect((await t.terminal.sync.pull()).ok).toBe(true);
}
