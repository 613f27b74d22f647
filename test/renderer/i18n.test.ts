// Every text the screen shows goes through one table: a key used must exist, a key that
// exists must be used, and parameters are filled in.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorKey, MESSAGE_KEYS, translator } from '../../renderer/i18n.js';

const root = join(import.meta.dirname, '../../renderer');

function sources(): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('dist'))
    .map((f) => readFileSync(join(root, f), 'utf8'));
}

/** Keys named by a call `t('...')` anywhere in the renderer. */
function keysCalled(): Set<string> {
  const found = new Set<string>();
  for (const text of sources()) {
    for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) found.add(m[1]!);
  }
  return found;
}

describe('the translation table', () => {
  it('has every key that t() is called with', () => {
    const known = new Set<string>(MESSAGE_KEYS);
    const missing = [...keysCalled()].filter((k) => !known.has(k));
    expect(missing).toEqual([]);
  });

  it('uses every key it has', () => {
    const all = sources()
      .join('\n')
      .replace(/^const en = \{[\s\S]*?^\} as const/m, '');
    const unused = MESSAGE_KEYS.filter((k) => {
      if (k.startsWith('error.')) return false; // reached through errorKey(code)
      if (k.startsWith('coupon-error.')) return false; // reached through couponErrorKey(code)
      return !all.includes(`'${k}'`);
    });
    expect(unused).toEqual([]);
  });

  it('fills parameters and leaves unknown ones visible', () => {
    const t = translator('en');
    expect(t('header.shift', { n: 3 })).toBe('Shift 3');
    expect(t('header.shift')).toBe('Shift {n}');
  });

  it('finds the text of a known error code only', () => {
    expect(errorKey('pin-invalid')).toBe('error.pin-invalid');
    expect(errorKey('something-new')).toBeUndefined();
  });
});
