import { describe, expect, it } from 'vitest';
import {
  ConfigSchema,
  DEMO_API_KEY,
  DEMO_TERMINAL_ID,
  effectiveTerminalId,
  parseConfig,
} from '../../src/contract/config.js';

function errorsOf(json: unknown) {
  const result = parseConfig(json);
  if (result.ok) throw new Error('expected the configuration to be refused');
  return result.errors;
}

describe('configuration defaults', () => {
  it('an empty configuration is the embedded sandbox (no central url)', () => {
    const config = ConfigSchema.parse({});
    expect(config.central.url).toBeNull();
    expect(config.central.terminal_id).toBe(DEMO_TERMINAL_ID);
    expect(config.central.api_key).toBe(DEMO_API_KEY);
  });

  it('an empty configuration carries the central timeouts and the pull interval', () => {
    const { central } = ConfigSchema.parse({});
    expect(central.timeouts.online_deadline_ms).toBe(3_000);
    expect(central.timeouts.connect_ms).toBeGreaterThan(0);
    expect(central.timeouts.headers_ms).toBeGreaterThan(0);
    expect(central.timeouts.body_ms).toBeGreaterThan(0);
    expect(central.pull_interval_ms).toBe(60_000);
  });

  it('an empty configuration carries the stand-in limits', () => {
    const { standin } = ConfigSchema.parse({});
    expect(standin.clock_skew_warn_s).toBe(300);
    expect(standin.customer_day_limit).toBeGreaterThan(0);
    expect(standin.terminal_total_limit).toBeGreaterThan(0);
    expect(standin.max_cache_age_s).toBeGreaterThan(0);
  });

  it('an empty configuration simulates every device', () => {
    const { devices } = ConfigSchema.parse({});
    for (const kind of ['card_reader', 'scanner', 'payment', 'printer', 'tank_gauge'] as const) {
      expect(devices[kind]?.simulated).toBe(true);
    }
  });

  it('an empty configuration simulates four DART pumps on an 8O1 line', () => {
    const { devices } = ConfigSchema.parse({});
    expect(devices.pumps).toMatchObject({
      simulated: true,
      protocol: 'wayne-dart',
      pumps: [1, 2, 3, 4],
      parity: 'odd',
    });
  });

  it('refuses a pump number listed twice', () => {
    const r = ConfigSchema.safeParse({ devices: { pumps: { simulated: true, pumps: [1, 1] } } });
    expect(r.success).toBe(false);
  });

  it('an empty configuration speaks English and has a coupon prefix', () => {
    const config = ConfigSchema.parse({});
    expect(config.ui.language).toBe('en');
    expect(config.terminal.coupon_prefix).toMatch(/^[A-Z0-9-]+$/);
  });

  it('a partial section keeps the defaults of its other keys', () => {
    const config = ConfigSchema.parse({ central: { timeouts: { connect_ms: 50 } } });
    expect(config.central.timeouts.connect_ms).toBe(50);
    expect(config.central.timeouts.online_deadline_ms).toBe(3_000);
  });

  it('a written devices block lists only the devices present', () => {
    const config = ConfigSchema.parse({ devices: { printer: { path: '/dev/ttyUSB0' } } });
    expect(config.devices.printer).toMatchObject({ simulated: false, baud_rate: 9_600 });
    expect(config.devices.scanner).toBeUndefined();
  });

  it('the terminal id falls back to the central one', () => {
    expect(effectiveTerminalId(ConfigSchema.parse({}))).toBe(DEMO_TERMINAL_ID);
  });

  it('parseConfig accepts an empty object', () => {
    expect(parseConfig({}).ok).toBe(true);
  });
});

describe('configuration errors name their key', () => {
  it('a pin that is not base64 SHA-256 is refused by its index', () => {
    expect(errorsOf({ central: { tls: { pins: ['abc'] } } })).toEqual([
      expect.objectContaining({ path: 'central.tls.pins[0]' }),
    ]);
  });

  it('an empty configuration trusts the system CAs, pins nothing and has no proxy', () => {
    const { central } = ConfigSchema.parse({});
    expect(central.tls).toEqual({ ca_file: null, pins: [], failed_retry_ms: 600_000 });
    expect(central.proxy).toEqual({ url: null, no_proxy: [] });
  });

  it('a bad nested value names its dotted path', () => {
    expect(errorsOf({ central: { timeouts: { connect_ms: -1 } } })).toEqual([
      expect.objectContaining({ path: 'central.timeouts.connect_ms' }),
    ]);
  });

  it('an unknown top-level key is refused by name', () => {
    expect(errorsOf({ centrall: {} })).toEqual([expect.objectContaining({ path: 'centrall' })]);
  });

  it('an unknown nested key is refused by its dotted path', () => {
    expect(errorsOf({ standin: { day_limit: 5 } })).toEqual([
      expect.objectContaining({ path: 'standin.day_limit' }),
    ]);
  });

  it('a central url that is not http(s) names central.url', () => {
    expect(errorsOf({ central: { url: 'ftp://example.com' } })[0]?.path).toBe('central.url');
  });

  it('a real serial device without a path names its path key', () => {
    expect(errorsOf({ devices: { scanner: { simulated: false } } })).toEqual([
      expect.objectContaining({ path: 'devices.scanner.path' }),
    ]);
  });

  it('a TCP device without a host names its host key', () => {
    expect(errorsOf({ devices: { payment: { transport: 'tcp' } } })).toEqual([
      expect.objectContaining({ path: 'devices.payment.host' }),
    ]);
  });

  it('several errors are all reported', () => {
    const paths = errorsOf({ ui: { language: 'English' }, standin: { clock_skew_warn_s: 0 } }).map(
      (e) => e.path,
    );
    expect(paths.sort()).toEqual(['standin.clock_skew_warn_s', 'ui.language']);
  });

  it('a configuration that is not an object is refused at the root', () => {
    expect(errorsOf([])).toEqual([expect.objectContaining({ path: '(root)' })]);
  });
});
