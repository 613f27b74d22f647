// bench/store: the local store at chain scale. Seeds 1,000,000 customers with cards, 10,000
// rules and 100,000 coupons (through the store's own validated upserts, one transaction per
// entity), then times a lookup by card code, the context of a 50-line check, a durable sale
// (ledger, stats and outbox rows, synchronous=FULL) beside a bare two-row insert under the
// same pragmas, sales per second in a loop, and prints the file size.
// Smaller runs: BENCH_STORE_CUSTOMERS=100000 npm run bench -- store.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineCheck } from '../src/contract/engine.js';
import type { OperationInput } from '../src/store/ledger.js';
import { openBaseline, openStore } from '../src/store/open.js';
import { line, sample, summarize } from './stats.js';

const CUSTOMERS = Number(process.env.BENCH_STORE_CUSTOMERS ?? 1_000_000);
const RULES = 10_000;
const COUPONS = 100_000;
const LOYALTIES = 10;
const POSES = 50;

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const size = (file: string): number =>
  ['', '-wal', '-shm'].reduce(
    (n, s) => n + (statSync(file + s, { throwIfNoEntry: false })?.size ?? 0),
    0,
  );
const cardCode = (i: number): string => `C${String(i).padStart(10, '0')}`;

function time<T>(label: string, fn: () => T): T {
  const t0 = process.hrtime.bigint();
  const r = fn();
  console.log(`${label.padEnd(44)} ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  return r;
}

function check50(customerId: string): EngineCheck {
  return {
    customer_id: customerId,
    loyalty: { id: 'l0' },
    pos: { id: 'p0' },
    bonuses_redeemed_amount: 2,
    check_items: Array.from({ length: 50 }, (_, i) => ({
      code: `G${i}`,
      category: `cat${i % 8}`,
      title: `Goods ${i}`,
      quantity: 1 + (i % 3),
      price: 1.99 + i,
    })),
  };
}

function saleOf(id: string, customerId: string, check: EngineCheck): OperationInput {
  return {
    id,
    kind: 'check',
    subtype: 'offline',
    customerId,
    localDate: '2026-11-22',
    check: {
      transactionType: 'sale',
      posId: 'p0',
      amountToPay: '1234.56',
      currency: 'EUR',
      document: { ...check, transaction_id: id },
    },
    bonuses: { redeemed: '2', added: '12.35' },
    payments: [{ type: 'cash', id: 'EUR', amount: '1234.56', currency: 'EUR' }],
    stats: { amount: '1236.56', quantity: '99', visits: 1 },
    outbox: {
      operation: 'process_check',
      payload: { version: 1, check: { ...check, transaction_id: id } },
      version: 1,
    },
  };
}

export async function benchStore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loyalty-bench-store-'));
  const file = join(dir, 'terminal.sqlite');
  let now = Date.parse('2026-11-22T10:15:00Z');
  const clock = { now: () => now };
  const store = await openStore({ file, clock, dailyBackup: false });
  try {
    console.log(
      `seeding ${CUSTOMERS.toLocaleString('en')} customers with cards, ${RULES.toLocaleString('en')} rules, ${COUPONS.toLocaleString('en')} coupons in ${dir}`,
    );
    time('seed customers + cards', () =>
      store.write(() => {
        for (let i = 0; i < CUSTOMERS; i++) {
          const id = `cu${i}`;
          store.cache.put(
            'customer',
            {
              id,
              access_type: 'full-bonuses-access',
              phone: `+49 30 ${1_000_000 + i}`,
              email: `c${i}@example.com`,
              bonuses: { regular: i % 500 },
            },
            now,
          );
          store.cache.put('card', { id: `k${i}`, customer_id: id, code: cardCode(i) }, now);
        }
      }),
    );
    time('seed rules', () =>
      store.write(() => {
        for (let i = 0; i < RULES; i++) {
          store.cache.put(
            'rule',
            {
              id: `r${i}`,
              loyalty_id: `l${i % LOYALTIES}`,
              title: `rule ${i}`,
              priority: i % 7,
              action_type: i % 3 === 0 ? 'bonuses' : 'discount',
              charge_type: 'regular-bonuses',
              included_item_categories: [`cat${i % 8}`],
              value: { type: 'percentage', thresholds: [{ from: 0, value: 1 + (i % 10) }] },
              // Most rules hold at every POS; one in four is for one POS of the chain.
              pos: i % 4 === 0 ? [{ id: `p${i % POSES}`, title: 'POS' }] : [],
            },
            now,
          );
        }
      }),
    );
    time('seed coupons', () =>
      store.write(() => {
        for (let i = 0; i < COUPONS; i++) {
          store.cache.put(
            'coupon',
            {
              id: `cp${i}`,
              code: `CPN${i}`,
              customer_id: `cu${i % CUSTOMERS}`,
              status: 'open',
              type: 'check-modifier',
            },
            now,
          );
        }
      }),
    );
    // The bench customer has what a real one has: lots, stats, an account, a coupon on the check.
    store.write(() => {
      store.cache.put('loyalty', { id: 'l0', currency: 'EUR', bonus_payment_max_percent: 50 }, now);
      store.cache.put('pos', { id: 'p0', loyalty_id: 'l0', time_zone: 'Europe/Berlin' }, now);
      store.cache.put(
        'bonus_lot',
        { id: 'lot0', customer_id: 'cu7', amount: 5, starting: '2026-11-01', expire: '2026-12-31' },
        now,
      );
      store.cache.put(
        'customer_stats',
        {
          id: 'st7',
          customer_id: 'cu7',
          as_of: '2026-11-22',
          periods: { day: { amount: 1, quantity: 1, visits: 1 } },
        },
        now,
      );
      store.cache.put(
        'special_account',
        { id: 'a7', customer_id: 'cu7', type: 'money', currency: 'EUR', balance: 500 },
        now,
      );
    });
    console.log(`file size after seeding                      ${mb(size(file))}`);
    const t0 = process.hrtime.bigint();
    console.log(
      `rules in memory: ${store.rules.size()} (loaded and validated in ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms)`,
    );

    let i = 0;
    const lookup = summarize(
      sample(20_000, 2_000, () => {
        i = (i * 7919 + 13) % CUSTOMERS;
        if (!store.cache.customerByCard(cardCode(i))) throw new Error('lookup missed');
      }),
    );
    console.log(line('lookup by card code (target median <= 50 us)', lookup));

    const check = { ...check50('cu7'), redeemed_coupons: [{ code: 'CPN7' }] };
    const ctx = summarize(sample(2_000, 200, () => void store.assembleContext({ check })));
    console.log(line('context, 50-line check (target <= 1000 us)', ctx));
    console.log(`  candidate rules for l0 at p0: ${store.assembleContext({ check }).rules.length}`);

    const bareFile = join(dir, 'bare.sqlite');
    const bare = openBaseline(bareFile);
    const bareS = summarize(sample(2_000, 100, () => bare.insertTwo(randomUUID(), randomUUID())));
    bare.close();

    const doc = check50('cu7');
    const saleS = summarize(
      sample(2_000, 100, () => {
        now += 1;
        store.record(saleOf(randomUUID(), 'cu7', doc));
      }),
    );
    console.log(line('durable sale: ledger+stats+outbox (<=1000/5000)', saleS));
    console.log(line('bare two-row insert, same pragmas', bareS));
    console.log(
      `  ratio sale / bare (median): ${(saleS.median_us / bareS.median_us).toFixed(2)}x (target <= 3x)`,
    );

    let sold = 0;
    const loopStart = process.hrtime.bigint();
    while (process.hrtime.bigint() - loopStart < 3_000_000_000n) {
      now += 1;
      store.record(saleOf(randomUUID(), `cu${sold % 1000}`, doc));
      sold += 1;
    }
    const seconds = Number(process.hrtime.bigint() - loopStart) / 1e9;
    console.log(
      `sales per second in a loop                   ${Math.round(sold / seconds)}/s (${sold} in ${seconds.toFixed(1)} s)`,
    );
    console.log(
      `file size                                    ${mb(size(file))} (terminal.sqlite with -wal and -shm)`,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
