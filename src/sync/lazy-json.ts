// A JSON object whose one big array is kept as UTF-8 bytes and parsed an element at a time.
// A page of the change feed parsed whole keeps thousands of records alive while they are
// applied, and even its text as one JS string survives scavenges; V8 answers survival in the
// young generation by growing it to its maximum, which was most of a snapshot's peak RSS
// (docs/sync.md, "Snapshot memory and speed"). Here the page stays in a Buffer (outside the JS heap)
// and each record (in runs of a few dozen) is decoded, parsed, applied and garbage before the
// next scavenge.
// JSON's structural characters are ASCII and never occur inside a UTF-8 multi-byte
// sequence, so the bytes can be scanned without decoding them.
import type { Buffer } from 'node:buffer';

/** Thrown while iterating when an element is not valid JSON (the body was malformed). */
export class LazyJsonError extends Error {
  override readonly name = 'LazyJsonError';
}

/**
 * Elements parsed together: one JSON.parse per run costs much less than one per element. Kept
 * small: with 64 a run often survived a scavenge and the young generation grew to 64 MB
 * (docs/sync.md, "Snapshot memory and speed").
 */
const PARSE_RUN = 16;

/** The elements of a JSON array as byte offsets, parsed when iterated. */
export class LazyArray implements Iterable<unknown> {
  private readonly bytes: Buffer;
  /** start0, end0, start1, end1, ... (a typed array: no objects for the scavenger to copy). */
  private readonly bounds: Uint32Array;
  readonly length: number;

  constructor(bytes: Buffer, bounds: Uint32Array, length: number) {
    this.bytes = bytes;
    this.bounds = bounds;
    this.length = length;
  }

  *[Symbol.iterator](): Iterator<unknown> {
    for (let i = 0; i < this.length; i += PARSE_RUN) {
      const n = Math.min(PARSE_RUN, this.length - i);
      yield* this.run(i, n) ?? this.oneByOne(i, n);
    }
  }

  /**
   * Elements i .. i+n-1 parsed with one JSON.parse of their text as an array (between two
   * elements there is only a comma and space), or null when that fails or does not give n
   * elements: then they are parsed one by one, which names the bad element.
   */
  private run(i: number, n: number): unknown[] | null {
    const text = this.bytes.toString('utf8', this.bounds[2 * i], this.bounds[2 * (i + n) - 1]);
    try {
      const values = JSON.parse(`[${text}]`) as unknown;
      return Array.isArray(values) && values.length === n ? values : null;
    } catch {
      return null;
    }
  }

  private *oneByOne(i: number, n: number): Generator<unknown> {
    for (let k = i; k < i + n; k++) {
      const text = this.bytes.toString('utf8', this.bounds[2 * k], this.bounds[2 * k + 1]);
      try {
        yield JSON.parse(text) as unknown;
      } catch (error) {
        throw new LazyJsonError(`element ${k}: ${(error as Error).message}`);
      }
    }
  }

  /** Every element parsed (small arrays, tests). */
  toArray(): unknown[] {
    return [...this];
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function isSpace(c: number | undefined): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function skipSpace(t: Buffer, i: number): number {
  while (i < t.length && isSpace(t[i])) i++;
  return i;
}

/**
 * `i` at an opening quote: the index after its closing quote, or -1. A plain loop: the
 * strings of a record are short, and a call of Buffer.indexOf per string cost more than
 * reading their bytes (a backslash escapes the byte after it; a UTF-8 sequence's bytes are
 * all >= 0x80, never a quote or a backslash).
 */
function endOfString(t: Buffer, i: number): number {
  const n = t.length;
  for (let j = i + 1; j < n; j++) {
    const c = t[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/** The index after the value starting at `i` (structure only; JSON.parse checks the rest), or -1. */
function endOfValue(t: Buffer, i: number): number {
  const c = t[i];
  if (c === QUOTE) return endOfString(t, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < t.length;) {
      const d = t[j];
      if (d === QUOTE) {
        j = endOfString(t, j);
        if (j < 0) return -1;
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  let j = i;
  while (j < t.length) {
    const d = t[j];
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    j++;
  }
  return j > i ? j : -1;
}

function parseSlice(t: Buffer, start: number, end: number): { ok: true; value: unknown } | null {
  try {
    return { ok: true, value: JSON.parse(t.toString('utf8', start, end)) as unknown };
  } catch {
    return null;
  }
}

/**
 * Parses UTF-8 JSON like JSON.parse, except that when it is an object whose member `key` is
 * an array, that member becomes a LazyArray. Returns undefined for bytes that are not JSON (a
 * malformed element of the lazy array is found only when it is iterated: LazyJsonError).
 */
export function parseWithLazyArray(bytes: Buffer, key: string): unknown {
  // A byte order mark, as TextDecoder would drop it.
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let i = skipSpace(bytes, start);
  if (bytes[i] !== OPEN_BRACE) return parseSlice(bytes, start, bytes.length)?.value;
  const out: Record<string, unknown> = {};
  const set = (k: string, value: unknown) =>
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_BRACE) return skipSpace(bytes, i + 1) === bytes.length ? out : undefined;
  for (;;) {
    if (bytes[i] !== QUOTE) return undefined;
    const keyEnd = endOfString(bytes, i);
    if (keyEnd < 0) return undefined;
    const name = parseSlice(bytes, i, keyEnd);
    if (!name || typeof name.value !== 'string') return undefined;
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1);
    if (name.value === key && bytes[i] === OPEN_BRACKET) {
      let bounds = new Uint32Array(2 * 1024);
      let n = 0;
      i = skipSpace(bytes, i + 1);
      if (bytes[i] === CLOSE_BRACKET) i++;
      else
        for (;;) {
          const end = endOfValue(bytes, i);
          if (end < 0) return undefined;
          if (2 * n + 2 > bounds.length) {
            const grown = new Uint32Array(bounds.length * 2);
            grown.set(bounds);
            bounds = grown;
          }
          bounds[2 * n] = i;
          bounds[2 * n + 1] = end;
          n++;
          i = skipSpace(bytes, end);
          const c = bytes[i];
          if (c === CLOSE_BRACKET) {
            i++;
            break;
          }
          if (c !== COMMA) return undefined;
          i = skipSpace(bytes, i + 1);
        }
      set(name.value, new LazyArray(bytes, bounds, n));
    } else {
      const end = endOfValue(bytes, i);
      if (end < 0) return undefined;
      const value = parseSlice(bytes, i, end);
      if (!value) return undefined;
      set(name.value, value.value);
      i = end;
    }
    i = skipSpace(bytes, i);
    const c = bytes[i];
    if (c === CLOSE_BRACE) return skipSpace(bytes, i + 1) === bytes.length ? out : undefined;
    if (c !== COMMA) return undefined;
    i = skipSpace(bytes, i + 1);
  }
}
