// Recognition: a swipe or a scan becomes a customer identifier { id, id_type } by configurable
// patterns, first match wins. A bank card swiped on the loyalty reader is reported masked.
import { z } from 'zod';
import type { DeviceRead } from '../contract/commands.js';
import { RecognitionRule } from '../contract/config.js';
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

export const RecognitionConfigSchema = z.strictObject({
  /** Issuer ranges of bank cards (`4`, `51-55`); a Luhn-valid PAN in one is a bank card. */
  bank_ranges: z.array(z.string().regex(/^\d{1,8}(-\d{1,8})?$/)).default([...DEFAULT_BANK_RANGES]),
  /** What a loyalty stripe carries its code in: the track-2 PAN or its discretionary data. */
  msr_field: z.enum(['pan', 'discretionary']).default('pan'),
  rules: z.array(RecognitionRuleSchema).default(DEFAULT_RULES),
});
export type RecognitionConfig = z.infer<typeof RecognitionConfigSchema>;

/** What a read became: the contract's `device-read` event, so the screen gets it as it is. */
export type Recognition = DeviceRead;
export type ReadSource = Recognition['source'];

interface CompiledRule {
  rule: RecognitionRule;
  re: RegExp;
}

/** Compiles the rules once; `recognise*` runs per read on the hot path (< 5 ms budget). */
export class Recognizer {
  private readonly rules: CompiledRule[];
  private readonly config: RecognitionConfig;

  constructor(config: Partial<RecognitionConfig> = {}) {
    this.config = RecognitionConfigSchema.parse(config);
    this.rules = this.config.rules.map((rule) => ({ rule, re: new RegExp(rule.pattern, 'u') }));
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
    return this.match(scan.data, 'scanner', scan.symbology, scan);
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
