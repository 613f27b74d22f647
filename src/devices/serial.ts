// The one place that opens serial lines (serialport 13, lock on). The configured path is
// polled while open, because a vanished pty or USB adapter does not always close the port.
import { realpath } from 'node:fs/promises';
import { SerialPort } from 'serialport';
import type { RawConnection } from './link.js';

export interface SerialSettings {
  path: string;
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  parity: 'none' | 'even' | 'odd' | 'mark' | 'space';
  stopBits: 1 | 1.5 | 2;
}

export async function openSerial(s: SerialSettings): Promise<RawConnection> {
  const target = await realpath(s.path);
  const port = new SerialPort({
    path: s.path,
    baudRate: s.baudRate,
    dataBits: s.dataBits,
    parity: s.parity,
    stopBits: s.stopBits,
    lock: true,
    autoOpen: false,
  });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  let closed = false;
  const closeListeners: ((reason: string) => void)[] = [];
  const fireClose = (reason: string) => {
    if (closed) return;
    closed = true;
    for (const fn of closeListeners) fn(reason);
  };
  port.on('close', (err?: Error & { disconnected?: boolean }) =>
    fireClose(err?.disconnected ? `disconnected: ${err.message}` : 'closed'),
  );
  // Errors also arrive as close with `disconnected`; without a listener they would throw.
  port.on('error', (err: Error) => fireClose(`error: ${err.message}`));
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        port.write(Buffer.from(bytes), (err) => {
          if (err) return reject(err);
          port.drain((e) => (e ? reject(e) : resolve()));
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (!port.isOpen) return resolve();
        port.close(() => resolve());
      }),
    onData: (fn) => port.on('data', (chunk: Buffer) => fn(new Uint8Array(chunk))),
    onClose: (fn) => closeListeners.push(fn),
    alive: async () => {
      if (closed) return false;
      try {
        return (await realpath(s.path)) === target;
      } catch {
        return false;
      }
    },
  };
}

export interface ListedPort {
  path: string;
  manufacturer: string | null;
  serial_number: string | null;
  vendor_id: string | null;
  product_id: string | null;
}

/** The ports the system enumerates; needs udev on Linux and never lists ptys. */
export async function listSerialPorts(): Promise<
  { ok: true; ports: ListedPort[] } | { ok: false; reason: string }
> {
  try {
    const ports = await SerialPort.list();
    return {
      ok: true,
      ports: ports.map((p) => ({
        path: p.path,
        manufacturer: p.manufacturer ?? null,
        serial_number: p.serialNumber ?? null,
        vendor_id: p.vendorId ?? null,
        product_id: p.productId ?? null,
      })),
    };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}
