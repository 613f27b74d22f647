// `drawer-open`: the cash drawer opened on request, outside a sale (docs/terminal.md, "The cash
// drawer"). The pulse goes through the receipt printer (receipt-service.ts); the opening is
// journalled with who, when, why and whether the printer took it, so the shift report shows
// a manager every opening that moved no sale's cash.
import type {
  CommandOutput,
  DrawerOpening,
  ErrorResponse,
  HandlerInput,
} from '../contract/commands.js';
import type { DrawerOpeningRecord } from '../store/drawer-openings.js';
import { refuse } from './command-map.js';
import type { TerminalPorts } from './ports.js';
import type { ReceiptService } from './receipt-service.js';
import type { Workflow } from './workflow.js';

export function drawerOpeningOut(o: DrawerOpeningRecord): DrawerOpening {
  return {
    id: o.id,
    shift_id: o.shiftId,
    staff: { id: o.staffId, ...(o.staffName ? { name: o.staffName } : {}) },
    ...(o.reason !== null ? { reason: o.reason } : {}),
    pulse_sent: o.pulseSent,
    opened_at: new Date(o.openedAt).toISOString(),
  };
}

export class DrawerService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;
  private readonly receipts: ReceiptService;

  constructor(p: TerminalPorts, wf: Workflow, receipts: ReceiptService) {
    this.p = p;
    this.wf = wf;
    this.receipts = receipts;
  }

  /** Sends the pulse, then journals the opening (also when the printer did not take it). */
  async open(
    i: HandlerInput<'drawer-open'>,
  ): Promise<CommandOutput<'drawer-open'> | ErrorResponse> {
    const staff = this.wf.staff!;
    const shift = this.p.store.shifts.current();
    if (!shift) return refuse('shift-required', 'no shift is open');
    const pulseSent = await this.receipts.pulseDrawer();
    const o = this.p.store.drawerOpenings.add({
      id: this.p.ids.newId(),
      shiftId: shift.id,
      staffId: staff.id,
      staffName: staff.name ?? null,
      reason: i.reason ?? null,
      pulseSent,
      openedAt: this.p.clock.now(),
    });
    this.p.log.info('drawer opened on request', {
      shift_id: o.shiftId,
      staff_id: o.staffId,
      pulse_sent: pulseSent,
    });
    return { opening: drawerOpeningOut(o) };
  }
}
