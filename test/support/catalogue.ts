// The station changes a price: a good's price in the sandbox central's POS catalogue, as the
// central service would publish it (the till sees it at its next pull).
import { DEMO } from '../../src/central/index.js';
import type { RunningCentral } from '../../src/central/index.js';

export function setCataloguePrice(central: RunningCentral, code: string, price: number): void {
  type Pos = Record<string, unknown> & { catalog: Array<Record<string, unknown>> };
  const pos = central.store.getRecord('pos', DEMO.posId) as Pos;
  central.store.upsert('pos', DEMO.posId, {
    ...pos,
    catalog: pos.catalog.map((g) => (g.code === code ? { ...g, price } : g)),
  });
}

/** Sets how the demo POS takes lines (`check_item_enter_mode`: the station decided so). */
export function setEnterMode(central: RunningCentral, mode: string): void {
  const pos = central.store.getRecord('pos', DEMO.posId) as Record<string, unknown>;
  central.store.upsert('pos', DEMO.posId, { ...pos, check_item_enter_mode: mode });
}
