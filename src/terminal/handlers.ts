// Every command of the command map (src/contract/commands.ts) as a handler over the terminal's
// services, each admitted by the workflow first: who must be signed in, with which role, and
// whether a shift must be open, as roles.ts's COMMAND_NEEDS says for the command.
import {
  isErrorResponse,
  type CommandName,
  type CommandOutput,
  type DeviceState,
  type ErrorResponse,
  type HandlerInput,
  type StandinState,
  type SyncState,
} from '../contract/commands.js';
import type { Config } from '../contract/config.js';
import type { CustomerDisplay } from '../contract/customer-display.js';
import { EngineLoyalty } from '../contract/engine.js';
import type { DeviceState as DriverDeviceState } from '../devices/states.js';
import type { Handlers } from './command-map.js';
import type { TerminalPorts } from './ports.js';
import { dec } from '../money/index.js';
import { standinAllowance } from '../sync/standin.js';
import { scopeOf, type SaleService } from './sale-service.js';
import type { AttentionService } from './attention.js';
import type { CardPayments } from './card-payments.js';
import type { CashMovementService } from './cash-movements.js';
import type { DrawerService } from './drawer.js';
import type { BonusOperationService } from './bonus-operations.js';
import type { ForecourtService } from './forecourt.js';
import type { PumpSimulator } from './pump-simulator.js';
import type { CouponSaleService } from './coupon-sales.js';
import type { ShiftReportService } from './shift-reports.js';
import type { CatalogService } from './catalog.js';
import type { CheckoutService } from './checkout.js';
import type { ReceiptService } from './receipt-service.js';
import type { SalesRecent } from './sales-recent.js';
import type { IdentifyService } from './identify.js';
import type { ReturnsService } from './returns.js';
import type { ShiftService } from './shifts.js';
import type { StaffService } from './staff.js';
import type { TankService } from './tanks.js';
import type { PumpPriceService } from './pump-prices.js';
import type { PumpTotalsService } from './pump-totals.js';
import { displayOfCheck, displayOfSale } from './customer-display.js';
import { posZone } from './pos-date.js';
import { needsOf } from './roles.js';
import { iso, type Workflow } from './workflow.js';

export interface Services {
  workflow: Workflow;
  staff: StaffService;
  shifts: ShiftService;
  /** Cash paid into or out of the drawer outside a sale. */
  cashMoves: CashMovementService;
  /** The cash drawer opened on request. */
  drawer: DrawerService;
  /** Bonuses added or written off by hand (loyalty at the till). */
  bonusOps: BonusOperationService;
  /** Coupons and certificates sold at their batch's price. */
  couponSales: CouponSaleService;
  forecourt: ForecourtService;
  /** A person at a simulated pump (`simulator-pump`). */
  pumpSim: PumpSimulator;
  /** Shift reports kept and printed: X, Z, the latest shifts. */
  shiftReports: ShiftReportService;
  identify: IdentifyService;
  checkout: CheckoutService;
  /** The POS catalogue: search, scanned codes, quick keys. */
  catalog: CatalogService;
  /** Records a sale, or sends it online first (the pipeline's last step). */
  sales: SaleService;
  returns: ReturnsService;
  /** Receipts: the sale's preview, reprints. */
  receipts: ReceiptService;
  /** This terminal's sales, newest first. */
  recent: SalesRecent;
  cards: CardPayments;
  attention: AttentionService;
  /** Tank readings, dips, deliveries and wet stock. */
  tanks: TankService;
  /** The pumps' totalizers, read at shift open and close. */
  pumpTotals: PumpTotalsService;
  /** Fuel prices sent to the pumps; null without a forecourt. */
  pumpPrices: PumpPriceService | null;
  /** Whether the sync loops run. */
  syncRunning(): boolean;
}

function syncStateOf(p: TerminalPorts, running: boolean): SyncState {
  const s = p.sync.status();
  const now = p.clock.now();
  const lastPull = p.store.sync.lastPullAt();
  return {
    connection: s.state,
    outbox_depth: s.outbox.queued + s.outbox.sending,
    outbox_rejected: s.outbox.rejected,
    last_contact_at: s.sinceContactMs === null ? null : iso(now - s.sinceContactMs),
    last_pull_at: iso(lastPull),
    cache_age_s: s.cacheAgeMs === null ? null : Math.floor(s.cacheAgeMs / 1000),
    clock_skew_s: s.skewMs === null ? null : s.skewMs / 1000,
    clock_skew_warning: s.skewWarning,
    tls_failure: s.tlsFailed && {
      code: s.tlsFailed.code,
      message: s.tlsFailed.message,
      since: new Date(s.tlsFailed.at).toISOString(),
    },
    running,
    standin: standinOf(p, now, s.sinceContactMs),
  };
}

/** The offline allowance left, with bonuses valued at the rate of the till's own loyalty. */
function standinOf(p: TerminalPorts, now: number, sinceContactMs: number | null): StandinState {
  const { loyaltyId } = scopeOf(p.store, {});
  const record = loyaltyId ? p.store.cache.get('loyalty', loyaltyId) : null;
  const read = EngineLoyalty.shape.bonus_rate.safeParse(record?.bonus_rate);
  const rate = read.success ? read.data : 1;
  const a = standinAllowance({
    limits: p.config.standin,
    offlineTerminal: p.store.ledger.offlineSpending(null).terminal,
    bonusRate: dec(rate),
    sinceContactMs,
    nowMs: now,
  });
  return {
    terminal_limit: a.terminal_limit,
    terminal_left: a.terminal_left,
    spending_until: a.spending_until_ms === null ? null : iso(a.spending_until_ms),
  };
}

const LINK_STATE: Record<DriverDeviceState['state'], DeviceState['state']> = {
  connecting: 'connecting',
  open: 'connected',
  reconnecting: 'disconnected',
  stopped: 'disconnected',
};

export function devicesOf(p: TerminalPorts): DeviceState[] {
  const states = p.devices?.states.snapshot() ?? [];
  return states.map((d) => {
    const cfg = p.config.devices[d.name as keyof Config['devices']];
    return {
      kind: d.name as DeviceState['kind'],
      simulated: d.transport === 'simulated',
      protocol: d.protocol,
      transport: d.transport === 'simulated' ? (cfg?.transport ?? 'serial') : d.transport,
      ...(d.address ? { address: d.address } : {}),
      state: LINK_STATE[d.state],
      since: d.since,
      error:
        d.detail && d.state !== 'open'
          ? { code: 'device-unavailable', message: d.detail, path: `devices.${d.name}` }
          : null,
    };
  });
}

function statusOf(p: TerminalPorts, s: Services): CommandOutput<'status'> {
  return {
    app: p.app,
    terminal: {
      id: p.terminalId,
      ...(p.config.terminal.name ? { name: p.config.terminal.name } : {}),
      time_zone: posZone(p.store.cache),
    },
    staff: s.workflow.staff,
    shift: s.workflow.shift(),
    sync: syncStateOf(p, s.syncRunning()),
    attention: s.attention.count(),
    ready: true,
  };
}

// long: one line (or a few) per command of the map; it grows with the contract, not with logic.
export function createHandlers(p: TerminalPorts, s: Services): Handlers {
  const wf = s.workflow;
  /** Runs `fn` when the workflow admits the command (roles.ts, COMMAND_NEEDS), else refuses. */
  const admitted =
    <N extends CommandName>(
      name: N,
      fn: (
        input: HandlerInput<N>,
      ) => CommandOutput<N> | ErrorResponse | Promise<CommandOutput<N> | ErrorResponse>,
    ) =>
    (input: HandlerInput<N>) => {
      const needs = needsOf(name, input);
      return (needs ? wf.admit(needs) : null) ?? fn(input);
    };
  /** Passes an answer on, and has the customer's display show it (a refusal changes nothing). */
  const shown = <T extends object>(
    out: T | ErrorResponse,
    picture: (answer: T) => CustomerDisplay,
  ): T | ErrorResponse => {
    if (!p.emit || isErrorResponse(out)) return out;
    try {
      p.emit('customer-display', picture(out));
    } catch (e) {
      p.log.warn('customer display not sent', { err: e });
    }
    return out;
  };
  const emitStatus = () => {
    try {
      p.emit?.('status-changed', statusOf(p, s));
    } catch (e) {
      p.log.warn('status event not sent', { err: e });
    }
  };
  /**
   * A command whose effect is its writes: the writes, the answer and its check against the
   * output schema (and any check a test adds through `commandResults.onAnswer`) are one
   * transaction, so an answer that cannot be given leaves nothing committed. A refusal is an
   * answer: what it wrote (a failed attempt) stays.
   */
  const oneTransaction =
    <N extends CommandName>(
      name: N,
      fn: (input: HandlerInput<N>) => CommandOutput<N> | ErrorResponse,
    ) =>
    (input: HandlerInput<N>): CommandOutput<N> | ErrorResponse =>
      p.store.write(() => {
        const out = fn(input);
        if (!isErrorResponse(out)) p.store.commandResults.check(name, out);
        return out;
      });
  const andTell =
    <I, O>(fn: (input: I) => O | Promise<O>) =>
    async (input: I) => {
      const out = await fn(input);
      emitStatus();
      return out;
    };

  return {
    status: admitted('status', () => statusOf(p, s)),
    'staff-sign-in': andTell(admitted('staff-sign-in', (i) => s.staff.signIn(i.auth_code))),
    'staff-sign-out': andTell(admitted('staff-sign-out', () => s.staff.signOut())),
    // The pumps' totalizers and the tanks are read once the shift is open: its wet stock's
    // start, before anything is sold or delivered in it.
    'shift-open': andTell(
      admitted('shift-open', async (i) => {
        const out = oneTransaction('shift-open', (j) => s.shifts.open(j.opening_cash))(i);
        if (!isErrorResponse(out)) {
          await s.pumpTotals.read(out.shift.id, 'open');
          await s.tanks.poll();
        }
        return out;
      }),
    ),
    // The Z report is kept with the close, then printed after the commit. The tanks are read
    // just before it: the wet stock's closing stock, with nothing sold after it.
    'shift-close': andTell(
      admitted('shift-close', async (i) => {
        await s.tanks.poll();
        const out = await s.shiftReports.printKept(
          oneTransaction('shift-close', (j) => s.shiftReports.close(j.counted_cash))(i),
        );
        // The totalizers end the shift's pump sales; the wet-stock report is kept with the Z
        // report (after its commit) and printed.
        if (!isErrorResponse(out)) {
          await s.pumpTotals.read(out.report.shift.id, 'close');
          await s.tanks.atClose(out.report.shift.id);
        }
        return out;
      }),
    ),
    'shift-report': admitted('shift-report', (i) => s.shiftReports.report(i)),
    'shifts-recent': admitted('shifts-recent', (i) => s.shiftReports.recent(i)),
    'cash-movement': admitted(
      'cash-movement',
      oneTransaction('cash-movement', (i) => s.cashMoves.record(i)),
    ),
    'drawer-open': admitted('drawer-open', (i) => s.drawer.open(i)),
    'bonus-operation': admitted('bonus-operation', (i) => s.bonusOps.run(i)),
    // The answer carries the slip's preview, decoded from the bytes the printer was sent.
    'coupon-sell': admitted('coupon-sell', async (i) =>
      s.receipts.withPreview(await s.couponSales.sell(i)),
    ),
    'coupon-batches': admitted('coupon-batches', () => s.couponSales.onSale()),
    'forecourt-state': admitted('forecourt-state', () => s.forecourt.state()),
    'pump-release': admitted('pump-release', (i) => s.forecourt.release(i)),
    'pump-authorise': admitted('pump-authorise', (i) => s.forecourt.authorise(i)),
    'pump-stop': admitted('pump-stop', (i) => s.forecourt.stopPumps(i)),
    'pump-resume': admitted('pump-resume', (i) => s.forecourt.resume(i)),
    'pump-drive-off': admitted('pump-drive-off', (i) => s.forecourt.driveOff(i, wf.staff)),
    'simulator-pump': admitted('simulator-pump', (i) => s.pumpSim.run(i)),
    'customer-identify': admitted('customer-identify', (i) => s.identify.identify(i)),
    'catalog-search': admitted('catalog-search', (i) => s.catalog.search(i)),
    // The seller is the signed-in staff member, never the caller's word.
    'check-calc': admitted('check-calc', async (i) =>
      shown(await s.checkout.calc(i, wf.staff), (out) => displayOfCheck(out.check)),
    ),
    // The answer carries the receipt's preview, decoded from the bytes the printer was sent.
    'sale-process': admitted('sale-process', async (i) =>
      shown(s.receipts.withPreview(await s.checkout.process(i, wf.staff)), displayOfSale),
    ),
    'sale-status': admitted('sale-status', (i) => s.checkout.status(i.transaction_id)),
    // Who gives the money back is the signed-in staff member, not the sale's seller.
    'sale-cancel': admitted('sale-cancel', (i) => s.returns.cancel(i, wf.staff)),
    'sale-refund': admitted('sale-refund', (i) => s.returns.refund(i, wf.staff)),
    'receipt-reprint': admitted('receipt-reprint', (i) => s.receipts.reprint(i.transaction_id)),
    'sales-recent': admitted('sales-recent', (i) => s.recent.list(i)),
    'payment-recover': admitted('payment-recover', (i) => s.cards.recover(i.payment_id)),
    'attention-list': admitted('attention-list', (i) =>
      s.attention.list(i.include_resolved ?? false),
    ),
    'attention-resolve': andTell(
      admitted(
        'attention-resolve',
        oneTransaction('attention-resolve', (i) => s.attention.resolve(i.id, i.comment)),
      ),
    ),
    'sync-now': admitted('sync-now', async () => {
      const progress = (
        phase: 'push' | 'pull' | 'snapshot',
        done: number,
        total: number | null,
      ) => {
        try {
          p.emit?.('sync-progress', { phase, done, total, sync: syncStateOf(p, s.syncRunning()) });
        } catch (e) {
          p.log.warn('sync progress event not sent', { err: e });
        }
      };
      // A manual sync sends every queued row now, whatever its backoff.
      const pushed = await p.sync.push({ now: true });
      progress('push', pushed.done + pushed.rejected, pushed.sent);
      const pulled = await p.sync.pull({
        onProgress: (g) => progress(g.phase === 'snapshot' ? 'snapshot' : 'pull', g.done, g.total),
      });
      const failure = pulled.ok ? pushed.lastFailure : pulled.failure;
      return {
        pushed: pushed.done,
        rejected: pushed.rejected,
        pulled: pulled.applied,
        quarantined: pulled.quarantined,
        sync: syncStateOf(p, s.syncRunning()),
        error: failure
          ? {
              code: failure.code,
              message: failure.message,
              path: failure.kind === 'http' ? (failure.path ?? '(root)') : '(root)',
            }
          : null,
      };
    }),
    'devices-state': admitted('devices-state', () => ({ devices: devicesOf(p) })),
    'tank-readings': admitted('tank-readings', (i) => s.tanks.readings(i)),
    'tank-delivery': admitted('tank-delivery', (i) => s.tanks.delivery(i)),
    'wetstock-report': admitted('wetstock-report', (i) => s.tanks.report(i)),
  };
}
