// The online/offline state, the offline window on a monotonic clock that survives restarts,
// and the clock checks.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../support/clock.js';
import { Connectivity, type ContactStore } from '../../src/sync/connectivity.js';

function memoryPersist(): ContactStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    getValue: (k, schema) => {
      if (!values.has(k)) return null;
      const r = schema.safeParse(values.get(k));
      return r.success ? { ok: true, value: r.data } : { ok: false, problem: r.error.message };
    },
    setValue: (k, v) => void values.set(k, v),
  };
}

const T0 = Date.parse('2026-11-22T10:00:00Z');

describe('connectivity', () => {
  it('is online only after a real answer and offline after a failure', () => {
    const clock = manualClock(T0);
    const link = new Connectivity({ clock, persist: memoryPersist(), skewWarnMs: 300_000 });
    expect(link.current).toBe('unknown');
    link.onResponse({ status: 200, date: new Date(T0).toUTCString() });
    expect(link.current).toBe('online');
    link.onNoResponse();
    expect(link.current).toBe('offline');
    link.onResponse({ status: 503, date: null });
    expect(link.current).toBe('offline');
  });

  it('measures the window on the monotonic clock, so setting the wall clock back does not extend it', () => {
    const clock = manualClock(T0);
    const link = new Connectivity({ clock, persist: memoryPersist(), skewWarnMs: 300_000 });
    link.recordContact(null);
    clock.advance(60_000);
    clock.jumpWall(-3_600_000);
    expect(link.sinceContactMs()).toBe(60_000);
    expect(link.status().clockSuspect).toBe(true);
  });

  it('keeps the window across a restart from the persisted contact', () => {
    const persist = memoryPersist();
    const clock = manualClock(T0);
    new Connectivity({ clock, persist, skewWarnMs: 300_000 }).recordContact(null);
    clock.advance(120_000);
    const again = new Connectivity({
      clock: manualClock(clock.now()),
      persist,
      skewWarnMs: 300_000,
    });
    expect(again.sinceContactMs()).toBe(120_000);
  });

  it('closes the window when the wall clock is behind the persisted contact at start', () => {
    const persist = memoryPersist();
    new Connectivity({ clock: manualClock(T0), persist, skewWarnMs: 300_000 }).recordContact(null);
    const back = new Connectivity({
      clock: manualClock(T0 - 86_400_000),
      persist,
      skewWarnMs: 300_000,
    });
    expect(back.sinceContactMs()).toBeNull();
    expect(back.status().clockSuspect).toBe(true);
  });

  it('warns of a skew over the limit from the server Date header', () => {
    const clock = manualClock(T0);
    const link = new Connectivity({ clock, persist: memoryPersist(), skewWarnMs: 300_000 });
    link.recordContact(new Date(T0 + 10 * 60_000).toUTCString());
    expect(link.status()).toMatchObject({ skewWarning: true, clockSuspect: true, skewMs: 600_000 });
    link.recordContact(new Date(T0 + 60_000).toUTCString());
    expect(link.status().skewWarning).toBe(false);
  });
});
