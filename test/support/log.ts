// A logger that keeps its records in memory, redacted like every logger's (src/terminal/log.ts).
import { loggerOver, type Logger, type LogLevel, type LogRecord } from '../../src/terminal/log.js';

/** Keeps records in memory. */
export function memoryLogger(level: LogLevel = 'debug'): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return Object.assign(
    loggerOver((r) => records.push(r), { level }),
    { records },
  );
}
