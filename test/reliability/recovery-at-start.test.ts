// Recovery wired into the start (issue 12): the built agent, as a child process, finds its
// terminal.sqlite damaged in the middle, sets it aside, restores the newest backup with the
// unsent sales it held, lists the recovery for the cashier, and sells.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { backupFile } from '../../src/store/open.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { command, startChild, stopChild, type Child, type Json } from '../chaos/harness.js';
import { checkpoint, rootPageOf, smashPage } from './damage.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const coffee = { check_items: [{ code: 'COF-2', quantity: 1 }] };

async function startAgent(
  dataDir: string,
): Promise<{ child: Child; api: { url: string; token: string } }> {
  const child = await startChild(['agent', '--port', '0', '--data', dataDir], 30_000);
  cleanups.push(() => stopChild(child));
  return { child, api: { url: child.info.url!, token: child.info.token! } };
}

/** Signs the cashier in (the first pull may still be on its way) and has a shift open. */
async function ready(api: { url: string; token: string }): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const st = (await command(api, 'status', {})).json;
    if (st.staff && st.shift) return;
    if (!st.staff) await command(api, 'staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    else await command(api, 'shift-open', { opening_cash: 0 });
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the cashier could not sign in and open a shift');
}

async function sell(api: { url: string; token: string }): Promise<Json> {
  const r = await command(api, 'sale-process', {
    transaction_id: uuidv7(Date.now()),
    check: coffee,
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

/** Overwrites the outbox's root page and the page in the middle of the file. */
function damageTheMiddle(file: string): void {
  checkpoint(file);
  const { page, pageSize } = rootPageOf(file, 'outbox');
  smashPage(file, page, pageSize);
  smashPage(file, Math.floor(statSync(file).size / pageSize / 2), pageSize);
}

describe('a damaged database at the agent start', () => {
  it('is recovered from the backup: listed for the cashier, selling works, the unsent sales survive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-recovery-start-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'central.sqlite');
    let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    const dataDir = join(dir, 'till');
    mkdirSync(dataDir);
    writeFileSync(
      join(dataDir, 'config.json'),
      JSON.stringify({
        central: {
          url: central.url,
          timeouts: { connect_ms: 300, headers_ms: 1_000, body_ms: 1_500, online_deadline_ms: 800 },
          retry: { base_ms: 50, max_ms: 1_000, drain_interval_ms: 1_000 },
        },
      }),
    );

    // Two sales while the central service is down: queued, in the backup taken after them.
    let agent = await startAgent(dataDir);
    await ready(agent.api);
    await central.close();
    const unsent = [await sell(agent.api), await sell(agent.api)];
    for (const s of unsent) expect(s.sync.state, JSON.stringify(s.sync)).toBe('queued');
    await stopChild(agent.child, 'SIGTERM');
    const file = join(dataDir, 'terminal.sqlite');
    const backup = await backupFile(file, join(dataDir, 'backups', 'manual-before-damage.sqlite'));
    damageTheMiddle(file);

    central = await startCentral({ db, port, faultSeed: 1 });
    cleanups.push(() => central.close());
    agent = await startAgent(dataDir);
    await ready(agent.api);

    const status = (await command(agent.api, 'status', {})).json;
    expect(status.attention).toBeGreaterThanOrEqual(1);
    const items = (await command(agent.api, 'attention-list', {})).json.items as Json[];
    const recovered = items.find((i) => i.kind === 'store-recovered');
    expect(recovered?.message).toContain('backup manual-before-damage.sqlite was restored');
    expect(recovered?.details).toMatchObject({ restored_from: backup, outbox_damaged: true });
    // The outbox's root page is gone: the cashier is told newer sales may be missing.
    expect(recovered?.message).toContain('sales made after the backup may be missing');
    const quarantined = readdirSync(join(dataDir, 'quarantine'));
    expect(quarantined).toHaveLength(1);
    expect(existsSync(join(dataDir, 'quarantine', quarantined[0]!, 'terminal.sqlite'))).toBe(true);

    const sale = await sell(agent.api);
    const synced = (await command(agent.api, 'sync-now', {})).json;
    expect(synced.sync.outbox_depth).toBe(0);
    const onServer = new Set(central.store.transactions().map((t) => t.transaction_id));
    for (const s of [...unsent, sale]) expect(onServer.has(s.transaction_id as string)).toBe(true);
  }, 120_000);
});
