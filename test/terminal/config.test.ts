// The configuration keys the workflow and the devices read: their defaults, errors that name
// their key, and the recognition block, which the devices' own schema must accept as it is.
import { describe, expect, it } from 'vitest';
import { ConfigSchema, parseConfig } from '../../src/contract/config.js';
import { RecognitionConfigSchema } from '../../src/devices/recognition.js';

const errorsOf = (json: unknown) => {
  const r = parseConfig(json);
  return r.ok ? [] : r.errors.map((e) => e.path);
};

describe('workflow and device settings', () => {
  it('defaults the sign-in lockout, the payment unit and the printer', () => {
    const c = ConfigSchema.parse({});
    expect(c.terminal.sign_in).toEqual({ max_failures: 5, window_s: 900, lockout_s: 300 });
    expect(c.devices.payment).toMatchObject({
      zvt_password: '000000',
      zvt_config_byte: 0xba,
      currency: 'EUR',
      pos_number: '01',
      max_retries: 3,
      recovery_policy: 'reverse',
    });
    expect(c.devices.printer?.line_width).toBe(42);
    expect(c.terminal.recognition).toBeUndefined();
  });

  it('names the key of a bad payment or printer setting', () => {
    expect(errorsOf({ devices: { payment: { simulated: true, zvt_password: '12' } } })).toEqual([
      'devices.payment.zvt_password',
    ]);
    expect(
      errorsOf({ devices: { payment: { simulated: true, recovery_policy: 'ignore' } } }),
    ).toEqual(['devices.payment.recovery_policy']);
    expect(errorsOf({ devices: { printer: { simulated: true, line_width: 5 } } })).toEqual([
      'devices.printer.line_width',
    ]);
    expect(errorsOf({ terminal: { sign_in: { max_failures: 0 } } })).toEqual([
      'terminal.sign_in.max_failures',
    ]);
  });

  it('names a bad recognition rule by its index', () => {
    expect(
      errorsOf({ terminal: { recognition: { rules: [{ pattern: '(', id_type: 'card' }] } } }),
    ).toEqual(['terminal.recognition.rules[0].pattern']);
  });

  it("writes recognition in the devices' own shape", () => {
    const c = ConfigSchema.parse({
      terminal: {
        recognition: {
          bank_ranges: ['4', '51-55'],
          msr_field: 'discretionary',
          rules: [{ source: 'scanner', pattern: '^LOY(?<id>\\d+)$', id_type: 'card' }],
        },
      },
    });
    const parsed = RecognitionConfigSchema.safeParse(c.terminal.recognition);
    expect(parsed.success).toBe(true);
  });
});
