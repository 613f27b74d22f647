// The till's local date: the POS a check is sold in (its own, else the cache's first, as
// scopeOf does for the engine), in that POS's zone by the one order of
// src/contract/local-time.ts (the POS's zone, else the business's, else UTC).
import { localDate, zoneOf } from '../contract/local-time.js';
import type { Cache } from '../store/cache.js';

/** The zone of the POS `posId` names, else of the cache's first POS. */
export function posZone(cache: Cache, posId?: string | null): string {
  const id = posId ?? cache.all('pos')[0]?.id;
  return zoneOf(id ? cache.get('pos', id) : null, cache.all('business_settings')[0]);
}

/** Today at that POS: the local date an operation made now is booked on. */
export function posToday(cache: Cache, nowMs: number, posId?: string | null): string {
  return localDate(nowMs, posZone(cache, posId));
}
