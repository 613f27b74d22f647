// The page parser that keeps the change feed's records as bytes until each is applied.
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LazyArray, LazyJsonError, parseWithLazyArray } from '../../src/sync/lazy-json.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** The lazy result with its array materialised, to compare with JSON.parse. */
function materialise(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  // fromEntries defines own properties, so a `__proto__` key stays a key, as in JSON.parse.
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, v instanceof LazyArray ? v.toArray() : v]),
  );
}

describe('parseWithLazyArray', () => {
  it('gives what JSON.parse gives for any object with an array member, however it is spaced', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 20 }),
        fc.dictionary(
          fc.string().filter((k) => k !== 'changes'),
          fc.jsonValue(),
          { maxKeys: 4 },
        ),
        fc.boolean(),
        (changes, rest, pretty) => {
          const text = JSON.stringify({ ...rest, changes }, null, pretty ? 2 : undefined);
          const lazy = parseWithLazyArray(bytes(text), 'changes');
          expect(materialise(lazy)).toEqual(JSON.parse(text));
          expect((lazy as { changes: LazyArray }).changes).toBeInstanceOf(LazyArray);
          expect((lazy as { changes: LazyArray }).changes.length).toBe(changes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a __proto__ member as an own key, as JSON.parse does', () => {
    const text = '{"__proto__":{"polluted":1},"changes":[]}';
    const lazy = parseWithLazyArray(bytes(text), 'changes') as Record<string, unknown>;
    expect(Object.getPrototypeOf(lazy)).toBe(Object.prototype);
    expect(materialise(lazy)).toEqual(JSON.parse(text));
  });

  it('finds element bounds past quotes, backslashes, brackets and multi-byte characters in strings', () => {
    const changes = [
      { id: 'a"]}', note: 'back\\slash\\' },
      { id: '\\"[{', emoji: 'ü€😀', nested: [[{}], { '}': ']' }] },
      'plain "string" ]',
      42,
      null,
    ];
    const lazy = parseWithLazyArray(bytes(JSON.stringify({ changes })), 'changes') as {
      changes: LazyArray;
    };
    expect(lazy.changes.toArray()).toEqual(changes);
  });

  it('parses each record only when iterated, one at a time', () => {
    const lazy = parseWithLazyArray(bytes('{"changes":[{"a":1},{"b":2}],"cursor":"c"}'), 'changes');
    const it = (lazy as { changes: LazyArray }).changes[Symbol.iterator]();
    expect(it.next().value).toEqual({ a: 1 });
    expect(it.next().value).toEqual({ b: 2 });
    expect(it.next().done).toBe(true);
  });

  it('answers undefined for bytes that are not one JSON value', () => {
    for (const text of [
      '',
      '{',
      '{"changes":[1,2}',
      '{"changes":[1,2]',
      '{"changes":[1,2]} x',
      '{"changes":[1 2]}',
      '{"changes":["unterminated]}',
      '{"cursor":tru}',
      '{"a" 1}',
      '{a:1}',
      '{"changes":[1],}',
    ])
      expect(parseWithLazyArray(bytes(text), 'changes'), text).toBeUndefined();
  });

  it('throws LazyJsonError when a malformed record is reached', () => {
    const lazy = parseWithLazyArray(bytes('{"changes":[{"a":1},{"b":nope}]}'), 'changes') as {
      changes: LazyArray;
    };
    expect(() => lazy.changes.toArray()).toThrow(LazyJsonError);
  });

  it('names the malformed record among many by its index, after giving the ones before it', () => {
    const records = Array.from({ length: 200 }, (_, i) =>
      i === 150 ? '{"b":nope}' : `{"a":${i}}`,
    );
    const lazy = parseWithLazyArray(bytes(`{"changes":[${records.join(', ')}]}`), 'changes') as {
      changes: LazyArray;
    };
    const seen: unknown[] = [];
    expect(() => {
      for (const r of lazy.changes) seen.push(r);
    }).toThrow(/^element 150: /);
    expect(seen).toEqual(Array.from({ length: 150 }, (_, i) => ({ a: i })));
  });

  it('keeps a "__proto__" key as data, not as the prototype', () => {
    const lazy = parseWithLazyArray(
      bytes('{"__proto__":{"polluted":true},"changes":[]}'),
      'changes',
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(lazy)).toBe(Object.prototype);
    expect(Object.hasOwn(lazy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses non-object JSON as JSON.parse does, and skips a byte order mark', () => {
    expect(parseWithLazyArray(bytes('[1,2]'), 'changes')).toEqual([1, 2]);
    expect(parseWithLazyArray(bytes(' "x" '), 'changes')).toBe('x');
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"changes":[1]}')]);
    expect(materialise(parseWithLazyArray(withBom, 'changes'))).toEqual({ changes: [1] });
  });

  it('leaves a member of another name, or a non-array member of that name, parsed as usual', () => {
    expect(parseWithLazyArray(bytes('{"changes":{"a":[1]},"x":[2]}'), 'changes')).toEqual({
      changes: { a: [1] },
      x: [2],
    });
  });
});
