// Rules whose schedule the central service writes in RFC 3339, as the data contract declares
// (`time_from: "10:00:00Z"`, date-times for the bounds): pulled, kept (not quarantined), and
// applied at the right local moments. The demo POS is in Europe/Berlin (UTC+1 in November).
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { ConfigSchema } from '../../src/contract/config.js';
import { manualClock } from '../support/clock.js';
import { computeSale } from '../../src/terminal/sale-service.js';
import { startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const clock = manualClock(Date.parse('2026-11-24T08:00:00Z'));
const setNow = (iso: string) => clock.jumpWall(Date.parse(iso) - clock.now());

function scheduledRule(id: string, category: string, schedule: Record<string, string>) {
  return {
    id,
    loyalty_id: DEMO.loyaltyId,
    title: `10% off ${category} on schedule`,
    active: 1,
    automatic: 1,
    scope: 'retail',
    combine: 1,
    priority: 0,
    scheduled: 1,
    action_type: 'discount',
    included_item_categories: [category],
    value: { type: 'percentage', thresholds: [{ from: 0, value: 10 }] },
    ...schedule,
  };
}

/** Whether the rule discounted a 10.00 line of its category at the clock's now. */
function applies(w: World, ruleId: string, category: string): boolean {
  const r = computeSale(
    { store: w.store, config: ConfigSchema.parse({}), terminalId: DEMO.terminalId },
    { check_items: [{ code: 'SCH-1', category, quantity: 1, price: 10 }] },
    undefined,
    'calc',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const rules = r.local.processed.implemented_rules ?? [];
  return rules.some((x) => x.id === ruleId && x.implementation_data?.applied !== false);
}

async function pullRules(rules: ReturnType<typeof scheduledRule>[]): Promise<World> {
  const w = await startWorld({ clock });
  world = w;
  expect((await w.puller.pull()).ok).toBe(true);
  for (const r of rules) w.central.store.upsert('rule', r.id, r);
  const pulled = await w.puller.pull();
  expect(pulled).toMatchObject({ ok: true, quarantined: 0, applied: rules.length });
  expect(w.store.sync.quarantineCount()).toBe(0);
  expect(w.store.rules.rejected()).toEqual([]);
  return w;
}

describe('a pulled rule with an RFC 3339 schedule', () => {
  it('reads a time of day with an offset at that offset: 10:00:00Z-12:00:00Z is 11:00-13:00 in Berlin', async () => {
    const w = await pullRules([
      scheduledRule('rule-utc', 'sched-utc', { time_from: '10:00:00Z', time_to: '12:00:00Z' }),
    ]);
    const at = (iso: string) => (setNow(iso), applies(w, 'rule-utc', 'sched-utc'));
    expect(at('2026-11-24T09:30:00Z')).toBe(false); // 10:30 in Berlin: not yet
    expect(at('2026-11-24T10:00:00Z')).toBe(true);
    expect(at('2026-11-24T11:59:59Z')).toBe(true);
    expect(at('2026-11-24T12:00:00Z')).toBe(false);
  });

  it('takes the time and offset of a date-time, and date-time bounds as instants', async () => {
    const w = await pullRules([
      scheduledRule('rule-dt', 'sched-dt', {
        valid_after: '2026-11-24T18:00:00+01:00',
        valid_before: '2026-11-26T00:00:00Z',
        // 17:00-23:00 at +01:00; the dates of the date-times are not the rule's.
        time_from: '2020-01-01T17:00:00+01:00',
        time_to: '2020-01-01T23:00:00+01:00',
      }),
    ]);
    const at = (iso: string) => (setNow(iso), applies(w, 'rule-dt', 'sched-dt'));
    expect(at('2026-11-24T16:30:00Z')).toBe(false); // 17:30, before valid_after
    expect(at('2026-11-24T17:00:00Z')).toBe(true); // 18:00 local: valid from this instant
    expect(at('2026-11-24T22:30:00Z')).toBe(false); // 23:30: after the window
    expect(at('2026-11-25T21:59:00Z')).toBe(true); // 22:59 on the 25th
    expect(at('2026-11-26T16:30:00Z')).toBe(false); // 17:30 on the 26th: past valid_before
  });

  it('still reads local times and dates as local', async () => {
    const w = await pullRules([
      scheduledRule('rule-local', 'sched-local', {
        valid_after: '2026-11-24',
        valid_before: '2026-11-24',
        time_from: '10:00',
        time_to: '12:00:00',
      }),
    ]);
    const at = (iso: string) => (setNow(iso), applies(w, 'rule-local', 'sched-local'));
    expect(at('2026-11-24T09:30:00Z')).toBe(true); // 10:30 in Berlin
    expect(at('2026-11-24T11:00:00Z')).toBe(false); // 12:00 in Berlin
    expect(at('2026-11-25T09:30:00Z')).toBe(false); // the next day
  });

  it('quarantines a schedule in none of the forms, naming the field', async () => {
    const w = await startWorld({ clock });
    world = w;
    expect((await w.puller.pull()).ok).toBe(true);
    const bad = scheduledRule('rule-bad', 'sched-bad', { time_from: '10h00' });
    w.central.store.upsert('rule', bad.id, bad);
    expect(await w.puller.pull()).toMatchObject({ ok: true, quarantined: 1 });
    expect(JSON.stringify(w.store.sync.quarantined()[0]?.error)).toContain('time_from');
  });
});
