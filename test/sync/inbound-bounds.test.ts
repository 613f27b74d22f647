// Inbound records out of bounds (docs/contract.md, "Bounds"): the central service's record is
// quarantined and counted like any malformed record; the pull goes on, nothing crashes.
import { afterEach, describe, expect, it } from 'vitest';
import { stubEngine } from '../central/stub-engine.js';
import { startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

describe('inbound records out of bounds', () => {
  it('quarantines a rule worth 1e308 and a service code with a NUL, and applies the rest', async () => {
    world = await startWorld({ engine: stubEngine });
    await world.puller.pull();
    const rule = world.store.cache.all('rule')[0] as Record<string, unknown> & { id: string };
    world.central.store.upsert('rule', rule.id, {
      ...rule,
      value: { type: 'percentage', thresholds: [{ from: 0, value: 1e308 }] },
    });
    const service = { id: 'svc-1', code: 'WASH' };
    world.central.store.upsert('additional_service', 'svc-1', { ...service, code: 'WASH\u0000' });
    world.central.store.upsert('additional_service', 'svc-2', { ...service, id: 'svc-2' });
    world.central.store.upsert('coupon_batch', 'ok-1', { id: 'ok-1', code: 'OK1' });
    const r = await world.puller.pull();
    expect(r.ok && r.quarantined).toBe(2);
    expect(r.ok && r.applied).toBe(2);
    expect(world.store.cache.couponBatchByCode('OK1')?.id).toBe('ok-1');
    // The same record without the NUL is applied: the bound, not the shape, quarantined it.
    expect(world.store.cache.get('additional_service', 'svc-2')).not.toBeNull();
    expect(world.store.cache.get('additional_service', 'svc-1')).toBeNull();
    // The rule the till had stays as it was; the bad version never reaches the engine.
    expect(world.store.cache.get('rule', rule.id)).toEqual(rule);
  });
});
