// A store of its own for every test of a file: opened on a fresh file before each test, closed
// and removed after it. Kept apart from helpers.ts, which child processes load without vitest.
import { afterEach, beforeEach } from 'vitest';
import type { OpenStoreOptions, Store } from '../../src/store/open.js';
import { openTest, tempDir, testClock, type TempDir, type TestClock } from './helpers.js';

export interface StoreUnderTest {
  /** The store of the running test. */
  readonly store: Store;
  /** Its clock, at the helpers' start time when the test begins. */
  readonly clock: TestClock;
  /** Its database file. */
  readonly file: string;
  /** Closes the store and opens its file again (a restart), optionally with other options. */
  reopen(extra?: Partial<OpenStoreOptions>): Promise<Store>;
}

/** Registers the hooks in the calling file; `prefix` names the temp directories. */
export function storePerTest(prefix: string): StoreUnderTest {
  let dir: TempDir | undefined;
  let clock: TestClock | undefined;
  let store: Store | undefined;
  const running = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the store exists only while a test runs');
    return v;
  };
  beforeEach(async () => {
    dir = tempDir(prefix);
    clock = testClock();
    store = await openTest(dir.file, clock);
  });
  afterEach(() => {
    store?.close();
    dir?.cleanup();
    store = clock = dir = undefined;
  });
  return {
    get store() {
      return running(store);
    },
    get clock() {
      return running(clock);
    },
    get file() {
      return running(dir).file;
    },
    async reopen(extra = {}) {
      running(store).close();
      store = undefined;
      store = await openTest(running(dir).file, running(clock), extra);
      return store;
    },
  };
}
