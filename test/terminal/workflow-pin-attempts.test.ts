// The PIN-attempt limit (docs/terminal.md, "PIN attempts"): wrong PINs of a special account or
// a corporate access count per account, whether check-calc or sale-process sees them, online
// or offline; enough of them lock that PIN (`pin-locked`), even for the right PIN, across a
// restart, until the lockout has passed.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import { hashSecret } from '../../src/secret-hash/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { driver1Fleet, item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function till(o: Parameters<typeof openTill>[0] = {}): Promise<Till> {
  const t = await openTill(o);
  cleanups.push(() => t.close());
  return t;
}

/** Driver 1 paying from the fleet account through the driver's access (PIN 1234). */
const fleet = {
  ...driver1Fleet,
  odometer: 120_600,
  check_items: [item('DIESEL', 10)],
};

const sale = (pin: string) => ({
  transaction_id: uuidv7(Date.now()),
  check: { ...fleet, special_account_pin: pin },
});
const calc = (pin: string) => ({ check: { ...fleet, special_account_pin: pin } });

async function signedIn(t: Till): Promise<Till> {
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', {});
  return t;
}

async function codesOf(t: Till, calls: Array<['check-calc' | 'sale-process', unknown]>) {
  const out: string[] = [];
  for (const [name, input] of calls) {
    const r = await t.call(name, input);
    out.push(r.status === 200 ? 'ok' : (r.body as { error: { code: string } }).error.code);
  }
  return out;
}

describe('the PIN-attempt limit', () => {
  it('refuses the right PIN after 30 wrong ones while the PIN is locked', async () => {
    const t = await signedIn(await till());
    const wrong = Array.from({ length: 30 }, (_, i) => String(5000 + i));
    const codes = await codesOf(
      t,
      wrong.map((pin) => ['sale-process', sale(pin)] as const),
    );
    expect(codes.slice(0, 4)).toEqual(Array(4).fill('pin-invalid'));
    expect(codes.slice(4)).toEqual(Array(26).fill('pin-locked'));
    const locked = await t.refused('sale-process', sale(DEMO.pins.driver1), 'pin-locked');
    expect(locked.error.path).toBe('check.special_account_pin');
    expect(locked.error.message).toMatch(
      /too many wrong PINs for this account.*try again in 15 min/,
    );
    expect(locked.error.details).toMatchObject({ retry_after_s: 900 });
  }, 60_000);

  it('counts a wrong PIN in check-calc as a sale does', async () => {
    const t = await signedIn(await till({ pinAttempts: { max_failures: 3 } }));
    const codes = await codesOf(t, [
      ['check-calc', calc('0001')],
      ['sale-process', sale('0002')],
      ['check-calc', calc('0003')],
      ['check-calc', calc(DEMO.pins.driver1)],
      ['sale-process', sale(DEMO.pins.driver1)],
    ]);
    expect(codes).toEqual(['pin-invalid', 'pin-invalid', 'pin-locked', 'pin-locked', 'pin-locked']);
  }, 60_000);

  it('counts wrong PINs while the central service cannot be reached', async () => {
    const t = await signedIn(await till({ pinAttempts: { max_failures: 2 } }));
    t.central.server.setFaults({ error_rate: 1 });
    const codes = await codesOf(t, [
      ['sale-process', sale('0001')],
      ['sale-process', sale('0002')],
      ['sale-process', sale(DEMO.pins.driver1)],
    ]);
    expect(codes).toEqual(['pin-invalid', 'pin-locked', 'pin-locked']);
  }, 60_000);

  it("counts the central service's pin-invalid when the cached hash is out of date", async () => {
    const t = await signedIn(await till({ pinAttempts: { max_failures: 2 } }));
    // The PIN changed centrally; the till's cache still knows the old one.
    t.central.store.upsert('corporate_access', DEMO.accesses.driver1, {
      ...(t.central.store.getRecord('corporate_access', DEMO.accesses.driver1) as object),
      pin_hash: hashSecret('8642'),
    });
    const codes = await codesOf(t, [
      ['sale-process', sale(DEMO.pins.driver1)],
      ['sale-process', sale(DEMO.pins.driver1)],
      ['check-calc', calc(DEMO.pins.driver1)],
    ]);
    expect(codes).toEqual(['pin-invalid', 'pin-locked', 'pin-locked']);
  }, 60_000);

  it('counts parallel sales the central service refuses one by one, sending none past the lockout', async () => {
    const t = await signedIn(await till({ pinAttempts: { max_failures: 2 } }));
    t.central.store.upsert('corporate_access', DEMO.accesses.driver1, {
      ...(t.central.store.getRecord('corporate_access', DEMO.accesses.driver1) as object),
      pin_hash: hashSecret('8642'),
    });
    t.central.server.setFaults({ latency_ms: 100 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.call('sale-process', sale(DEMO.pins.driver1))),
    );
    t.central.server.setFaults({ latency_ms: 0 });
    const codes = answers.map((a) => (a.body as { error?: { code: string } }).error?.code);
    expect(codes.filter((c) => c === 'pin-invalid')).toHaveLength(1);
    expect(codes.filter((c) => c === 'pin-locked')).toHaveLength(5);
    const policy = { maxFailures: 2, windowMs: 900_000, lockoutMs: 900_000 };
    const target = `corporate-access:${DEMO.accesses.driver1}`;
    expect(t.terminal.store.pins.state(target, policy, Date.now()).failures).toBe(2);
  }, 60_000);

  it('keeps the lock across a restart', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    cleanups.push(() => central.close());
    const o = { central, dir: join(dir, 'till'), pinAttempts: { max_failures: 2 } };
    const first = await signedIn(await openTill(o));
    expect(
      await codesOf(first, [
        ['check-calc', calc('0001')],
        ['check-calc', calc('0002')],
      ]),
    ).toEqual(['pin-invalid', 'pin-locked']);
    await first.close();
    const again = await till(o);
    await again.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await again.refused('sale-process', sale(DEMO.pins.driver1), 'pin-locked');
  }, 60_000);

  it('unlocks after the lockout time, and a right PIN clears the count', async () => {
    let offset = 0;
    const clock = {
      now: () => Date.now() + offset,
      monotonic: () => performance.now() + offset,
    };
    const t = await signedIn(
      await till({ clock, pinAttempts: { max_failures: 2, window_s: 600, lockout_s: 300 } }),
    );
    expect(
      await codesOf(t, [
        ['check-calc', calc('0001')],
        ['check-calc', calc('0002')],
      ]),
    ).toEqual(['pin-invalid', 'pin-locked']);
    offset += 299_000;
    await t.refused('check-calc', calc(DEMO.pins.driver1), 'pin-locked');
    offset += 2_000;
    await t.ok('check-calc', calc(DEMO.pins.driver1));
    // The right PIN cleared the count: one wrong PIN later is not a lock.
    await t.refused('check-calc', calc('0003'), 'pin-invalid');
  }, 60_000);

  it('locks one account without locking another', async () => {
    const t = await signedIn(await till({ pinAttempts: { max_failures: 1 } }));
    await t.refused('check-calc', calc('0001'), 'pin-locked');
    expect(
      t.terminal.store.pins.state(
        `special-account:${DEMO.accounts.fleet}`,
        { maxFailures: 1, windowMs: 900_000, lockoutMs: 900_000 },
        Date.now(),
      ),
    ).toEqual({ failures: 0, lockedUntil: null });
  }, 60_000);
});
