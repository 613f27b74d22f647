// `cash-movement`: cash paid into or out of the drawer outside a sale (docs/terminal.md,
// "Cash movements"). The terminal owns who, when and which shift; the amount is rounded to
// the drawer's digits as counted cash is (shifts.ts), and the shift report counts it.
import type {
  CashMovement,
  CommandOutput,
  ErrorResponse,
  HandlerInput,
} from '../contract/commands.js';
import { dec, round, toFixed, toNumber } from '../money/index.js';
import type { CashMovementRecord } from '../store/cash-movements.js';
import { refuse } from './command-map.js';
import { requestHash } from './idempotency.js';
import type { TerminalPorts } from './ports.js';
import type { Workflow } from './workflow.js';

const DRAWER_DIGITS = 2;

export function cashMovementOut(m: CashMovementRecord): CashMovement {
  return {
    id: m.id,
    shift_id: m.shiftId,
    kind: m.kind,
    amount: toNumber(dec(m.amount)),
    reason: m.reason,
    staff: { id: m.staffId, ...(m.staffName ? { name: m.staffName } : {}) },
    recorded_at: new Date(m.recordedAt).toISOString(),
  };
}

export class CashMovementService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;

  constructor(p: TerminalPorts, wf: Workflow) {
    this.p = p;
    this.wf = wf;
  }

  /** Records the movement once per idempotency key: a retry gets the first answer. */
  record(i: HandlerInput<'cash-movement'>): CommandOutput<'cash-movement'> | ErrorResponse {
    const key = i.idempotency_key;
    if (key === undefined) return this.recordOnce(i);
    const hash = requestHash(i);
    const { store, clock } = this.p;
    // One write transaction: the movement and its kept answer commit together or not at all.
    return store.write(() => {
      const kept = store.commandResults.get('cash-movement', key);
      if (kept) {
        return kept.requestHash === hash
          ? kept.response
          : refuse(
              'idempotency-conflict',
              'this idempotency_key was used for another cash movement',
              'idempotency_key',
            );
      }
      const answer = this.recordOnce(i);
      if (!('error' in answer))
        store.commandResults.put('cash-movement', key, hash, answer, clock.now());
      return answer;
    });
  }

  private recordOnce(
    i: HandlerInput<'cash-movement'>,
  ): CommandOutput<'cash-movement'> | ErrorResponse {
    const staff = this.wf.staff!;
    const shift = this.p.store.shifts.current();
    if (!shift) return refuse('shift-required', 'no shift is open');
    const m = this.p.store.cashMovements.add({
      id: this.p.ids.newId(),
      shiftId: shift.id,
      kind: i.kind,
      amount: toFixed(round(dec(i.amount), DRAWER_DIGITS), DRAWER_DIGITS),
      reason: i.reason,
      staffId: staff.id,
      staffName: staff.name ?? null,
      recordedAt: this.p.clock.now(),
    });
    this.p.log.info('cash moved', { kind: m.kind, amount: m.amount, shift_id: m.shiftId });
    return { movement: cashMovementOut(m) };
  }
}
