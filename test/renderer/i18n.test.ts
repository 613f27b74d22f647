// Every text the screen shows goes through one table: a key used must exist, a key that
// exists must be used, and parameters are filled in.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorKey, LANGUAGES, MESSAGE_KEYS, TABLES, translator } from '../../renderer/i18n.js';

const root = join(import.meta.dirname, '../../renderer');

/** The renderer's code, without the tables themselves (renderer/i18n/). */
function sources(): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('dist') && !f.startsWith('i18n/'))
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
    const all = sources().join('\n');
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

/** The `{parameters}` of a text, sorted (a repeated one counts each time). */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe.each(LANGUAGES.filter((l) => l.code !== 'en'))('the $name table', ({ code }) => {
  const table: Readonly<Record<string, string>> = TABLES[code];

  it('has every key of the English table and no other', () => {
    expect(Object.keys(table).sort()).toEqual([...MESSAGE_KEYS].sort());
  });

  it('keeps the parameters of each English text', () => {
    const differ = MESSAGE_KEYS.filter(
      (k) => placeholders(table[k] ?? '').join() !== placeholders(TABLES.en[k]).join(),
    );
    expect(differ).toEqual([]);
  });

  it('has no empty text', () => {
    expect(MESSAGE_KEYS.filter((k) => (table[k] ?? '').trim() === '')).toEqual([]);
  });
});

describe('the German texts', () => {
  it('fill their parameters like the English ones', () => {
    expect(translator('de')('header.shift', { n: 3 })).toBe('Schicht 3');
  });
});
