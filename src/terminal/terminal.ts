// The terminal as one value: `createTerminal({ dataDir, config, ... })` opens the store
// (DIR/terminal.sqlite), starts the link with the central service (the configured URL, or with
// none the sandbox central in-process on 127.0.0.1 with the demo business, its data in
// DIR/sandbox-central.sqlite), opens the devices (simulated by default, the simulated payment
// unit's books kept in DIR/simulators so a kill does not reset it), recovers card
// operations a crash left open, and answers the command map. The caller holds the data
// directory's lock (one instance per directory, sync.md) before calling this. The central
// API key and the ZVT password come from the secret store, else from the configuration
// (docs/terminal.md, "Secrets").
import { join } from 'node:path';
import type { Config } from '../contract/config.js';
import { effectiveTerminalId } from '../contract/config.js';
import { createDevices, type DeviceSet } from '../devices/registry.js';
import type { CatalogLookup, Recognition } from '../devices/recognition.js';
import { SIMULATOR_DIR } from '../devices/sim/state-file.js';
import type { Store } from '../store/open.js';
import { privateDatabaseFile, privateDataDir } from '../store/private-files.js';
import { openStoreWithRecovery, type OpenedWithRecovery } from '../store/recovery.js';
import { systemSyncClock, type SyncClock } from '../sync/clock.js';
import { entitySchemas } from '../sync/entities.js';
import { uuidv7 } from '../sync/ids.js';
import { outboxPayloadSchema } from '../sync/outbox-payload.js';
import { keyedSecretHashes, newHashKey } from '../secret-hash/index.js';
import type { LinkState } from '../sync/connectivity.js';
import { SyncService } from '../sync/sync-service.js';
import { AttentionService } from './attention.js';
import { CardPayments } from './card-payments.js';
import { CatalogService } from './catalog.js';
import { CheckoutService } from './checkout.js';
import type { Handlers } from './command-map.js';
import { createHandlers, devicesOf, type Services } from './handlers.js';
import { IdentifyService } from './identify.js';
import { createFileLogger, type Logger } from './log.js';
import type {
  AppInfo,
  EmbeddedCentral,
  Emit,
  Ids,
  StartEmbeddedCentral,
  TerminalPorts,
} from './ports.js';
import { SaleService } from './sale-service.js';
import { ReturnsService } from './returns.js';
import { ReceiptService } from './receipt-service.js';
import { SalesRecent } from './sales-recent.js';
import { CashMovementService } from './cash-movements.js';
import { DrawerService } from './drawer.js';
import { BonusOperationService } from './bonus-operations.js';
import { CouponSaleService } from './coupon-sales.js';
import { ShiftReportService } from './shift-reports.js';
import type { SecretStore } from '../config/secret-store.js';
import { loadOrCreateHashKey, resolveSecret } from './secrets.js';
import { ShiftService } from './shifts.js';
import { ForecourtService, type GradeOf } from './forecourt.js';
import { FillDesk } from './fill-lines.js';
import { fuelGrades, pumpGrades, type FuelGrades } from './forecourt-grades.js';
import { PumpPriceService } from './pump-prices.js';
import { PumpTotalsService } from './pump-totals.js';
import { followPumpEvents } from './forecourt-events.js';
import { PumpSimulator } from './pump-simulator.js';
import { DartSimulator } from '../devices/dart/simulator.js';
import type { ForecourtPort } from '../devices/forecourt/port.js';
import { StaffService } from './staff.js';
import { TankPoller, TankService } from './tanks.js';
import { Workflow } from './workflow.js';

export interface CreateTerminalOptions {
  dataDir: string;
  config: Config;
  /**
   * Where the central API key and the ZVT password are kept: `DIR/secrets.json` for the
   * agent, safeStorage for Electron. Required, so no caller falls back to a clear file
   * where sealed storage was meant.
   */
  secrets: SecretStore;
  clock?: SyncClock;
  /** Default: JSON lines in DIR/logs/terminal.log, rotated. */
  log?: Logger;
  app?: AppInfo;
  /** Where events go (the agent's hub, Electron's IPC). */
  emit?: Emit;
  ids?: Ids;
  /** The devices; default: built from `config.devices` (null = none at all). */
  devices?: DeviceSet | null;
  /**
   * The pumps (docs/forecourt.md): a forecourt port and the grade each nozzle sells; none
   * given, the till has no forecourt and the pump commands say so.
   */
  forecourt?: { port: ForecourtPort; gradeOf: GradeOf } | null;
  /** Run the sync loops (pull and drain on timers); default true. */
  startSync?: boolean;
  /** Starts the embedded sandbox; needed only when no `central.url` is configured. */
  embeddedCentral?: StartEmbeddedCentral;
}

export interface Terminal {
  handlers: Handlers;
  store: Store;
  sync: SyncService;
  devices: DeviceSet | null;
  /** The in-process sandbox when no central URL is configured. */
  central: EmbeddedCentral | null;
  ports: TerminalPorts;
  services: Services;
  /** A read from the card reader or scanner (bank cards masked), for a UI to identify with. */
  onRead(listener: (r: Recognition) => void): () => void;
  close(): Promise<void>;
}

export interface CentralLink {
  /** The configuration with the central API key resolved (the secret store's, else its own). */
  readonly config: Config;
  readonly baseUrl: string;
  /** The in-process sandbox when no central URL is configured; the caller closes it. */
  readonly central: EmbeddedCentral | null;
}

/**
 * The central service a terminal in `dataDir` talks to: the configured URL with the API key
 * from the secret store (else the configuration), or with none the sandbox in-process on
 * 127.0.0.1 with the demo business, its data in DIR/sandbox-central.sqlite. The agent, the
 * Electron app and `loyalty-terminal sync pull|push` all start the link here.
 */
export async function connectCentral(o: {
  dataDir: string;
  config: Config;
  secrets: SecretStore;
  clock: SyncClock;
  log: Logger;
  /** Starts the embedded sandbox (src/central/embedded.ts); needed when no URL is configured. */
  embedded?: StartEmbeddedCentral | undefined;
}): Promise<CentralLink> {
  const { config, log } = o;
  const apiKey = await resolveSecret('central.api_key', config, o.secrets, log);
  let central: EmbeddedCentral | null = null;
  if (config.central.url === null) {
    // A wiring fault, not a cashier's: every launcher passes the sandbox in.
    if (!o.embedded) throw new Error('no central.url is configured and no embedded sandbox given');
    privateDatabaseFile(join(o.dataDir, 'sandbox-central.sqlite'));
    central = await o.embedded({
      db: join(o.dataDir, 'sandbox-central.sqlite'),
      clock: { now: () => o.clock.now() },
    });
    log.info('sandbox central started', { url: central.url });
  }
  return {
    central,
    baseUrl: central?.url ?? config.central.url!,
    // The sandbox knows only its own demo key; a real one is for the real central service.
    config: {
      ...config,
      central: { ...config.central, api_key: central?.api_key ?? apiKey ?? config.central.api_key },
    },
  };
}

/**
 * Opens the terminal's database as every start does (agent, Electron, the operator commands
 * that write): `PRAGMA quick_check` first, and a damaged file is set aside and recovered from
 * DIR/backups/ (src/store/recovery.ts). The recovery is logged and put on the attention list,
 * which the cashier's screen shows (docs/reliability.md, "Recovery from a corrupt database").
 * The cached auth-code and PIN hashes are keyed with the terminal's secret from `secrets`, and
 * an older cache's plain ones are re-keyed (docs/store.md, "Secrets in the cache").
 */
export async function openTerminalStore(o: {
  file: string;
  clock: SyncClock;
  log: Logger;
  secrets: SecretStore;
  newId: () => string;
  dailyBackup?: boolean;
  migrationsDir?: string;
}): Promise<OpenedWithRecovery> {
  const hashKey = await loadOrCreateHashKey(o.secrets, o.log, newHashKey);
  const opened = await openStoreWithRecovery({
    file: o.file,
    clock: { now: () => o.clock.now() },
    entitySchemas,
    payloadSchemas: outboxPayloadSchema,
    secretHashes: keyedSecretHashes(hashKey),
    verifyAtStart: true,
    attentionId: o.newId,
    ...(o.dailyBackup === undefined ? {} : { dailyBackup: o.dailyBackup }),
    ...(o.migrationsDir === undefined ? {} : { migrationsDir: o.migrationsDir }),
  });
  const { recovery, store } = opened;
  if (store.rekeyed.rekeyed > 0 || store.rekeyed.foreign > 0)
    o.log.warn('cached auth-code and PIN hashes re-keyed', { ...store.rekeyed });
  if (recovery) {
    o.log.error('damaged database recovered at start', {
      reason: recovery.reason,
      quarantine: recovery.quarantineDir,
      restored_from: recovery.restoredFrom,
      reinserted: recovery.reinserted.length,
      exported: recovery.exported,
      unreadable_rows: recovery.unreadableRows,
    });
  }
  return opened;
}

const DEFAULT_APP = { name: 'loyalty-terminal', version: '0.0.0' };

export async function createTerminal(o: CreateTerminalOptions): Promise<Terminal> {
  const clock = o.clock ?? systemSyncClock;
  const ownLog = o.log
    ? null
    : createFileLogger({ dir: join(o.dataDir, 'logs'), name: 'terminal' });
  const log = o.log ?? ownLog!;
  const app = o.app ?? DEFAULT_APP;
  const config = o.config;
  const { cleanups, closeAll } = closers(log);
  if (ownLog) cleanups.push(() => ownLog.close());

  try {
    // The data directory is the till's alone: 0700, its files 0600, also when an older
    // version (or another umask) left them wider (docs/store.md, "File modes").
    privateDataDir(o.dataDir);
    const { link, central, store, sync, ids, schemaVersion, terminalId, zvtPassword } =
      await openCore(o, clock, log, cleanups, (state) => {
        log.info('central link', { state });
        emitStatus(o.emit, handlers, log);
      });
    // The scanner asks the POS catalogue whether a scan is a good's (bound once it exists).
    let catalog: CatalogService | null = null;
    const lookup: CatalogLookup = (b) => catalog?.lists(b) ?? false;
    const devices = o.devices !== undefined ? o.devices : openDevices(o, zvtPassword, lookup);
    if (devices) cleanups.push(() => devices.close());

    const emit = o.emit ? { emit: o.emit } : {};
    const ports: TerminalPorts = {
      config,
      terminalId,
      app,
      clock,
      ids,
      schemaVersion,
      log,
      store,
      sync,
      devices,
      ...emit,
    };
    let syncRunning = false;
    // nozzles and tanks to goods codes, resolved once for the pumps, their totals and the tanks
    const grades = fuelGrades(o.config);
    const pumps = forecourtOf(o, devices, grades);
    const { services, cards } = buildServices(ports, () => syncRunning, log, pumps, grades);
    catalog = services.catalog;
    cleanups.push(() => cards.stop(), ...followForecourt(services, pumps?.port ?? null, ports));
    const handlers = createHandlers(ports, services);

    const readers = [devices?.cardReader, devices?.scanner].filter((r) => r != null);
    cleanups.push(...forwardDeviceEvents(ports, readers, o.emit));

    // Card operations a crash left open, and charges a kill left without their sale, are
    // settled before the first card operation (docs/terminal.md); it never rejects.
    void cards.startUp();
    // What the start wrote (a recovery's quarantine and export, the simulators' books).
    privateDataDir(o.dataDir);
    if (o.startSync ?? true) {
      sync.start();
      syncRunning = true;
    }
    const at = central ? 'sandbox' : link.baseUrl;
    log.info('terminal started', { terminal_id: terminalId, central: at, schema: schemaVersion });

    return {
      handlers,
      store,
      sync,
      devices,
      central,
      ports,
      services,
      onRead(listener) {
        const offs = readers.map((r) => r.onRead(listener));
        return () => offs.forEach((off) => off());
      },
      async close() {
        syncRunning = false;
        log.info('terminal stopping', {});
        await closeAll();
      },
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** The configured devices (simulators' books under the data directory). */
function openDevices(
  o: CreateTerminalOptions,
  zvtPassword: string | undefined,
  catalog: CatalogLookup,
): DeviceSet {
  const config = o.config;
  return createDevices(config.devices, {
    simulatorDir: join(o.dataDir, SIMULATOR_DIR),
    catalog,
    ...(config.terminal.recognition ? { recognition: config.terminal.recognition } : {}),
    ...(config.devices.payment
      ? {
          ...(zvtPassword === undefined ? {} : { zvtPassword }),
          currency: config.devices.payment.currency,
        }
      : {}),
  });
}

/**
 * The pumps: those given, else the devices' line, each nozzle's grade from
 * `devices.pumps.nozzles` (docs/forecourt.md, "Nozzles and grades").
 */
function forecourtOf(
  o: CreateTerminalOptions,
  devices: DeviceSet | null,
  grades: FuelGrades,
): CreateTerminalOptions['forecourt'] {
  if (o.forecourt !== undefined) return o.forecourt;
  return devices?.pumps ? { port: devices.pumps, gradeOf: grades.gradeOf } : null;
}

/**
 * The forecourt followed from the start (a fill finished while the till was down is kept
 * now) and the tank gauge read on its own every `terminal.tanks.poll_ms`; their stops.
 */
function followForecourt(
  services: Services,
  port: ForecourtPort | null,
  ports: TerminalPorts,
): (() => void)[] {
  const { devices, config } = ports;
  // every pump change on the event stream, the screen's live forecourt (forecourt-events.ts)
  const events = followPumpEvents(port, services.forecourt, ports.emit, ports.log);
  services.forecourt.changed = (n) => events.publish(n);
  services.forecourt.start();
  services.pumpPrices?.start();
  const stops = [
    () => services.forecourt.stop(),
    () => services.pumpPrices?.stop(),
    events.stop,
    () => services.pumpSim.stop(),
  ];
  if (devices?.tankGauge) {
    const poller = new TankPoller(() => services.tanks.poll(), config.terminal.tanks.poll_ms);
    poller.start();
    stops.push(() => poller.stop());
  }
  return stops;
}

/** The services over the ports; a sale a killed run sent online and never recorded is voided. */
function buildServices(
  ports: TerminalPorts,
  syncRunning: () => boolean,
  log: Logger,
  forecourt: CreateTerminalOptions['forecourt'],
  grades: FuelGrades,
): { services: Services; cards: CardPayments } {
  const { store, sync, clock, config, terminalId, app, schemaVersion } = ports;
  const workflow = new Workflow(ports);
  const cards = new CardPayments(ports);
  const identify = new IdentifyService(ports);
  const sales = new SaleService({
    store,
    client: sync.client,
    link: sync.link,
    clock,
    config,
    terminalId,
    appVersion: app.version,
    schemaVersion,
    onQueued: () => sync.kick(),
    newId: () => ports.ids.newId(),
  });
  // Before any command: a sale a killed run sent online first and never recorded is voided.
  const recovered = sales.recoverOnlineAttempts();
  if (recovered.voided > 0) log.warn('online attempts voided at start', recovered);
  const receipts = new ReceiptService(ports, (id) => {
    const c = store.cache.customerById(id);
    return c ? identify.summary(c) : null;
  });
  const catalog = new CatalogService(ports);
  const shifts = new ShiftService(ports, workflow);
  const pumpTotals = new PumpTotalsService(ports, forecourt?.port ?? null, grades);
  const tanks = new TankService(ports, workflow, receipts, grades, pumpTotals);
  const fills = new FillDesk();
  const posCatalog = () => catalog.catalog(catalog.pos());
  // Prices and releases of one pump never cross: a pump is told no price while it is being
  // released, and a prepay preset by volume is checked against the price the pump confirmed.
  const pumpPrices: PumpPriceService | null = forecourt
    ? new PumpPriceService(ports, {
        port: forecourt.port,
        grades,
        priceOf: (code) => posCatalog().byCode(code)?.price,
        version: () => store.cache.posVersion(),
        held: (n): boolean => forecourtService.releasing(n),
      })
    : null;
  const forecourtService: ForecourtService = new ForecourtService(
    ports,
    forecourt?.port ?? null,
    forecourt?.gradeOf ?? (() => null),
    fills,
    {
      onSale: () => pumpGrades(grades, posCatalog()),
      confirmed: (pump, nozzle) => pumpPrices?.confirmed(pump, nozzle) ?? null,
    },
  );
  const checkout = new CheckoutService(ports, cards, sales, receipts.printSale, catalog, fills);
  const bonusOps = new BonusOperationService(ports, workflow, identify);
  const couponSales = new CouponSaleService(ports, workflow, identify, bonusOps, (f) =>
    receipts.printCouponSale(f),
  );
  // Before any command: a coupon sale a killed run sent and never recorded is queued.
  const couponsQueued = couponSales.recoverAttempts();
  if (couponsQueued.queued > 0) log.warn('coupon sale attempts queued at start', couponsQueued);
  const services: Services = {
    workflow,
    staff: new StaffService(ports, workflow),
    shifts,
    shiftReports: new ShiftReportService(ports, shifts, receipts),
    cashMoves: new CashMovementService(ports, workflow),
    drawer: new DrawerService(ports, workflow, receipts),
    bonusOps,
    couponSales,
    forecourt: forecourtService,
    pumpSim: pumpSimulatorOf(ports, forecourt),
    identify,
    checkout,
    catalog,
    sales,
    returns: new ReturnsService(ports, cards),
    receipts,
    recent: new SalesRecent(ports),
    cards,
    attention: new AttentionService(ports, workflow, () => cards.busy),
    tanks,
    pumpTotals,
    pumpPrices,
    syncRunning,
  };
  return { services, cards };
}

/** A person at the pumps' simulator, when the till's pumps are the devices' simulated ones. */
function pumpSimulatorOf(
  ports: TerminalPorts,
  forecourt: CreateTerminalOptions['forecourt'],
): PumpSimulator {
  const sim = ports.devices?.simulators.pumps;
  const own = sim instanceof DartSimulator && forecourt?.port === ports.devices?.pumps;
  return new PumpSimulator(own ? sim : null, Boolean(forecourt));
}

type Reader = NonNullable<DeviceSet['cardReader']>;

/** Device states and reads to the screen's events; returns what stops them. */
function forwardDeviceEvents(
  ports: TerminalPorts,
  readers: readonly Reader[],
  emit: CreateTerminalOptions['emit'],
): Array<() => void> {
  const { devices, log } = ports;
  const offs: Array<() => void> = [];
  if (devices && emit) {
    offs.push(
      devices.states.onChange(() => {
        for (const d of devicesOf(ports)) emit('device-state', d);
      }),
    );
  }
  for (const r of readers) {
    offs.push(
      r.onRead((read) => {
        // The identifier itself stays out of the log: a card number is a customer's key.
        log.info(
          'device read',
          read.kind === 'identifier'
            ? { kind: read.kind, id_type: read.id_type, source: read.source }
            : { kind: read.kind, source: read.source },
        );
        try {
          emit?.('device-read', read);
        } catch (e) {
          log.error('device read not sent to the screen', { err: e });
        }
      }),
    );
  }
  return offs;
}

/** What the start opened, closed in reverse order; a failing close is logged, never thrown. */
function closers(log: Logger) {
  const cleanups: Array<() => Promise<void> | void> = [];
  const closeAll = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (e) {
        log.error('close failed', { err: e });
      }
    }
  };
  return { cleanups, closeAll };
}

/** The status bar's event after a change of the link (nothing without a screen). */
function emitStatus(
  emit: CreateTerminalOptions['emit'],
  handlers: ReturnType<typeof createHandlers>,
  log: Logger,
): void {
  if (!emit) return;
  try {
    const status = handlers.status({}, { via: 'internal', requestId: 'status' });
    emit('status-changed', status as never);
  } catch (e) {
    log.warn('status event not sent', { err: e });
  }
}

/** The link, the store and the sync service, each registered for closing as it opens. */
async function openCore(
  o: CreateTerminalOptions,
  clock: SyncClock,
  log: Logger,
  cleanups: Array<() => Promise<void> | void>,
  onLinkChange: (state: LinkState) => void,
) {
  const config = o.config;
  const link = await connectCentral({
    dataDir: o.dataDir,
    config,
    secrets: o.secrets,
    clock,
    log,
    embedded: o.embeddedCentral,
  });
  const central = link.central;
  if (central) cleanups.push(() => central.close());
  const zvtPassword = config.devices.payment
    ? await resolveSecret('devices.payment.zvt_password', config, o.secrets, log)
    : undefined;

  const ids = o.ids ?? { newId: () => uuidv7(clock.now()) };
  const { store } = await openTerminalStore({
    file: join(o.dataDir, 'terminal.sqlite'),
    clock,
    log,
    newId: () => ids.newId(),
    secrets: o.secrets,
  });
  cleanups.push(() => store.close());
  const schemaVersion = store.schema().applied.length;
  const terminalId = effectiveTerminalId(config);

  const sync = new SyncService({
    store,
    config: link.config,
    clock,
    baseUrl: link.baseUrl,
    appVersion: o.app?.version ?? DEFAULT_APP.version,
    schemaVersion,
    terminalId,
    onLinkChange,
  });
  cleanups.push(() => sync.stop());

  return { link, central, store, sync, ids, schemaVersion, terminalId, zvtPassword };
}
