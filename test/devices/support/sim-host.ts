// Attaches a simulator to a real line, for the device tests: one side of a pty pair (reopened
// after an unplug like any device) or a TCP port on 127.0.0.1. Moved out of src/devices:
// nothing but these tests runs a simulator on a line this way.
import { EventEmitter } from 'node:events';
import {
  type ByteLink,
  LinkError,
  type LinkState,
  ManagedLink,
  type RawConnection,
} from '../../../src/devices/link.js';
import { openSerial } from '../../../src/devices/serial.js';
import type { Simulator } from '../../../src/devices/sim/host.js';
import { listenTcp } from '../../../src/devices/tcp.js';

export function attachToPty(
  sim: Simulator,
  path: string,
  reconnectMs = 100,
): { link: ManagedLink; stop: () => Promise<void> } {
  const link = new ManagedLink(
    () => openSerial({ path, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 }),
    { reconnectMinMs: reconnectMs, reconnectMaxMs: reconnectMs * 4, livenessMs: reconnectMs },
  );
  const detach = sim.attach(link);
  link.start();
  return {
    link,
    stop: async () => {
      detach();
      await link.stop();
    },
  };
}

/** A connection accepted by a server, as a link that never reopens (the client does). */
class AcceptedLink implements ByteLink {
  private readonly events = new EventEmitter();
  private current: LinkState = 'open';
  private readonly conn: RawConnection;

  constructor(conn: RawConnection) {
    this.conn = conn;
    conn.onData((c) => this.events.emit('data', c));
    conn.onClose(() => {
      this.current = 'stopped';
      this.events.emit('state', 'stopped', null);
    });
  }

  get state(): LinkState {
    return this.current;
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.current !== 'open')
      return Promise.reject(new LinkError('not-open', 'connection closed'));
    return this.conn.write(bytes);
  }

  onData(fn: (chunk: Uint8Array) => void): () => void {
    this.events.on('data', fn);
    return () => this.events.off('data', fn);
  }

  onState(fn: (state: LinkState, detail: string | null) => void): () => void {
    this.events.on('state', fn);
    return () => this.events.off('state', fn);
  }

  async waitOpen(): Promise<void> {
    if (this.current !== 'open') throw new LinkError('not-open', 'connection closed');
  }

  start(): void {}

  async stop(): Promise<void> {
    await this.conn.close();
  }
}

export async function serveTcp(
  sim: Simulator,
  port = 0,
): Promise<{ port: number; close: () => Promise<void> }> {
  const detachers: (() => void)[] = [];
  const server = await listenTcp(port, (conn) =>
    detachers.push(sim.attach(new AcceptedLink(conn))),
  );
  return {
    port: server.port,
    close: async () => {
      for (const d of detachers) d();
      await server.close();
    },
  };
}
