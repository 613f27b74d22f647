// Errors are values (engine.md 13): `{ error: { code, message, path, details? } }`.
// Exceptions are reserved for bugs.
import type { EngineError, EngineErrorCode } from '../contract/engine.js';

export type ErrorResult = { error: EngineError };

export function engineError(
  code: EngineErrorCode,
  message: string,
  path: string,
  details?: Record<string, unknown>,
): ErrorResult {
  return { error: details ? { code, message, path, details } : { code, message, path } };
}

export function isError(value: unknown): value is ErrorResult {
  return typeof value === 'object' && value !== null && 'error' in value;
}
