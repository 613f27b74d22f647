// A till's pumps for the tests: the real DART master on one end of a socat pty pair and the
// DART simulator on the other (9600 8O1), given to the till as its devices, so the till wires
// them as it wires the configured line. Fails, never skips, without socat.
import { DartMaster } from '../../src/devices/dart/master.js';
import { DartSimulator } from '../../src/devices/dart/simulator.js';
import type { PumpStateName } from '../../src/devices/forecourt/port.js';
import { ManagedLink } from '../../src/devices/link.js';
import type { DeviceSet } from '../../src/devices/registry.js';
import { openSerial } from '../../src/devices/serial.js';
import { DeviceStates } from '../../src/devices/states.js';
import { PtyPair, waitFor } from '../devices/support/pty.js';
import { attachToPty } from '../devices/support/sim-host.js';

export interface DartForecourt {
  sim: DartSimulator;
  master: DartMaster;
  devices: DeviceSet;
  until(pump: number, state: PumpStateName, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** `pumps` pumps of two nozzles each (simulator prices 1.799 and 1.659 before any update). */
export async function dartForecourt(pumps = 2): Promise<DartForecourt> {
  const sim = new DartSimulator(
    Array.from({ length: pumps }, (_, i) => ({ pump: i + 1, prices: [1799, 1659] })),
  );
  const pty = await PtyPair.open();
  const link = new ManagedLink(
    () => openSerial({ path: pty.a, baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1 }),
    { reconnectMinMs: 50, reconnectMaxMs: 200, livenessMs: 100 },
  );
  link.start();
  const simSide = attachToPty(sim, pty.b, 50);
  await link.waitOpen(3_000);
  await simSide.link.waitOpen(3_000);
  const master = new DartMaster(link, {
    pumps: Array.from({ length: pumps }, (_, i) => i + 1),
    timeouts: { response_ms: 150, inter_byte_ms: 40 },
    cycleGapMs: 5,
  });
  master.start();
  const until = (pump: number, state: PumpStateName, ms = 5_000) =>
    waitFor(() => master.pump(pump)?.state === state, ms, `pump ${pump} ${state}`);
  for (let p = 1; p <= pumps; p++) await until(p, 'idle');
  const close = async () => {
    await master.close();
    await link.stop();
    await simSide.stop();
    await pty.close();
  };
  const devices: DeviceSet = {
    cardReader: null,
    scanner: null,
    payment: null,
    printer: null,
    tankGauge: null,
    pumps: master,
    states: new DeviceStates(),
    simulators: {},
    // The test closes the line after the till (a till's close must not end the pumps' line
    // twice), so the till's own close is empty.
    close: async () => undefined,
  };
  return { sim, master, devices, until, close };
}

/** `devices.pumps` of the till's config: nozzle 1 Super 95 from tank 2, nozzle 2 Diesel from tank 1. */
export function nozzleConfig(pumps = 2): Record<string, unknown> {
  return {
    pumps: {
      simulated: true,
      pumps: Array.from({ length: pumps }, (_, i) => i + 1),
      nozzles: Object.fromEntries(
        Array.from({ length: pumps }, (_, i) => [
          String(i + 1),
          { '1': { goods_code: 'FUEL-95', tank: 2 }, '2': { goods_code: 'DIESEL', tank: 1 } },
        ]),
      ),
    },
  };
}
