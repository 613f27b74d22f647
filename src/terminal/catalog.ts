// The POS catalogue at the till (docs/terminal.md, "Goods"): read from the cached POS record
// through its schema (src/contract/catalog.ts), indexed by code and barcode, searched by
// `catalog-search` (code, barcode, or the words of a title, case and accents ignored), and
// the quick keys of the touch screen checked against it.
import {
  CatalogItem,
  type CatalogGood,
  type CatalogSearchOutput,
  type ScannedLine,
} from '../contract/catalog.js';
import type { ErrorResponse, HandlerInput } from '../contract/commands.js';
import { CheckItemEnterMode } from '../contract/enums.js';
import { catalogKey, type GoodsBarcode, parseGoodsBarcode } from '../devices/barcode.js';
import { refuse } from './command-map.js';
import type { TerminalPorts } from './ports.js';

type PosRecord = Record<string, unknown> & { id: string };

/** One POS's catalogue, indexed. */
export interface PosCatalog {
  posId: string | null;
  mode: CheckItemEnterMode;
  items: readonly CatalogItem[];
  byCode(code: string): CatalogItem | undefined;
  /** The good a barcode names: by its key (a GTIN as 14 digits, an in-store label's prefix). */
  byBarcode(barcode: GoodsBarcode): CatalogItem | undefined;
  /** Goods the schema refused (left out, logged). */
  skipped: number;
}

/** The catalogue of a POS record: every item its schema takes, the first of a code kept. */
export function catalogOf(pos: PosRecord | null): PosCatalog {
  const mode = CheckItemEnterMode.safeParse(pos?.check_item_enter_mode);
  const raw: unknown[] = Array.isArray(pos?.catalog) ? pos.catalog : [];
  const items: CatalogItem[] = [];
  const codes = new Map<string, CatalogItem>();
  const barcodes = new Map<string, CatalogItem>();
  let skipped = 0;
  for (const entry of raw) {
    const read = CatalogItem.safeParse(entry);
    if (!read.success || codes.has(read.data.code)) {
      skipped += 1;
      continue;
    }
    items.push(read.data);
    codes.set(read.data.code, read.data);
    for (const b of read.data.barcodes ?? []) {
      const key = catalogKey(b);
      if (!barcodes.has(key)) barcodes.set(key, read.data);
    }
  }
  return {
    posId: pos?.id ?? null,
    mode: mode.success ? mode.data : 'without-limits',
    items,
    byCode: (code) => codes.get(code),
    byBarcode: (b) => (b.key === null ? undefined : barcodes.get(b.key)),
    skipped,
  };
}

/** Text as search compares it: no accents, lower case, `ß` as `ss`. */
export function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('ß', 'ss');
}

/** Goods whose title holds every word of `query` (folded). */
function byWords(items: readonly CatalogItem[], query: string): CatalogItem[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  return items.filter((it) => {
    const title = folded(it.title ?? '');
    return words.every((w) => title.includes(w));
  });
}

/** Goods counted in pieces (engine.md 31): the catalogue's flag, or the unit `pc`. */
export function wholeNumber(item: CatalogItem): 0 | 1 {
  return item.whole_number === 1 || item.unit === 'pc' ? 1 : 0;
}

export function goodOf(item: CatalogItem): CatalogGood {
  return {
    code: item.code,
    ...(item.title !== undefined ? { title: item.title } : {}),
    ...(item.category !== undefined ? { category: item.category } : {}),
    ...(item.unit !== undefined ? { unit: item.unit } : {}),
    ...(item.price !== undefined ? { price: item.price } : {}),
    whole_number: wholeNumber(item),
    barcodes: item.barcodes ?? [],
  };
}

/**
 * What a label says of a line: a price (the package's; the line is one package at it, even
 * when the label also gives the weight), else a weight or a count as the quantity.
 */
export function labelFigures(b: GoodsBarcode): { quantity: number | null; price: number | null } {
  if (b.price !== null) return { quantity: 1, price: b.price };
  return { quantity: b.weight ?? b.count, price: null };
}

/** The line a barcode makes of its good. */
export function scannedLine(item: CatalogItem, b: GoodsBarcode): ScannedLine {
  const label = labelFigures(b);
  const quantity = label.quantity ?? 1;
  return {
    barcode: b.text,
    kind: b.kind,
    quantity,
    price: label.price ?? item.price ?? null,
    line: { code: item.code, quantity, barcode: b.text },
  };
}

type SearchInput = HandlerInput<'catalog-search'>;
type Found = Pick<CatalogSearchOutput, 'match' | 'scanned'> & { items: CatalogItem[] };

/** A barcode that names a good: it and its line; null when the catalogue lists no such code. */
function byBarcode(cat: PosCatalog, b: GoodsBarcode): Found | null {
  const item = cat.byBarcode(b);
  return item ? { match: 'barcode', items: [item], scanned: scannedLine(item, b) } : null;
}

/** `query`: its code (exact, then in any case), a barcode the catalogue lists, or words. */
function byQuery(cat: PosCatalog, query: string): Found {
  const lower = query.toLowerCase();
  const code = cat.byCode(query) ?? cat.items.find((it) => it.code.toLowerCase() === lower);
  if (code) return { match: 'code', items: [code] };
  const parsed = parseGoodsBarcode(query);
  const scanned = parsed.ok ? byBarcode(cat, parsed.value) : null;
  return scanned ?? { match: 'words', items: byWords(cat.items, query) };
}

/** The POS record read for a request, and its catalogue once asked for, at one version. */
interface PosMemo {
  version: string;
  asked: string | undefined;
  pos: PosRecord | null;
  catalog: PosCatalog | null;
}

export class CatalogService {
  private readonly p: TerminalPorts;
  private memo: PosMemo | null = null;

  constructor(p: TerminalPorts) {
    this.p = p;
  }

  /**
   * The POS record: the one named, else the till's first; null when the cache has none. Read
   * (and parsed, catalogue and all) once per version of the cache's POS rows (posVersion),
   * not once per check. The record is shared: callers read it, never change it.
   */
  pos(posId?: string): PosRecord | null {
    const cache = this.p.store.cache;
    const version = cache.posVersion();
    const m = this.memo;
    if (m && m.version === version && m.asked === posId) return m.pos;
    const id = posId ?? cache.all('pos')[0]?.id;
    const pos = id ? (cache.get('pos', id) as PosRecord | null) : null;
    this.memo = { version, asked: posId, pos, catalog: null };
    return pos;
  }

  /** The catalogue of a POS record: built once per record read by `pos`. */
  catalog(pos: PosRecord | null): PosCatalog {
    const m = this.memo;
    if (m && m.pos === pos) return (m.catalog ??= this.build(pos));
    return this.build(pos);
  }

  private build(pos: PosRecord | null): PosCatalog {
    const catalog = catalogOf(pos);
    if (catalog.skipped > 0)
      this.p.log.warn('catalogue goods left out', {
        pos_id: pos?.id ?? null,
        skipped: catalog.skipped,
      });
    return catalog;
  }

  /** Whether the till's POS catalogue lists a scanned barcode (the scanner's recognition). */
  lists(barcode: GoodsBarcode): boolean {
    return this.catalog(this.pos()).byBarcode(barcode) !== undefined;
  }

  search(input: SearchInput): CatalogSearchOutput | ErrorResponse {
    const pos = this.pos(input.pos_id);
    if (input.pos_id !== undefined && !pos)
      return refuse('unknown-pos', 'this till does not sell in that POS', 'pos_id');
    const cat = this.catalog(pos);
    const found = this.find(cat, input);
    if ('error' in found) return found;
    const category = input.category === undefined ? null : folded(input.category);
    const items = category
      ? found.items.filter((it) => folded(it.category ?? '') === category)
      : found.items;
    const limit = input.limit ?? 20;
    return {
      pos_id: cat.posId,
      check_item_enter_mode: cat.mode,
      match: found.match,
      goods: items.slice(0, limit).map(goodOf),
      more: items.length > limit,
      ...(found.scanned && items.length > 0 ? { scanned: found.scanned } : {}),
      ...(input.quick_keys ? { quick_keys: this.quickKeys(cat) } : {}),
    };
  }

  private find(cat: PosCatalog, input: SearchInput): Found | ErrorResponse {
    if (input.barcode !== undefined) {
      const parsed = parseGoodsBarcode(input.barcode);
      if (!parsed.ok) return refuse('invalid-input', parsed.message, 'barcode');
      return byBarcode(cat, parsed.value) ?? { match: 'barcode', items: [] };
    }
    if (input.query !== undefined) return byQuery(cat, input.query);
    return { match: 'all', items: [...cat.items] };
  }

  /**
   * The quick keys: the configured pages with the goods the catalogue lists (the others named
   * in `missing`), else one page per category in catalogue order. None where lines are typed
   * by hand only (`manually-only`).
   */
  quickKeys(cat: PosCatalog): NonNullable<CatalogSearchOutput['quick_keys']> {
    if (cat.mode === 'manually-only') return [];
    const pages = this.p.config.terminal.quick_keys;
    if (pages) {
      return pages.map((page) => {
        const listed = page.codes.map((c) => cat.byCode(c));
        return {
          category: page.category,
          goods: listed.filter((it) => it !== undefined).map(goodOf),
          missing: page.codes.filter((_, i) => listed[i] === undefined),
        };
      });
    }
    const byCategory = new Map<string, CatalogItem[]>();
    for (const it of cat.items) {
      const key = it.category ?? 'other';
      byCategory.set(key, [...(byCategory.get(key) ?? []), it]);
    }
    return [...byCategory].map(([category, items]) => ({
      category,
      goods: items.map(goodOf),
      missing: [],
    }));
  }
}
