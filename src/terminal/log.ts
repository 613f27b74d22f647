// The logger port and its JSON-lines file implementation (DIR/logs/terminal.log, rotated by
// size). Every record is redacted before it is written: a key that names a secret (pin,
// auth_code, api_key, token, password, secret, ...) has its value replaced at any depth, so
// a payload can be logged as it is without leaking what a cashier typed.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

export interface LogRecord extends LogFields {
  time: string;
  level: LogLevel;
  msg: string;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export const REDACTED = '[redacted]';

// Words of a key that make its value secret. Keys are split into words (snake, kebab, camel),
// so `special_account_pin` and `specialAccountPin` are caught while `shipping` is not.
const secretWords = new Set([
  'pin',
  'pincode',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'authorization',
  'cookie',
  'cvv',
  'cvc',
  'pan',
  'track1',
  'track2',
  'track3',
]);
const secretPairs = new Set(['auth code', 'api key', 'private key', 'session id']);
const secretJoined = /(password|token|secret|apikey|authcode)$/;

function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a key names a secret (`pin`, `auth_code`, `x-api-key`, `cardotppassword`, ...). */
export function isSecretKey(key: string): boolean {
  const w = words(key);
  if (w.some((word) => secretWords.has(word) || secretJoined.test(word))) return true;
  for (let i = 1; i < w.length; i++) if (secretPairs.has(`${w[i - 1]} ${w[i]}`)) return true;
  return false;
}

function serialiseError(e: Error): LogFields {
  const out: LogFields = { name: e.name, message: e.message };
  if (e.stack) out.stack = e.stack;
  const code = (e as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (e.cause !== undefined) out.cause = e.cause;
  return out;
}

/** A copy of `value` with every secret-named key's value replaced; cycles and depth bounded. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (depth > 32) return '[too deep]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (value instanceof Error) return redact(serialiseError(value), depth + 1, seen);
    if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
    if (value instanceof Date) return value.toISOString();
    const out: LogFields = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSecretKey(k) ? REDACTED : redact(v, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** Builds a logger over a sink of finished records; the sink sees records already redacted. */
export function loggerOver(
  sink: (record: LogRecord) => void,
  opts: { level?: LogLevel; now?: () => Date; fields?: LogFields } = {},
): Logger {
  const min = order[opts.level ?? 'info'];
  const now = opts.now ?? (() => new Date());
  const base = opts.fields ?? {};
  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (order[level] < min) return;
    const body = redact({ ...base, ...fields }) as LogFields;
    sink({ time: now().toISOString(), level, msg, ...body });
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => loggerOver(sink, { ...opts, fields: { ...base, ...fields } }),
  };
}

/** Discards everything. */
export const nullLogger: Logger = loggerOver(() => undefined, { level: 'error' });

export interface FileLoggerOptions {
  /** The logs directory, `DIR/logs`. */
  dir: string;
  /** Base name: `terminal` writes `terminal.log`, rotated to `terminal.1.log`, ... */
  name?: string;
  level?: LogLevel;
  /** Rotate before a write would take the file over this size. */
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  keep?: number;
  now?: () => Date;
  /** Also hand each line to this (e.g. stderr while developing). */
  echo?: (line: string) => void;
}

/**
 * JSON lines, one record a line, written synchronously: a crash loses no record that was
 * logged before it, and the order of lines is the order of events.
 */
export function createFileLogger(
  opts: FileLoggerOptions,
): Logger & { close(): void; file: string } {
  const name = opts.name ?? 'terminal';
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const keep = opts.keep ?? 5;
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const file = join(opts.dir, `${name}.log`);
  const rotated = (n: number) => join(opts.dir, `${name}.${n}.log`);

  let fd: number | null = openSync(file, 'a', 0o600);
  let size = statSync(file).size;

  const rotate = () => {
    if (fd !== null) closeSync(fd);
    rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      try {
        renameSync(rotated(n), rotated(n + 1));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    if (keep > 0) renameSync(file, rotated(1));
    else rmSync(file, { force: true });
    fd = openSync(file, 'a', 0o600);
    size = 0;
  };

  const sink = (record: LogRecord) => {
    if (fd === null) return;
    const line = `${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) rotate();
    writeSync(fd, line);
    size += bytes;
    opts.echo?.(line);
  };

  const logger = loggerOver(sink, { level: opts.level ?? 'info', now: opts.now });
  return Object.assign(logger, {
    file,
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  });
}
