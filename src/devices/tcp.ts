// TCP transports: the client side for ZVT over TCP and TLS gauges on a terminal server, and a
// one-peer server side for simulators.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { RawConnection } from './link.js';

function wrap(socket: Socket): RawConnection {
  let closed = false;
  const closeListeners: ((reason: string) => void)[] = [];
  const fire = (reason: string) => {
    if (closed) return;
    closed = true;
    for (const fn of closeListeners) fn(reason);
  };
  socket.on('close', () => fire('closed by peer'));
  socket.on('error', (e) => fire(`error: ${e.message}`));
  socket.setNoDelay(true);
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) =>
        socket.write(bytes, (err) => (err ? reject(err) : resolve())),
      ),
    close: async () => {
      closed = true;
      socket.destroy();
    },
    onData: (fn) => socket.on('data', (chunk: Buffer) => fn(new Uint8Array(chunk))),
    onClose: (fn) => closeListeners.push(fn),
    alive: async () => !closed && !socket.destroyed,
  };
}

export function openTcp(
  host: string,
  port: number,
  connectTimeoutMs: number,
): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect to ${host}:${port} timed out`));
    }, connectTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(wrap(socket));
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Listens on 127.0.0.1 (port 0 = any) and hands each accepted socket over as a connection. */
export async function listenTcp(
  port: number,
  onConnection: (conn: RawConnection) => void,
): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onConnection(wrap(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const real = typeof addr === 'object' && addr !== null ? addr.port : port;
  return {
    server,
    port: real,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
