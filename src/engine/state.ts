// The working state of one calculation: the lines as rules see and change them, and what
// the check collects on the way (rule reports, warnings, bonuses, charges, coupons).
// Created per call and never shared, so `calculate` stays a pure function of its input.
import type { CustomerAccessType, RuleNotAppliedReason } from '../contract/enums.js';
import type {
  EngineBonusAdded,
  EngineCheck,
  EngineEmittedCoupon,
  EngineCheckItem,
  EngineContext,
  EngineSpecialAccountCharge,
  EngineWarning,
} from '../contract/engine.js';
import type { LocalDateTime } from '../contract/local-time.js';
import { type Dec, ZERO, eq, fromMinor, round } from '../money/index.js';
import type { CompiledRule, LineScratch, PreparedRules } from './rule-index.js';
import type { Act } from './thresholds.js';
import type { LineTemplate } from './totals.js';

export interface Digits {
  readonly amount: number;
  readonly bonuses: number;
  readonly special: number;
}

/** What a line starts from (buildLine in calculate.ts). */
export interface LineInit {
  readonly index: number;
  readonly item: EngineCheckItem;
  /** The quantity rules see (the request's, or the processed one of a completion). */
  readonly quantity: Dec;
  /** The line amount rules start from, at money digits. */
  readonly amount: Dec;
  readonly moneyDigits: number;
  readonly priceDigits: number;
  readonly quantityDigits: number;
}

/** The range of a BigInt64Array slot. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * A line as the rules see and change it. Its current amount lives as integer minor units at
 * money digits (`currentUnits`), which the discount group's inner loop lowers without
 * building a decimal per step; the discount is what the current amount lost since the
 * gross amount (`grossUnits`: the line amount, or the recalculated one of a fuel prepay).
 * `current` and `discount` are the same values as decimals for everything else.
 *
 * The current units are kept in a slot of a per-check `BigInt64Array` (CalcState.current,
 * indexed by line) while they fit in 64 bits, `wide` (null then) holding them otherwise: a
 * bigint stored in an object field is a new heap BigInt at every store, a typed-array slot is
 * not. The hot loops read and write the slot directly when `wide` is null.
 */
export class LineState {
  readonly index: number;
  readonly item: EngineCheckItem;
  readonly code: string;
  readonly category: string | undefined;
  /** The quantity rules see (the request's, or the processed one of a completion). */
  readonly quantity: Dec;
  /** quantity > 0: the line has a unit for every rule. */
  readonly hasQuantity: boolean;
  /** The line amount rules start from (money digits). */
  readonly amount: Dec;
  readonly moneyDigits: number;
  readonly priceDigits: number;
  readonly quantityDigits: number;
  /** The check's current units, one slot per line: this line's is `slots[index]`. */
  readonly slots: BigInt64Array;
  /** The current units when outside 64 bits (the slot then unused), else null. */
  wide: bigint | null = null;
  /** current + discount, in minor units at money digits. */
  private grossUnits: bigint;
  /** Percent of `current` bonuses may pay (null: the loyalty default). */
  limitPercent: Dec | null = null;
  /** Money paid with bonuses on this line. */
  redeemed: Dec = ZERO;
  /** Bonuses (regular and promotional) credited for this line. */
  bonusesAdded: Dec = ZERO;
  /** A rule that touched the line counts quantity 0 as one unit. */
  zeroAsOne = false;
  /** Fuel prepay (engine.md 12): the final quantity and amount, when recalculated. */
  recalculated: { quantity: Dec; amount: Dec; discount: Dec } | null = null;
  /** Set on recalculate-by-amount lines: true when no recalculation was possible. */
  recalculateSkipped: boolean | null = null;

  /** `slots`: the check's (CalcState.current); a line of its own gets one. */
  constructor(init: LineInit, slots: BigInt64Array = new BigInt64Array(init.index + 1)) {
    this.index = init.index;
    this.item = init.item;
    this.code = init.item.code;
    this.category = init.item.category;
    this.quantity = init.quantity;
    this.hasQuantity = init.quantity.units > 0n;
    this.amount = init.amount;
    this.moneyDigits = init.moneyDigits;
    this.priceDigits = init.priceDigits;
    this.quantityDigits = init.quantityDigits;
    this.slots = slots;
    this.grossUnits = unitsAt(init.amount, init.moneyDigits);
    this.currentUnits = this.grossUnits;
  }

  /** amount - discount, in minor units at money digits. */
  get currentUnits(): bigint {
    return this.wide ?? this.slots[this.index]!;
  }

  set currentUnits(units: bigint) {
    if (units >= INT64_MIN && units <= INT64_MAX) {
      this.slots[this.index] = units;
      this.wide = null;
    } else this.wide = units;
  }

  /**
   * The quantity sold: the recalculated one of a fuel prepay, else `quantity`. Per-unit
   * effects of the groups after the recalculation count it (engine.md 17.6).
   */
  get sold(): Dec {
    return this.recalculated?.quantity ?? this.quantity;
  }

  /** The gross units (current + discount). */
  get gross(): bigint {
    return this.grossUnits;
  }

  /** amount - discount: what later rules act on. */
  get current(): Dec {
    return fromMinor(this.currentUnits, this.moneyDigits);
  }

  /** Sum of the discounts applied so far. */
  get discount(): Dec {
    return fromMinor(this.grossUnits - this.currentUnits, this.moneyDigits);
  }

  /** A new gross amount and discount (a fuel prepay's recalculation). */
  rewrite(amount: Dec, discount: Dec): void {
    this.grossUnits = unitsAt(amount, this.moneyDigits);
    this.currentUnits = this.grossUnits - unitsAt(discount, this.moneyDigits);
  }
}

/** The minor units of a value at `digits`; every line value is exact there (rounded to it). */
function unitsAt(value: Dec, digits: number): bigint {
  const r = round(value, digits);
  if (!eq(r, value)) throw new RangeError(`a line value with more than ${digits} digits`);
  return r.units;
}

/** Slots of CalcState.acc: each loop that uses one sets it first and reads it before returning. */
export const ACC_SLOTS = 4;

/** Who the check is for: a customer's access type, or anonymous. */
export type Access = CustomerAccessType | 'anonymous';

export interface RuleReport {
  readonly compiled: CompiledRule;
  readonly applied: boolean;
  readonly reason?: RuleNotAppliedReason;
  readonly amount?: Dec;
  readonly lines?: readonly number[];
  readonly missing?: Dec | null;
}

/** One part of a redemption: a promotional lot or the regular balance. */
export interface SpentPart {
  readonly source: 'promotional' | 'regular';
  readonly id?: string;
  readonly expire?: string | null;
  readonly amount: Dec;
}

export interface CalcState {
  readonly ctx: EngineContext;
  readonly check: EngineCheck;
  readonly prepared: PreparedRules;
  readonly mode: 'calc' | 'process';
  readonly digits: Digits;
  readonly lines: LineState[];
  readonly access: Access;
  readonly identified: boolean;
  readonly corporate: boolean;
  readonly loyaltyId: string | undefined;
  readonly posId: string | undefined;
  readonly currency: string | undefined;
  readonly manualIds: ReadonlySet<string>;
  readonly isNew: boolean;
  /** "Pays with bonuses": the request's bonuses_redeemed_amount > 0 (engine.md 16). */
  readonly paysWithBonuses: boolean;
  readonly paysFromAccount: boolean;
  readonly bonusRate: Dec;
  /** `now` in the local zone, computed on first use. */
  readonly local: () => LocalDateTime;
  /** Batch codes of valid check-modifier coupons presented with the check. */
  readonly modifierBatches: ReadonlySet<string>;
  /** Batch codes whose coupon rules applied. */
  readonly appliedBatches: Set<string>;
  readonly reports: RuleReport[];
  readonly warnings: EngineWarning[];
  readonly bonusesAdded: EngineBonusAdded[];
  readonly charges: EngineSpecialAccountCharge[];
  readonly emitted: EngineEmittedCoupon[];
  /** Granted redemption, in bonuses, its money value, and the lots it came from. */
  redeemedBonuses: Dec;
  redeemedMoney: Dec;
  spent: SpentPart[];
  /** The shell answer lines are copied from, set by the first (totals.ts). */
  lineTemplate: LineTemplate | null;
  /** 0 .. lines - 1: the matching lines of every rule that takes every line and excludes none. */
  readonly allLines: readonly number[];
  /**
   * Scratch accumulators of this calculation's 64-bit loops (see sum64). A bigint carried
   * from one iteration to the next in a local is allocated on the heap at every step; held
   * in a BigInt64Array slot and wrapped in BigInt.asIntN(64, ...) it stays a machine integer.
   */
  readonly acc: BigInt64Array;
  /** The lines' current units while within 64 bits (LineState.slots). */
  readonly current: BigInt64Array;
  /** What evaluate answers when a rule acts, refilled each time (thresholds.ts). */
  readonly act: Act;
  /** Scratch of the fixed-amount discount, made on first use (discounts.ts). */
  allocation: { readonly weights: BigInt64Array; readonly work: BigInt64Array } | null;
  /** The rule set's per-line arrays for this check (matching.ts lineScratch), if it has them. */
  readonly scratch: LineScratch | null;
}
