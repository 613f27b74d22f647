// The forecourt on the event stream (issue 16, point 3; docs/forecourt.md, "Events"): every
// change a pump reports (its state, its nozzle, the litres and amount running while it fuels)
// goes out as `pump-state`, the pump as `forecourt-state` shows it with its unpaid fills, so
// a screen follows the pumps live without asking. A fill kept (or paid) changes what a pump
// shows without a pump event: `publish` sends the pump again then.
import type { PumpStateName } from '../contract/forecourt.js';
import type { ForecourtPort } from '../devices/forecourt/port.js';
import type { ForecourtService } from './forecourt.js';
import type { Logger } from './log.js';
import type { Emit } from './ports.js';

export interface PumpEvents {
  /** Sends pump `n` as it is now (`previous`: the state it changed from; default its own). */
  publish(n: number, previous?: PumpStateName | null): void;
  stop(): void;
}

export function followPumpEvents(
  port: ForecourtPort | null,
  forecourt: ForecourtService,
  emit: Emit | undefined,
  log: Logger,
): PumpEvents {
  const publish = (n: number, previous?: PumpStateName | null) => {
    if (!emit) return;
    const all = forecourt.state();
    if ('error' in all) return;
    const pump = all.pumps.find((p) => p.pump === n);
    if (!pump) return;
    try {
      emit('pump-state', {
        previous: previous === undefined ? pump.state : previous,
        pump,
        unpaid: all.unpaid.filter((f) => f.pump === n),
      });
    } catch (e) {
      log.warn('pump event not sent', { pump: n, err: e });
    }
  };
  const off = port && emit ? port.onEvent((e) => publish(e.pump.pump, e.previous)) : () => {};
  return { publish, stop: off };
}
