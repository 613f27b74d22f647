// `simulator-pump` (issue 16, point 2; docs/forecourt.md, "A person at a simulated pump"): a
// tester at the till, or a test, acts as a person at a simulated DART pump: lifts a nozzle,
// dispenses (so many litres, or until the pump's preset) and hangs up. The pump's own bytes
// then tell the till what happened, over the same line as a real pump's would. Dispensing
// runs at the pump's flow rate in small steps, so the screen sees the litres running. Real
// pumps are refused: nobody at the till pours fuel into a real car.
import type { CommandOutput, ErrorResponse, HandlerInput } from '../contract/commands.js';
import type { SimulatedPump } from '../contract/forecourt.js';
import type { DartSimulator, SimPump } from '../devices/dart/simulator.js';
import { dec, fromMinor, toFixed, toMinor } from '../money/index.js';
import { refuse } from './command-map.js';

/** DC1 status codes of the simulated pump (src/devices/dart/simulator.ts). */
const AUTHORISED = 2;
const FILLING = 4;
const SUSPENDED = 8;

/** One step of a dispense: the flow this often, so the litres run on the screen. */
export const FLOW_TICK_MS = 100;

interface Flow {
  timer: NodeJS.Timeout;
  /** Raw volume (0.01 l) at which it stops; null: at the preset. */
  until: number | null;
}

export class PumpSimulator {
  private readonly sim: DartSimulator | null;
  private readonly hasPumps: boolean;
  private readonly tickMs: number;
  private readonly flows = new Map<number, Flow>();

  /** `sim`: the simulator behind the till's pumps, if they are simulated. */
  constructor(sim: DartSimulator | null, hasPumps: boolean, tickMs = FLOW_TICK_MS) {
    this.sim = sim;
    this.hasPumps = hasPumps;
    this.tickMs = tickMs;
  }

  run(i: HandlerInput<'simulator-pump'>): CommandOutput<'simulator-pump'> | ErrorResponse {
    const p = this.pumpOf(i.pump);
    if ('error' in p) return p;
    const refused =
      i.action === 'lift'
        ? this.lift(p, i.nozzle ?? 1)
        : i.action === 'dispense'
          ? this.dispense(p, i.litres)
          : this.hangUp(p);
    return refused ?? { simulated: this.view(p) };
  }

  /** Stops every flow (the till closes). */
  stop(): void {
    for (const n of [...this.flows.keys()]) this.endFlow(n);
  }

  private pumpOf(n: number): SimPump | ErrorResponse {
    if (!this.sim) {
      return this.hasPumps
        ? refuse(
            'pump-not-simulated',
            'the pumps of this till are real: only a simulated pump can be worked from the till',
            'pump',
          )
        : refuse('no-forecourt', 'no pumps are connected to this till', '(root)');
    }
    const p = this.sim.pumps.get(n);
    return p ?? refuse('unknown-pump', `this till has no pump ${n}`, 'pump');
  }

  private lift(p: SimPump, nozzle: number): ErrorResponse | null {
    if (nozzle > p.prices.length)
      return refuse(
        'unknown-nozzle',
        `pump ${p.pump} has nozzles 1 to ${p.prices.length}`,
        'nozzle',
      );
    if (p.nozzleOut)
      return refuse(
        'nozzle-up',
        `nozzle ${p.nozzle} of pump ${p.pump} is already lifted: hang it up first`,
        'action',
      );
    this.sim!.lift(p.pump, nozzle);
    return null;
  }

  private dispense(p: SimPump, litres: number | undefined): ErrorResponse | null {
    if (!p.nozzleOut)
      return refuse('nozzle-down', `lift a nozzle of pump ${p.pump} first`, 'action');
    if (p.status !== AUTHORISED && p.status !== FILLING && p.status !== SUSPENDED)
      return refuse(
        'pump-not-released',
        `pump ${p.pump} is not released: release it from the forecourt first`,
        'action',
      );
    if (p.allowed && !p.allowed.includes(p.nozzle))
      return refuse(
        'nozzle-not-allowed',
        `pump ${p.pump} was released for other nozzles than ${p.nozzle}`,
        'action',
      );
    if (this.flows.has(p.pump))
      return refuse('already-flowing', `fuel is already running at pump ${p.pump}`, 'action');
    if (litres === undefined && !p.preset)
      return refuse(
        'litres-required',
        `say how many litres: pump ${p.pump} has no preset to stop at`,
        'litres',
      );
    // litres has at most two decimals (the contract's refinement): exact in hundredths
    const until = litres === undefined ? null : p.volume + Number(toMinor(dec(litres), 2));
    const timer = setInterval(() => this.step(p.pump), this.tickMs);
    this.flows.set(p.pump, { timer, until });
    return null;
  }

  /** One step of the flow; ends when the litres or the preset are reached, or the pump stops. */
  private step(n: number): void {
    const flow = this.flows.get(n);
    const p = this.sim?.pumps.get(n);
    if (!flow || !p) return;
    if (p.status === SUSPENDED) return; // the till suspended it: the flow waits for a resume
    if (!p.nozzleOut || (p.status !== AUTHORISED && p.status !== FILLING)) return this.endFlow(n);
    const step = Math.max(1, Math.round((p.flowRate * this.tickMs) / 1000));
    const left = flow.until === null ? step : Math.min(step, flow.until - p.volume);
    if (left > 0) this.sim!.dispense(n, left);
    const done = flow.until !== null && p.volume >= flow.until;
    if (done || p.status !== FILLING) this.endFlow(n);
  }

  private hangUp(p: SimPump): ErrorResponse | null {
    if (!p.nozzleOut)
      return refuse('nozzle-down', `no nozzle of pump ${p.pump} is lifted`, 'action');
    this.endFlow(p.pump);
    this.sim!.hangUp(p.pump);
    return null;
  }

  private endFlow(n: number): void {
    const flow = this.flows.get(n);
    if (!flow) return;
    clearInterval(flow.timer);
    this.flows.delete(n);
  }

  private view(p: SimPump): SimulatedPump {
    return {
      pump: p.pump,
      nozzle: p.nozzleOut ? p.nozzle : null,
      volume: toFixed(fromMinor(p.volume, 2)),
      amount: toFixed(fromMinor(p.amount, 2)),
      flowing: this.flows.has(p.pump),
    };
  }
}
