import { describe, expect, it } from 'vitest';
import { classifyStoreError, StoreError, storeError } from '../../src/store/errors.js';

const sqlite = (code: string) => Object.assign(new Error('driver text'), { code });

describe('classifying SQLite failures', () => {
  it.each([
    ['SQLITE_BUSY', 'busy', true],
    ['SQLITE_BUSY_SNAPSHOT', 'busy', true],
    ['SQLITE_LOCKED', 'busy', true],
    ['SQLITE_FULL', 'full', false],
    ['SQLITE_CORRUPT', 'corrupt', false],
    ['SQLITE_NOTADB', 'corrupt', false],
    ['SQLITE_READONLY', 'read-only', false],
    ['SQLITE_READONLY_DBMOVED', 'read-only', false],
    ['SQLITE_IOERR_FSYNC', 'io', false],
    ['SQLITE_CONSTRAINT_PRIMARYKEY', 'constraint', false],
    ['SQLITE_CANTOPEN', 'cannot-open', false],
    ['SQLITE_MISUSE', 'other', false],
  ])('%s is %s', (code, expected, retryable) => {
    const f = classifyStoreError(sqlite(code));
    expect(f).toMatchObject({ code: expected, sqliteCode: code, retryable });
    expect(f.message).toContain(code);
  });

  it('passes a StoreError through as its own value', () => {
    expect(classifyStoreError(storeError('schema-newer', 'too new'))).toEqual({
      code: 'schema-newer',
      message: 'too new',
      retryable: false,
    });
  });

  it('classifies anything else as other', () => {
    expect(classifyStoreError(new TypeError('x'))).toEqual({
      code: 'other',
      message: 'x',
      retryable: false,
    });
    expect(new StoreError({ code: 'full', message: 'm', retryable: false }).code).toBe('full');
  });
});
