// bench/catalog: the catalogue a check reads at the till (src/terminal/catalog.ts), with 2,000
// goods on the POS record: per check the service finds the POS record and its catalogue and
// looks a code up, as checkout does. The record is read once per version of the cache's POS
// rows (store posVersion), so a check costs a version stamp and two map lookups; a puller's
// write of the POS record costs one reread, timed apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open.js';
import { CatalogService } from '../src/terminal/catalog.js';
import { nullLogger } from '../src/terminal/log.js';
import type { TerminalPorts } from '../src/terminal/ports.js';
import { line, sample, summarize } from './stats.js';

const GOODS = 2_000;

const goods = Array.from({ length: GOODS }, (_, i) => ({
  code: `G${i}`,
  title: `Goods number ${i}`,
  category: `cat${i % 8}`,
  unit: 'pc',
  price: 1.99 + (i % 50),
  barcodes: [`2${String(1_000_000_000 + i).padStart(11, '0')}`],
}));

export async function benchCatalog(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loyalty-bench-catalog-'));
  let now = Date.parse('2026-11-22T10:15:00Z');
  const clock = { now: () => now };
  const store = await openStore({ file: join(dir, 'terminal.sqlite'), clock, dailyBackup: false });
  try {
    const put = () =>
      store.cache.put(
        'pos',
        { id: 'p0', check_item_enter_mode: 'presets-only', catalog: goods },
        now,
      );
    put();
    // Only the ports the catalogue reads: the store, the log and the (absent) quick keys.
    const ports = { store, log: nullLogger, config: { terminal: {} } } as unknown as TerminalPorts;
    const svc = new CatalogService(ports);
    let i = 0;
    const perCheck = () => {
      i = (i + 7) % GOODS;
      const pos = svc.pos();
      if (!svc.catalog(pos).byCode(`G${i}`)) throw new Error('lookup missed');
    };
    console.log(
      line(`catalogue per check, ${GOODS} goods`, summarize(sample(20_000, 2_000, perCheck))),
    );
    const afterWrite = summarize(
      sample(200, 20, () => {
        now += 1;
        put();
        perCheck();
      }),
    );
    console.log(line('  a POS write (validated put) + next check', afterWrite));
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
