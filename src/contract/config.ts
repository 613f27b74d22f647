// The terminal's configuration (`DIR/config.json`, interfaces.md): one strict schema whose
// defaults make `ConfigSchema.parse({})` the embedded demo set-up (no central URL, so the
// sandbox central service runs in-process; every device simulated). Every timeout lives
// here so tests shorten them instead of waiting.
import { z } from 'zod';
import { IdType } from './enums.js';
import { resolveFuelGrades } from './fuel-grades.js';
import { problemsOf, type Problem } from './problems.js';
import { code } from './wire.js';

/** The demo terminal the embedded sandbox is seeded with; the sandbox seed uses the same values. */
export const DEMO_TERMINAL_ID = '018f0000-0000-7000-8000-000000000001';
export const DEMO_API_KEY = 'sandbox-demo-terminal-api-key';

const ms = z.int().min(0);
const positiveMs = z.int().min(1);

/** A regular expression over a scan's candidate text, compiled with `u`. */
const rulePattern = z
  .string()
  .min(1)
  .refine(
    (p) => {
      try {
        new RegExp(p, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { error: 'not a valid regular expression' },
  );
/** Scanner symbologies a rule applies to (`qr`, `ean-13`...); absent = all. */
const ruleSymbologies = z.array(z.string().min(1)).optional();
/** For GS1 scans: take this AI's value as the candidate (`8004`, `01`). */
const ruleGs1Ai = z
  .string()
  .regex(/^\d{2,4}$/, 'a GS1 application identifier of 2 to 4 digits')
  .optional();

// How a swipe or a scan becomes a customer identifier; src/devices/recognition.ts builds its
// RecognitionConfigSchema on this rule and fills what is left out with its defaults.
// It sits under `terminal`, not `devices`: every key of `devices` is a device.
export const RecognitionRule = z.strictObject({
  source: z.enum(['msr', 'scanner', 'any']).default('any'),
  symbologies: ruleSymbologies,
  gs1_ai: ruleGs1Ai,
  /** A regular expression over the candidate (compiled with `u`); a group `id` picks the id. */
  pattern: rulePattern,
  id_type: IdType,
});

/**
 * A scan that is a good, not a customer's identifier (docs/devices.md, "Goods barcodes"):
 * tried before the identifier rules, like a barcode the POS catalogue lists.
 */
export const GoodsRule = z.strictObject({
  symbologies: ruleSymbologies,
  gs1_ai: ruleGs1Ai,
  pattern: rulePattern,
});
const Recognition = z.strictObject({
  bank_ranges: z
    .array(z.string().regex(/^\d{1,8}(-\d{1,8})?$/, 'digits, or a range a-b'))
    .optional(),
  msr_field: z.enum(['pan', 'discretionary']).optional(),
  rules: z.array(RecognitionRule).optional(),
  /** Absent = the built-in goods rules (GS1 symbols with a GTIN, our in-store labels). */
  goods_rules: z.array(GoodsRule).optional(),
});

/**
 * One page of the touch screen's quick keys: its label (a category, usually) and the goods
 * on it by code, in order. Codes are checked against the POS catalogue when used: one it
 * does not list is left out (docs/terminal.md, "Goods").
 */
export const QuickKeysPage = z.strictObject({
  category: z.string().min(1).max(80),
  codes: z.array(code).min(1).max(60),
});

const TerminalSection = z.strictObject({
  /** Local identity used in the engine context; absent = `central.terminal_id`. */
  id: z.uuid().optional(),
  name: z.string().min(1).max(80).optional(),
  /** Absent = the `--data` directory (default `~/.loyalty-terminal`). */
  data_dir: z.string().min(1).optional(),
  /** Provisional coupon codes are this prefix + a 6-digit sequence (engine.md). */
  coupon_prefix: z
    .string()
    .regex(/^[A-Z0-9-]{1,12}$/, 'one to twelve capital letters, digits or dashes')
    .default('T01-'),
  /** Staff sign-in: this many failures inside the window lock sign-in for the lockout. */
  sign_in: z
    .strictObject({
      max_failures: z.int().min(1).default(5),
      window_s: z.int().min(1).default(900),
      lockout_s: z.int().min(1).default(300),
    })
    .prefault({}),
  /**
   * Special-account and corporate-access PINs: this many wrong PINs for one account inside
   * the window lock that account's PIN for the lockout (check-calc and sale-process alike).
   */
  pin_attempts: z
    .strictObject({
      max_failures: z.int().min(1).default(5),
      window_s: z.int().min(1).default(900),
      lockout_s: z.int().min(1).default(900),
    })
    .prefault({}),
  /** Card reader and scanner recognition rules; absent = the built-in rules. */
  recognition: Recognition.optional(),
  /**
   * The quick keys of the touch screen, page by page; absent = one page per category of the
   * POS catalogue, its goods in catalogue order.
   */
  quick_keys: z.array(QuickKeysPage).max(20).optional(),
  /**
   * Pump authorisations: a card pre-authorisation no completion has booked is released on the
   * unit this long after it was taken (docs/terminal.md, "Fuel").
   */
  fuel: z.strictObject({ authorisation_lifetime_s: z.int().min(1).default(1_800) }).prefault({}),
  /** The local API: how long a client may take to send its headers, and a whole request. */
  agent: z
    .strictObject({
      headers_timeout_ms: positiveMs.default(10_000),
      request_timeout_ms: positiveMs.default(30_000),
      /**
       * A browser session ends after this long without a command from its page (the status
       * poll and the event stream do not count), and at every staff sign-out.
       */
      session_idle_ms: positiveMs.default(1_800_000),
    })
    .prefault({}),
  /** The pumps at the till (docs/forecourt.md, "Open authorisations"). */
  forecourt: z
    .strictObject({
      /**
       * A pump released or authorised whose nozzle is not lifted within this time is released
       * again (back to idle), so a pump nobody came to does not stay open. 0: never.
       */
      release_after_ms: z.int().min(0).default(300_000),
    })
    .prefault({}),
  /** Tanks and wet stock (docs/forecourt.md, "Tanks and wet stock"). */
  tanks: z
    .strictObject({
      /** The tank gauge is read this often on its own (0: never, readings on request only). */
      poll_ms: z.int().min(0).default(60_000),
      /** A wet-stock variance beyond this percent of the litres sold goes to the attention list. */
      variance_percent: z.number().min(0).max(100).default(0.5),
      /** Which grade (the goods code of its fuel on the catalogue) each tank holds, by number. */
      grades: z
        .record(z.string().regex(/^\d{1,2}$/, 'a tank number'), z.string().min(1))
        .default({}),
    })
    .prefault({}),
});

const CentralTimeouts = z.strictObject({
  connect_ms: positiveMs.default(5_000),
  headers_ms: positiveMs.default(10_000),
  body_ms: positiveMs.default(30_000),
  /** Deadline of an online `process_check` before the terminal stands in (sync.md: 3 s). */
  online_deadline_ms: positiveMs.default(3_000),
});

const CentralRetry = z
  .strictObject({
    /** Outbox backoff: exponential from `base_ms`, capped at `max_ms`, with jitter. */
    base_ms: positiveMs.default(1_000),
    max_ms: positiveMs.default(300_000),
    /** Timer that starts a drain even without a reconnect or a new write. */
    drain_interval_ms: positiveMs.default(30_000),
  })
  .refine((r) => r.max_ms >= r.base_ms, {
    error: 'max_ms must not be below base_ms',
    path: ['max_ms'],
  });

// HTTPS trust and the proxy (docs/sync.md, "HTTPS, pinning and proxies").
const CentralTls = z.strictObject({
  /** PEM bundle of the CAs trusted instead of the system's; null = the system's. */
  ca_file: z.string().min(1).nullable().default(null),
  /** Pins of the server's public key: base64 SHA-256 of its SPKI; several for a rotation. */
  pins: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z0-9+/]{43}=$/, { error: 'a pin is 44 characters of base64 (SHA-256)' }),
    )
    .default([]),
  /** After a TLS failure, nothing is sent for this long (the failure is shown meanwhile). */
  failed_retry_ms: positiveMs.default(600_000),
});

const CentralProxy = z.strictObject({
  /** http://host:port of an HTTP(S) proxy; null = HTTPS_PROXY / HTTP_PROXY, if set. */
  url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
  /** Hosts reached directly beside a configured proxy (NO_PROXY's syntax). */
  no_proxy: z.array(z.string().min(1)).default([]),
});

const CentralSection = z.strictObject({
  /** Base URL of the central service (without `/v1`); null = the embedded sandbox. */
  url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
  terminal_id: z.uuid().default(DEMO_TERMINAL_ID),
  api_key: z.string().min(1).default(DEMO_API_KEY),
  timeouts: CentralTimeouts.prefault({}),
  /** Pull of the change feed while online (sync.md: every minute). */
  pull_interval_ms: positiveMs.default(60_000),
  retry: CentralRetry.prefault({}),
  tls: CentralTls.prefault({}),
  proxy: CentralProxy.prefault({}),
});

// Amounts are JSON numbers in the currency's units; the stand-in turns them into exact
// decimals (src/money) before comparing. 0 = no offline spending of that kind.
const limitAmount = z.number().finite().min(0);

const StandinSection = z.strictObject({
  /** Bonuses and special-account money one customer may spend offline per day. */
  customer_day_limit: limitAmount.default(100),
  /** Total offline spending of this terminal until the server confirms it. */
  terminal_total_limit: limitAmount.default(1_000),
  /** Oldest cache at which offline spending is still allowed (earning and cash always are). */
  max_cache_age_s: z.int().min(0).default(86_400),
  /** Server `Date` against the local clock: over this, a warning is shown. */
  clock_skew_warn_s: z.int().min(1).default(300),
});

// Serial lines and TCP peers (devices.md). A device is either simulated, or real with its
// own line settings; absent settings take the common 9600 8N1.
const DeviceTimeouts = z.strictObject({
  inter_byte_ms: ms.default(200),
  ack_ms: positiveMs.default(5_000),
  message_ms: positiveMs.default(15_000),
  /** A whole payment transaction (card in, PIN, authorisation). */
  transaction_ms: positiveMs.default(180_000),
  /** Reopen after an unplug: backoff from `reconnect_min_ms` up to `reconnect_max_ms`. */
  reconnect_min_ms: positiveMs.default(500),
  reconnect_max_ms: positiveMs.default(30_000),
});

const tcpPort = z.int().min(1).max(65_535);

/** How a line-oriented device ends (or wraps) a message; `protocol` = the protocol's own framing. */
const Framing = z.enum(['stx-etx', 'cr', 'lf', 'crlf', 'protocol']);

function deviceSection<
  P extends readonly [string, ...string[]],
  X extends z.ZodRawShape = Record<never, never>,
>(
  protocols: P,
  defaults: {
    framing: z.infer<typeof Framing>;
    tcp_port?: number;
    parity?: 'none' | 'even' | 'odd';
  },
  extra: X = {} as X,
) {
  return z
    .strictObject({
      ...extra,
      /** true = an in-process simulator speaking the same bytes; no line settings needed. */
      simulated: z.boolean().default(false),
      protocol: z.enum(protocols).default(protocols[0] as P[number]),
      transport: z.enum(['serial', 'tcp']).default('serial'),
      /** Serial device path, e.g. `/dev/ttyUSB0` or a socat pty link. */
      path: z.string().min(1).optional(),
      host: z.string().min(1).optional(),
      port:
        defaults.tcp_port === undefined
          ? tcpPort.optional()
          : tcpPort.optional().default(defaults.tcp_port),
      baud_rate: z.int().positive().default(9_600),
      data_bits: z.union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)]).default(8),
      parity: z.enum(['none', 'even', 'odd', 'mark', 'space']).default(defaults.parity ?? 'none'),
      stop_bits: z.union([z.literal(1), z.literal(1.5), z.literal(2)]).default(1),
      framing: Framing.default(defaults.framing),
      timeouts: DeviceTimeouts.prefault({}),
    })
    .superRefine((d, ctx) => checkLine(d as unknown as LineSettings, ctx));
}

interface LineSettings {
  simulated: boolean;
  transport: 'serial' | 'tcp';
  path?: string;
  host?: string;
  port?: number;
  timeouts: { reconnect_min_ms: number; reconnect_max_ms: number };
}

/** A real device needs where it is; the reconnect backoff must grow, not shrink. */
function checkLine(d: LineSettings, ctx: z.RefinementCtx): void {
  if (d.simulated) return;
  if (d.transport === 'serial' && d.path === undefined) {
    ctx.addIssue({ code: 'custom', path: ['path'], message: 'a serial device needs its path' });
  }
  if (d.transport === 'tcp' && d.host === undefined) {
    ctx.addIssue({ code: 'custom', path: ['host'], message: 'a TCP device needs its host' });
  }
  if (d.transport === 'tcp' && d.port === undefined) {
    ctx.addIssue({ code: 'custom', path: ['port'], message: 'a TCP device needs its port' });
  }
  if (d.timeouts.reconnect_max_ms < d.timeouts.reconnect_min_ms) {
    ctx.addIssue({
      code: 'custom',
      path: ['timeouts', 'reconnect_max_ms'],
      message: 'reconnect_max_ms must not be below reconnect_min_ms',
    });
  }
}

const CardReader = deviceSection(['magstripe'], { framing: 'stx-etx' });
const Scanner = deviceSection(['ascii-lines'], { framing: 'cr' });
// ZVT over TCP listens on 20007 by default (devices.md).
const Payment = deviceSection(
  ['zvt', 'concert'],
  { framing: 'protocol', tcp_port: 20_007 },
  {
    /** ZVT registration password, six digits (devices.md). */
    zvt_password: z
      .string()
      .regex(/^\d{6}$/, 'six digits')
      .default('000000'),
    /** ZVT registration config byte (0xBA: the ECR prints, the unit asks for amounts). */
    zvt_config_byte: z.int().min(0).max(255).default(0xba),
    /** ISO 4217 letters of what the unit charges. */
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'three capital letters (ISO 4217)')
      .default('EUR'),
    /** Concert E+ POS number, two digits. */
    pos_number: z
      .string()
      .regex(/^\d{2}$/, 'two digits')
      .default('01'),
    /** A NAKed frame (or an unanswered one that moves no money) is sent again this many times. */
    max_retries: z.int().min(0).max(10).default(3),
    /** A purchase booked by the unit but never confirmed here: reversed, or kept (devices.md). */
    recovery_policy: z.enum(['reverse', 'accept']).default('reverse'),
  },
);
const Printer = deviceSection(
  ['escpos'],
  { framing: 'protocol' },
  { line_width: z.int().min(24).max(80).default(42) },
);
const TankGauge = deviceSection(['veeder-root-tls'], { framing: 'protocol' });
/**
 * The pumps on one DART line (9600 8O1): their logical numbers (1 is address 0x50). Simulated,
 * they are a forecourt of that many pumps (docs/forecourt.md).
 */
const Pumps = deviceSection(
  ['wayne-dart'],
  { framing: 'protocol', parity: 'odd' },
  {
    pumps: z
      .array(z.int().min(1).max(32))
      .min(1)
      .max(32)
      .refine((a) => new Set(a).size === a.length, 'each pump number once')
      .default([1, 2, 3, 4]),
    /**
     * Per pump and nozzle (`{"1": {"1": {"goods_code": "DIESEL", "tank": 1}}}`): the goods code
     * of the fuel it sells and the tank that feeds it (docs/forecourt.md, "Nozzles and grades").
     * A pump left out sells `GRADE-n` and gets no prices.
     */
    nozzles: z
      .record(
        z.string().regex(/^\d{1,2}$/, 'a pump number'),
        z.record(
          z.string().regex(/^\d{1,2}$/, 'a nozzle number'),
          z.strictObject({
            goods_code: code,
            tank: z.int().min(1).max(99).optional(),
          }),
        ),
      )
      .default({}),
  },
).superRefine((d, ctx) => checkNozzles(d.pumps, d.nozzles, ctx));

/**
 * Nozzles of pumps on this line, numbered 1 to 15 without a gap: the pump's price update (CD5)
 * lists one price per nozzle in order.
 */
function checkNozzles(
  pumps: readonly number[],
  nozzles: Record<string, Record<string, unknown>>,
  ctx: z.RefinementCtx,
): void {
  for (const [p, list] of Object.entries(nozzles)) {
    const at = ['nozzles', p];
    if (!pumps.includes(Number(p))) {
      const message = `there is no pump ${Number(p)} on this line (devices.pumps.pumps)`;
      ctx.addIssue({ code: 'custom', path: at, message });
      continue;
    }
    const numbers = Object.keys(list).map(Number);
    for (const n of Object.keys(list))
      if (Number(n) < 1 || Number(n) > 15)
        ctx.addIssue({ code: 'custom', path: [...at, n], message: 'a nozzle is numbered 1 to 15' });
    const gap =
      numbers.length === 0
        ? 1
        : [...numbers.keys()].map((i) => i + 1).find((n) => !numbers.includes(n));
    if (gap !== undefined && numbers.every((n) => n >= 1 && n <= 15))
      ctx.addIssue({
        code: 'custom',
        path: at,
        message: `nozzle ${gap} is missing: a pump's nozzles are numbered 1, 2, ... without a gap`,
      });
  }
}

/** The embedded default's four simulated pumps: Super 95, Diesel and Super Plus 98. */
const DEMO_NOZZLES = Object.fromEntries(
  ['1', '2', '3', '4'].map((p) => [
    p,
    {
      '1': { goods_code: 'FUEL-95' },
      '2': { goods_code: 'DIESEL' },
      '3': { goods_code: 'FUEL-98' },
    },
  ]),
);

const simulated = { simulated: true } as const;

// A written `devices` block lists the devices present (an absent key = no such device); no
// block at all = the demo set-up, every device simulated.
const DevicesSection = z.strictObject({
  card_reader: CardReader.optional(),
  scanner: Scanner.optional(),
  payment: Payment.optional(),
  printer: Printer.optional(),
  tank_gauge: TankGauge.optional(),
  pumps: Pumps.optional(),
});

const UiSection = z.strictObject({
  /** ISO 639-1 code of the UI language. */
  language: z
    .string()
    .regex(/^[a-z]{2}$/, 'an ISO 639-1 code of two small letters')
    .default('en'),
  theme: z.enum(['light', 'dark', 'system']).optional(),
  /**
   * Electron opens the customer display (display.html) on a second screen; the browser kiosk
   * opens /display.html itself.
   */
  customer_display: z.boolean().default(false),
});

export const ConfigSchema = z
  .strictObject({
    terminal: TerminalSection.prefault({}),
    central: CentralSection.prefault({}),
    standin: StandinSection.prefault({}),
    devices: DevicesSection.prefault({
      card_reader: simulated,
      scanner: simulated,
      payment: simulated,
      printer: simulated,
      tank_gauge: simulated,
      pumps: { ...simulated, nozzles: DEMO_NOZZLES },
    }),
    ui: UiSection.prefault({}),
  })
  .superRefine((c, ctx) => {
    // A nozzle's tank and terminal.tanks.grades say one thing (src/contract/fuel-grades.ts).
    const nozzles = c.devices.pumps?.nozzles ?? {};
    for (const p of resolveFuelGrades(c.terminal.tanks.grades, nozzles).problems)
      ctx.addIssue({
        code: 'custom',
        path: ['devices', 'pumps', 'nozzles', ...p.path],
        message: p.message,
      });
  });

export type Config = z.infer<typeof ConfigSchema>;
export type DeviceConfig = NonNullable<Config['devices'][keyof Config['devices']]>;

/** A refused key: its dotted path (`central.timeouts.connect_ms`) and why. */
export type ConfigError = Problem;

export type ParseConfigResult = { ok: true; config: Config } | { ok: false; errors: ConfigError[] };

/** The terminal id the engine and the outbox use: `terminal.id`, else the central one. */
export function effectiveTerminalId(config: Config): string {
  return config.terminal.id ?? config.central.terminal_id;
}

/** Validates a parsed `config.json`; every error names its key as a dotted path. */
export function parseConfig(json: unknown): ParseConfigResult {
  const result = ConfigSchema.safeParse(json);
  if (result.success) return { ok: true, config: result.data };
  // problems.ts names an unknown key itself, not its parent object.
  const errors = problemsOf(result.error);
  return { ok: false, errors };
}
