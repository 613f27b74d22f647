// Every refusal the terminal can answer has a text a cashier understands: a code without one
// shows the terminal's own (technical, English) message. The codes are collected from the
// sources, so a new refusal without a text fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { couponErrorKey, errorKey, errorText, translator } from '../../renderer/i18n.js';
import { shellErrorStatus } from '../../src/contract/commands.js';
import { EngineErrorCode } from '../../src/contract/engine.js';
import { PORT_REFUSALS } from '../../src/devices/forecourt/port.js';
import { CouponErrorCode } from '../../src/contract/enums.js';

const src = join(import.meta.dirname, '../../src');

/** The files whose refusals reach the screen: the command handlers and the agent. */
function sources(dirs: readonly string[]): string[] {
  return dirs.flatMap((d) =>
    readdirSync(join(src, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(src, d, f), 'utf8')),
  );
}

/** Codes written as `refuse('code', ...)`, `code: 'code'` or `CODE = 'code'`. */
function answeredCodes(): Set<string> {
  const found = new Set<string>([...EngineErrorCode.options, ...Object.keys(shellErrorStatus)]);
  // the forecourt port's refusals, answered by the till as `pump-<code>` (src/terminal/forecourt.ts)
  for (const code of PORT_REFUSALS) found.add(`pump-${code}`);
  const patterns = [
    /\brefuse\(\s*'([a-z][a-z-]*)'/g,
    /\bcode: '([a-z][a-z-]*)'/g,
    /\bCODE = '([a-z][a-z-]*)'/g,
  ];
  for (const text of sources(['terminal', 'agent']))
    for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]!);
  // zod's issue code, not an answer; warnings are shown with their own message.
  for (const notAnswer of ['custom', 'change-due']) found.delete(notAnswer);
  return found;
}

describe('the texts of refusals', () => {
  it('has a text for every code the terminal can answer', () => {
    const codes = [...answeredCodes()];
    expect(codes).toEqual(expect.arrayContaining(['pin-locked', 'cash-short', 'unknown-pos']));
    expect(codes.filter((c) => errorKey(c) === undefined).sort()).toEqual([]);
  });

  it('has a text for every reason a coupon is not valid, also another customer’s coupon', () => {
    const reasons = [...CouponErrorCode.options, 'other-customer'];
    expect(reasons.filter((c) => couponErrorKey(c) === undefined)).toEqual([]);
    expect(translator('en')(couponErrorKey('other-customer')!)).toMatch(/another customer/);
  });

  it('shows the text of a known code, and the terminal’s message for an unknown one', () => {
    const t = translator('en');
    const locked = { code: 'pin-locked', message: 'locked until 10:30', path: 'pin' };
    expect(errorText(t, locked)).not.toBe(locked.message);
    expect(errorText(t, { code: 'new-code', message: 'the terminal says so' })).toBe(
      'the terminal says so',
    );
  });
});
