// The POS catalogue (ours): the goods a till sells, carried by the POS record as `catalog`
// (src/central/seed.ts) and read from the cache through `CatalogItem`, never cast. A line
// takes its title, unit, category, price and `whole_number` from it (docs/terminal.md,
// "Goods"); `catalog-search` answers it as `CatalogGood`s.
import { z } from 'zod';
import { CheckItemEnterMode } from './enums.js';
import { code, flag, money, quantity, shortText, title } from './wire.js';

/**
 * A barcode a good is sold by: a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14 digits), the first seven
 * digits of our in-store labels (`21` weight, `22` price, then the item number; docs/devices.md),
 * or any other code the store prints on it.
 */
export const CatalogBarcode = code;

/** One good of the POS catalogue, as the central service sends it (unknown keys dropped). */
export const CatalogItem = z.object({
  code,
  title: title.optional(),
  category: shortText.optional(),
  unit: shortText.optional(),
  /** The price per unit; a good without one is priced at the till (a manual line). */
  price: money.min(0, { error: 'must be >= 0' }).optional(),
  /** 1: sold in whole pieces only (so is a good in the unit `pc`, engine.md 31). */
  whole_number: flag.optional(),
  barcodes: z.array(CatalogBarcode).max(100).optional(),
});
export type CatalogItem = z.infer<typeof CatalogItem>;

/** A good as `catalog-search` answers it. */
export const CatalogGood = z.strictObject({
  code,
  title: title.optional(),
  category: shortText.optional(),
  unit: shortText.optional(),
  price: money.optional(),
  /** 1 when only whole quantities sell: the catalogue's flag, or the unit `pc`. */
  whole_number: flag,
  barcodes: z.array(CatalogBarcode),
});
export type CatalogGood = z.infer<typeof CatalogGood>;

/**
 * What a scanned code puts on a check: the line to add as it is (`check_items`), and what the
 * barcode carried. A weight label or AI (310n) gives the quantity, a price label or AI (392n)
 * the package's price, AI (30) a count; a plain product barcode one piece at the catalogue's
 * price.
 */
export const ScannedLine = z.strictObject({
  /** The code as the line carries it: digits, or GS1 in brackets. */
  barcode: z.string().min(1),
  kind: z.enum(['gtin', 'in-store-weight', 'in-store-price', 'gs1', 'code']),
  quantity,
  /** The price the line sells at: the label's, else the catalogue's (null: none). */
  price: money.nullable(),
  line: z.strictObject({ code, quantity, barcode: z.string().min(1) }),
});
export type ScannedLine = z.infer<typeof ScannedLine>;

/** A page of the quick keys, checked against the catalogue: codes it does not list are out. */
export const QuickKeys = z.strictObject({
  category: z.string(),
  goods: z.array(CatalogGood),
  /** Configured codes the catalogue does not list (left out of `goods`). */
  missing: z.array(z.string()),
});

export const CatalogSearchOutput = z.strictObject({
  /** The POS whose catalogue answered; null when the till knows no POS yet. */
  pos_id: z.uuid().nullable(),
  /** How lines may be entered at this POS (`manual_reason` needs a mode that allows them). */
  check_item_enter_mode: CheckItemEnterMode,
  /** How the goods were found: by code, by barcode, by the words of their titles, or all. */
  match: z.enum(['code', 'barcode', 'words', 'all']),
  goods: z.array(CatalogGood),
  /** More goods matched than `limit`. */
  more: z.boolean(),
  /** A barcode that found its good: the line it makes. */
  scanned: ScannedLine.optional(),
  /** The quick keys, when asked (`quick_keys: true`). */
  quick_keys: z.array(QuickKeys).optional(),
});
export type CatalogSearchOutput = z.infer<typeof CatalogSearchOutput>;
