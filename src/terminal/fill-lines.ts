// A pump's fill sold as a line (docs/forecourt.md, "Selling a fill"). The caller names the
// fill (`check.fills`); its goods, litres, price and amount are the pump's, kept when the pump
// finished it (src/store/pump-fills.ts), never the caller's: a fill is always sold at the
// price the pump used, even when the catalogue's price changed while it ran. A postpay fill
// is a line of a sale beside shop goods; a prepaid fill is its prepay's completion, whose
// dispensed litres and amount it reports.
import type { ErrorResponse, HandlerInput } from '../contract/commands.js';
import type { EngineCheckItem } from '../contract/engine.js';
import type { CatalogItem } from '../contract/catalog.js';
import { dec, toNumber } from '../money/index.js';
import type { PumpFill, PumpFills } from '../store/pump-fills.js';
import { refuse } from './command-map.js';

/** The digits a decimal text was written with (`11.37` -> 2). */
const digitsOf = (text: string): number => text.split('.')[1]?.length ?? 0;

const at = (i: number) => `check.fills[${i}]`;

/** A fill resolved already, sold or driven off: refused at `path`, naming the sale. */
export function fillNotUnpaid(f: PumpFill, path: string): ErrorResponse {
  return refuse(
    'fill-not-unpaid',
    f.state === 'sold'
      ? `this fill of pump ${f.pump} was sold already`
      : `this fill of pump ${f.pump} was recorded as a drive-off already`,
    path,
    { state: f.state, transaction_id: f.transactionId },
  );
}

/** The unpaid fills named, in order, or the first one that cannot be sold here. */
export function unpaidFills(
  ids: readonly string[],
  store: PumpFills,
  completion: boolean,
): { fills: PumpFill[] } | { error: ErrorResponse } {
  const fills: PumpFill[] = [];
  for (const [i, id] of ids.entries()) {
    if (ids.indexOf(id) !== i)
      return { error: refuse('invalid-input', 'this fill is named twice', at(i)) };
    const f = store.get(id);
    if (!f) return { error: refuse('fill-not-found', 'no fill of a pump has this id', at(i)) };
    if (f.state !== 'unpaid') return { error: fillNotUnpaid(f, at(i)) };
    if (!completion && f.authorisationId !== null)
      return {
        error: refuse(
          'fill-prepaid',
          `this fill of pump ${f.pump} was prepaid: complete its prepay instead`,
          at(i),
          { authorisation_id: f.authorisationId },
        ),
      };
    fills.push(f);
  }
  return { fills };
}

/** A postpay fill's line: the pump's litres, unit price and amount, the catalogue's names. */
export function fillLine(f: PumpFill, item: CatalogItem | undefined): EngineCheckItem {
  return {
    code: f.grade,
    ...(item?.title !== undefined ? { title: item.title } : {}),
    ...(item?.category !== undefined ? { category: item.category } : {}),
    ...(item?.unit !== undefined ? { unit: item.unit } : {}),
    quantity: toNumber(dec(f.volume)),
    quantity_decimal_digits: digitsOf(f.volume),
    price: toNumber(dec(f.unitPrice)),
    price_decimal_digits: digitsOf(f.unitPrice),
    // engine.md 1: a line's amount, when given, is authoritative (what the pump charged)
    amount: toNumber(dec(f.amount)),
  } as EngineCheckItem;
}

/**
 * A prepay's completion from its fill: the authorised line, with what the pump dispensed as
 * its processed litres and amount. The fill must be this prepay's, and be its only line.
 */
export function completionFromFill(
  fills: readonly PumpFill[],
  sentLines: number,
  authorisationId: string,
  authorised: EngineCheckItem | undefined,
): { items: EngineCheckItem[] } | { error: ErrorResponse } | null {
  if (fills.length === 0) return null;
  if (sentLines > 0)
    return {
      error: refuse(
        'invalid-input',
        'a prepay completed from its fill has the fill as its line: send the fill only',
        'check.check_items',
      ),
    };
  if (fills.length > 1)
    return { error: refuse('invalid-input', 'a prepay is completed by one fill', at(1)) };
  const f = fills[0]!;
  if (f.authorisationId !== authorisationId || !authorised)
    return {
      error: refuse(
        'fill-not-this-prepay',
        `this fill of pump ${f.pump} is not the one this prepay paid for`,
        at(0),
        { authorisation_id: f.authorisationId },
      ),
    };
  return {
    items: [
      {
        ...authorisedLine(authorised),
        processed_quantity: toNumber(dec(f.volume)),
        processed_amount: toNumber(dec(f.amount)),
      },
    ],
  };
}

type SentLine = NonNullable<HandlerInput<'sale-process'>['check']['check_items']>[number];

/** A prepay as the forecourt knows it: the pump it reached, and the fills drawn on it. */
export interface PrepayAtPump {
  readonly id: string;
  /** The last pump this till authorised it on, or null: it never reached a pump. */
  readonly pump: number | null;
  readonly drawn: readonly PumpFill[];
}

/**
 * What a prepay's completion books as dispensed. Once this till authorised the prepay on a
 * pump, that is the pump's: the fill it drew (named in `check.fills`), or nothing when the
 * pump's release ran out with no fill; figures sent are refused by name. A prepay that never
 * reached a pump of this till (a till without pump control: the cashier types the litres the
 * pump shows) is completed from the lines sent: null.
 */
export function completionDispensed(
  fills: readonly PumpFill[],
  sent: readonly SentLine[] | undefined,
  prepay: PrepayAtPump,
  authorised: EngineCheckItem | undefined,
): { items: EngineCheckItem[] } | { error: ErrorResponse } | null {
  if (fills.length > 0) return completionFromFill(fills, sent?.length ?? 0, prepay.id, authorised);
  const drawn = prepay.drawn[0];
  const pump = drawn?.pump ?? prepay.pump;
  if (pump === null || !authorised) return null;
  const figures = pumpsFigures(sent ?? [], pump, drawn !== undefined);
  if (figures) return { error: figures };
  if (drawn)
    return {
      error: refuse(
        'prepay-fill-required',
        `pump ${pump} drew this prepay's fuel: name its fill in check.fills`,
        'check.fills',
        { pump, fill_id: drawn.id },
      ),
    };
  if ((sent ?? []).length > 0)
    return {
      error: refuse(
        'dispensed-by-pump',
        `pump ${pump} dispensed nothing for this prepay (its release ran out): send no lines`,
        'check.check_items',
        { pump },
      ),
    };
  return { items: [{ ...authorisedLine(authorised), processed_quantity: 0, processed_amount: 0 }] };
}

/** A dispensed figure the caller sent for a prepay a pump ran, refused at its field. */
function pumpsFigures(
  sent: readonly SentLine[],
  pump: number,
  drew: boolean,
): ErrorResponse | null {
  for (const [i, line] of sent.entries())
    for (const key of ['processed_quantity', 'processed_amount'] as const) {
      if (line[key] === undefined) continue;
      return refuse(
        'dispensed-by-pump',
        drew
          ? `what pump ${pump} dispensed is the pump's: name its fill in check.fills`
          : `pump ${pump} dispensed nothing for this prepay (its release ran out): send no figures`,
        `check.check_items[${i}].${key}`,
        { pump },
      );
    }
  return null;
}

/**
 * The authorised line's goods and litres, as a completion books against them; its category
 * too, which the rules look at (the fleet's cents off a litre of fuel: without it a completion
 * lost the discount its prepay was sold with, and a capped prepay went over its limit).
 */
function authorisedLine(a: EngineCheckItem): EngineCheckItem {
  return {
    code: a.code,
    quantity: a.quantity,
    ...(a.category !== undefined ? { category: a.category } : {}),
    ...(a.title !== undefined ? { title: a.title } : {}),
    ...(a.unit !== undefined ? { unit: a.unit } : {}),
    ...(a.quantity_decimal_digits !== undefined
      ? { quantity_decimal_digits: a.quantity_decimal_digits }
      : {}),
  };
}

/**
 * The fills being sold or resolved right now, shared by the sale pipeline and the forecourt:
 * a fill is taken by one of them at a time (claimed before a card is charged), so a second
 * sale or a drive-off of it is refused as a value, never found out by a rolled-back record.
 * `sold` is told what a recorded sale sold (the forecourt then clears its pump).
 */
export class FillDesk {
  private readonly taken = new Set<string>();
  private afterSale: (fills: readonly PumpFill[]) => void = () => {};
  /** Whether a pump may still deliver on its release (the forecourt's answer; none: yes). */
  private delivering: (pump: number) => boolean = () => true;

  claim(fills: readonly PumpFill[]): { release: () => void } | { error: ErrorResponse } {
    const busy = fills.findIndex((f) => this.taken.has(f.id));
    if (busy >= 0)
      return {
        error: refuse(
          'fill-being-sold',
          `this fill of pump ${fills[busy]!.pump} is being sold right now`,
          at(busy),
        ),
      };
    for (const f of fills) this.taken.add(f.id);
    return { release: () => fills.forEach((f) => this.taken.delete(f.id)) };
  }

  taking(id: string): boolean {
    return this.taken.has(id);
  }

  /** The forecourt tells whether a pump may still deliver on the release it holds. */
  onAsked(fn: (pump: number) => boolean): void {
    this.delivering = fn;
  }

  mayDeliver(pump: number): boolean {
    return this.delivering(pump);
  }

  onSold(fn: (fills: readonly PumpFill[]) => void): void {
    this.afterSale = fn;
  }

  sold(fills: readonly PumpFill[]): void {
    this.afterSale(fills);
  }
}
