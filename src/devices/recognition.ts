// Recognition: a swipe or a scan becomes a customer identifier { id, id_type } by configurable
// patterns, first match wins. A bank card swiped on the loyalty reader is reported masked.
// A scan is a good's barcode first when the POS catalogue lists it or a goods rule says so
// (docs/devices.md, "Goods barcodes"): a product's EAN is never looked up as a loyalty card.
import { z } from 'zod';
import type { DeviceRead } from '../contract/commands.js';
import { GoodsRule, RecognitionRule } from '../contract/config.js';
import { type GoodsBarcode, fromElements, parseGoodsBarcode, parseGtin } from './barcode.js';
import type { Decoded } from './bytes.js';
import { DEFAULT_BANK_RANGES, isBankCard, maskPan } from './mask.js';
import type { Swipe } from './msr.js';
import type { Scan } from './scanner.js';

/** The contract's rule (src/contract/config.ts), so the configuration and the reader agree. */
const RecognitionRuleSchema = RecognitionRule;
export type RecognitionRule = z.infer<typeof RecognitionRuleSchema>;

const DEFAULT_RULES: RecognitionRule[] = [
  { source: 'scanner', pattern: '^VEH:(?<id>[A-Za-z0-9-]{2,32})$', id_type: 'vehicle' },
  { source: 'any', pattern: '^AVI:(?<id>[A-Za-z0-9-]{2,64})$', id_type: 'avi' },
  { source: 'scanner', pattern: '^TEL:(?<id>\\+?\\d{7,15})$', id_type: 'phone' },
  { source: 'scanner', gs1_ai: '8004', pattern: '^(?<id>.+)$', id_type: 'external-id' },
  {
    source: 'scanner',
    symbologies: ['ean-13', 'ean-8', 'code-128', 'unknown'],
    pattern: '^(?<id>\\d{6,19})$',
    id_type: 'card',
  },
  {
    source: 'scanner',
    symbologies: ['qr', 'gs1-qr', 'datamatrix', 'gs1-datamatrix', 'unknown'],
    pattern: '^(?<id>[\\x21-\\x7e]{4,256})$',
    id_type: 'qr',
  },
  { source: 'msr', pattern: '^(?<id>\\d{6,19})$', id_type: 'card' },
];

/**
 * Scans that are goods whatever the catalogue says: any GS1 symbol with a GTIN (AI 01: a trade
 * item by definition, a composite's linear code included) and our in-store labels (EAN-13
 * prefixes 21 and 22, docs/devices.md), with or without an AIM identifier.
 */
const DEFAULT_GOODS_RULES: z.infer<typeof GoodsRule>[] = [
  { gs1_ai: '01', pattern: '^\\d{14}$' },
  { symbologies: ['ean-13', 'unknown'], pattern: '^2[12]\\d{11}$' },
];

export const RecognitionConfigSchema = z.strictObject({
  /** Issuer ranges of bank cards (`4`, `51-55`); a Luhn-valid PAN in one is a bank card. */
  bank_ranges: z.array(z.string().regex(/^\d{1,8}(-\d{1,8})?$/)).default([...DEFAULT_BANK_RANGES]),
  /** What a loyalty stripe carries its code in: the track-2 PAN or its discretionary data. */
  msr_field: z.enum(['pan', 'discretionary']).default('pan'),
  rules: z.array(RecognitionRuleSchema).default(DEFAULT_RULES),
  goods_rules: z.array(GoodsRule).default(DEFAULT_GOODS_RULES),
});
export type RecognitionConfig = z.infer<typeof RecognitionConfigSchema>;

/** What a read became: the contract's `device-read` event, so the screen gets it as it is. */
export type Recognition = DeviceRead;
export type ReadSource = Recognition['source'];

interface CompiledRule {
  rule: RecognitionRule;
  re: RegExp;
}

interface CompiledGoodsRule {
  rule: z.infer<typeof GoodsRule>;
  re: RegExp;
}

/** Whether the POS catalogue lists a barcode (its `key`, barcode.ts); the terminal's to answer. */
export type CatalogLookup = (barcode: GoodsBarcode) => boolean;

/** What a scan says of a good: null when it is not shaped like one (a QR's text, ...). */
export function goodsBarcodeOfScan(scan: Scan): Decoded<GoodsBarcode> | null {
  if (scan.gs1) return scan.gs1.length > 0 ? fromElements(scan.gs1) : null;
  if (scan.symbology === 'ean-13' || scan.symbology === 'ean-8') return parseGtin(scan.data);
  if (!PLAIN_CODES.has(scan.symbology)) return null;
  return parseGoodsBarcode(scan.data);
}

/** Symbologies whose data may be a good's code as the catalogue lists it. */
const PLAIN_CODES: ReadonlySet<Scan['symbology']> = new Set(['unknown', 'code-128', 'code-39']);

/** Compiles the rules once; `recognise*` runs per read on the hot path (< 5 ms budget). */
export class Recognizer {
  private readonly rules: CompiledRule[];
  private readonly goodsRules: CompiledGoodsRule[];
  private readonly config: RecognitionConfig;
  private catalog: CatalogLookup | null = null;

  constructor(config: Partial<RecognitionConfig> = {}, catalog?: CatalogLookup) {
    this.config = RecognitionConfigSchema.parse(config);
    this.rules = this.config.rules.map((rule) => ({ rule, re: new RegExp(rule.pattern, 'u') }));
    this.goodsRules = this.config.goods_rules.map((rule) => ({
      rule,
      re: new RegExp(rule.pattern, 'u'),
    }));
    this.catalog = catalog ?? null;
  }

  /** The catalogue a scan is looked up in (the terminal sets it once its store is open). */
  useCatalog(catalog: CatalogLookup | null): void {
    this.catalog = catalog;
  }

  recogniseSwipe(swipe: Swipe): Recognition {
    const pan = swipe.track2?.pan ?? swipe.track1?.pan ?? null;
    if (pan === null) {
      return {
        kind: 'unrecognised',
        source: 'msr',
        reason: swipe.errors[0] ?? 'no readable track',
      };
    }
    if (isBankCard(pan, this.config.bank_ranges)) {
      return { kind: 'bank-card', masked: maskPan(pan), source: 'msr' };
    }
    const candidate =
      this.config.msr_field === 'discretionary' ? (swipe.track2?.discretionary ?? '') : pan;
    return this.match(candidate, 'msr', null, null);
  }

  recogniseScan(scan: Scan): Recognition {
    return this.goods(scan) ?? this.match(scan.data, 'scanner', scan.symbology, scan);
  }

  /**
   * A good's barcode: one the catalogue lists, or one a goods rule matches. A scan a goods
   * rule claims whose check digit fails is a misread (scan again), never a loyalty card.
   */
  private goods(scan: Scan): Recognition | null {
    const parsed = goodsBarcodeOfScan(scan);
    if (parsed?.ok && parsed.value.key !== null && this.listed(parsed.value))
      return { kind: 'goods', barcode: parsed.value.text, source: 'scanner' };
    if (!this.goodsRules.some((r) => ruleMatches(r.rule, r.re, scan))) return null;
    if (parsed === null) return { kind: 'goods', barcode: scan.data, source: 'scanner' };
    if (!parsed.ok) return { kind: 'unrecognised', source: 'scanner', reason: parsed.message };
    return { kind: 'goods', barcode: parsed.value.text, source: 'scanner' };
  }

  /** The catalogue's answer; a failing lookup counts as not listed (the rules still apply). */
  private listed(barcode: GoodsBarcode): boolean {
    try {
      return this.catalog?.(barcode) ?? false;
    } catch {
      return false;
    }
  }

  private match(
    candidate: string,
    source: ReadSource,
    symbology: string | null,
    scan: Scan | null,
  ): Recognition {
    for (const { rule, re } of this.rules) {
      if (rule.source !== 'any' && rule.source !== source) continue;
      if (rule.symbologies && symbology !== null && !rule.symbologies.includes(symbology)) continue;
      let text = candidate;
      if (rule.gs1_ai !== undefined) {
        const el = scan?.gs1?.find((e) => e.ai === rule.gs1_ai);
        if (!el) continue;
        text = el.value;
      }
      const m = re.exec(text);
      if (!m) continue;
      const id = m.groups?.['id'] ?? m[0];
      if (id.length === 0) continue;
      return { kind: 'identifier', id, id_type: rule.id_type, source };
    }
    return { kind: 'unrecognised', source, reason: 'no recognition rule matches' };
  }
}

/** A goods rule over a scan: its symbologies, its GS1 AI's value (or the data), its pattern. */
function ruleMatches(rule: z.infer<typeof GoodsRule>, re: RegExp, scan: Scan): boolean {
  if (rule.symbologies && !rule.symbologies.includes(scan.symbology)) return false;
  let text = scan.data;
  if (rule.gs1_ai !== undefined) {
    const el = scan.gs1?.find((e) => e.ai === rule.gs1_ai);
    if (!el) return false;
    text = el.value;
  }
  return re.test(text);
}
