// `sync-now` is the cashier's "send it now": every queued row goes at once, whatever the
// backoff an earlier failure left on it or on the link (issue 12: it answered `pushed: 0`
// twice with 5 rows queued).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('sync-now', () => {
  it('sends every queued row now, although a failed attempt backed them off for minutes', async () => {
    const dir = tempDir();
    const db = join(dir, 'central.sqlite');
    let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    const t: Till = await openTill({
      central,
      dir: join(dir, 'till'),
      // A failed attempt waits at least 5 minutes: only a manual sync can send before.
      central_config: { retry: { base_ms: 600_000, max_ms: 3_600_000, drain_interval_ms: 60_000 } },
    });
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});

    await central.close();
    for (let i = 0; i < 5; i++)
      await t.ok('sale-process', {
        transaction_id: uuidv7(Date.now()),
        check: { check_items: [item('COF-2', 1)] },
      });
    const down = await t.ok('sync-now', {});
    expect(down).toMatchObject({ pushed: 0, sync: { outbox_depth: 5 } });
    expect(down.error).not.toBeNull();
    const backedOff = t.terminal.store.outbox.oldestUnsent();
    expect(backedOff!.nextAttemptAt).toBeGreaterThan(Date.now() + 250_000);

    central = await startCentral({ db, port, faultSeed: 1 });
    cleanups.push(() => central.close());
    const synced = await t.ok('sync-now', {});
    expect(synced).toMatchObject({ pushed: 5, error: null, sync: { outbox_depth: 0 } });
    expect(central.store.transactions()).toHaveLength(5);
  }, 60_000);
});
