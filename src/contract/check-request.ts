// The check a cashier's screen or an integrator sends to `check-calc` and `sale-process`: the
// contract's wire Check cut down to what the caller may decide. Everything else the wire
// Check carries (fields the contract marks readonly or response-only, figures the engine
// calculates, and what only the terminal decides: who sells, online or offline, whether a
// PIN was verified, ...) is refused with 400 naming the field, never passed on.
//
// The shape is derived from the wire schemas with an explicit allow-list: a field the
// contract gains later is refused here until someone decides the caller may set it.
import { z } from 'zod';
import { TransactionType } from './enums.js';
import { checkItems } from './check.js';
import { strictShared } from './shared.js';
import { BOUNDS, freeFormBounds } from './wire.js';

/** Why a field is refused when a caller sends it (the default). */
export const SET_BY_TERMINAL = 'set by the terminal, not by the caller';

export type RefusedField = z.ZodOptional<z.ZodNever>;

/**
 * A field the caller may not send: present with any value, it is refused with `why`. Its
 * description (`Refused: why.`) is how documents and tests tell it from the others.
 */
export function refusedField(why: string = SET_BY_TERMINAL): RefusedField {
  return z
    .never({ error: why })
    .optional()
    .meta({ description: `Refused: ${why}.` });
}

type Shape = z.ZodRawShape;

/** The caller's object: `allowed` keys of `wire` (or their `narrowed` schema), the rest refused. */
export type CallerShape<
  S extends Shape,
  K extends keyof S,
  N extends Partial<Record<K, z.ZodType>>,
> = {
  [P in Exclude<keyof S, K>]: RefusedField;
} & { [P in Exclude<K, keyof N>]: S[P] } & { [P in keyof N]: N[P] };

/**
 * A strict object built from a wire shape: the `allowed` keys keep their wire schema (or the
 * narrower one in `narrowed`), every other key of the wire shape is a refused field (with its
 * own reason in `why`, else SET_BY_TERMINAL), and a key the contract does not know is refused
 * as unknown (strict).
 */
function callerObject<
  S extends Shape,
  K extends keyof S & string,
  N extends Partial<Record<K, z.ZodType>> = Record<never, never>,
>(
  wire: S,
  allowed: readonly K[],
  narrowed?: N,
  why: Partial<Record<Exclude<keyof S, K>, string>> = {},
): z.ZodObject<CallerShape<S, K, N>, z.core.$strict> {
  const keep = new Set<string>(allowed);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(wire as unknown as Record<string, z.ZodType>)) {
    shape[key] = keep.has(key)
      ? ((narrowed as Record<string, z.ZodType> | undefined)?.[key] ?? schema)
      : refusedField((why as Record<string, string | undefined>)[key]);
  }
  return z.strictObject(shape) as unknown as z.ZodObject<CallerShape<S, K, N>, z.core.$strict>;
}

const s = strictShared;

/**
 * A code as the scanner sends it (an AIM identifier, GS1's GS separators and a composite's
 * `|` kept) or as it was answered (digits, GS1 in brackets): 1..512 characters, no control
 * character but GS.
 */
export const scannedCode = z
  .string()
  .min(1, { error: 'a barcode cannot be empty' })
  .max(512, { error: 'at most 512 characters' })
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001c\u001e\u001f\u007f-\u009f]/.test(v), {
    error: 'no control characters but GS',
  });

/**
 * Why a line is entered by hand (docs/terminal.md, "Goods"): required for a good the POS
 * catalogue does not list, or a catalogue good at another price, where the POS allows it.
 */
const manualReason = z
  .string()
  .trim()
  .min(3, { error: 'say in a few words why this line is entered by hand' })
  .max(200, { error: 'at most 200 characters' })
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f-\u009f]/.test(v), { error: 'no control characters' });

/** A line as the caller sends it: what the goods are, how many, at what price. */
const CheckItemRequest = callerObject(s.CheckItem.shape, [
  'code',
  'category',
  'title',
  'unit',
  'quantity',
  'price',
  'amount',
  'weighing',
  'whole_number',
  // the digits of the values the cashier typed (a fuel price of 1.659)
  'price_decimal_digits',
  'quantity_decimal_digits',
  // a fuel prepay by amount
  'quantity_recalculate_type',
  // what the pump dispensed, reported by the forecourt for a completion
  'processed_amount',
  'processed_quantity',
  // an integrator's catalogue data, like the price
  'taxes',
  'margins',
  'passthru_data',
]).extend({
  // ours, not the wire's: the terminal reads them and sends neither on
  barcode: scannedCode.optional().meta({
    description:
      'The barcode the good was scanned by (catalog-search answers it in scanned.line): it must name this good; a label\u2019s weight or price is the line\u2019s.',
  }),
  manual_reason: manualReason.optional().meta({
    description:
      'Why this line is entered by hand: required for a good the POS catalogue does not list, or for a catalogue good at another price, where the POS allows lines by hand.',
  }),
});

/** A service as the caller adds it; the terminal fills its id and catalogue record. */
const CheckServiceRequest = callerObject(s.CheckService.shape, [
  'code',
  'title',
  'type',
  'value',
  'cost',
  'amount',
]);

/** A coupon the customer presents: its code; the terminal looks up the rest. */
const CheckCouponRequest = callerObject(s.CheckCoupon.shape, ['code']);

/** One payment of a split (cash, card) or the account that pays the whole check. */
const PaymentRequest = callerObject(s.Payment.shape, ['type', 'amount', 'payment_id']);

/**
 * A tank whose dip the attendant measured. `code` is the gauge's tank number: the contract
 * marks it readonly (the central service fills it from its tank record), but this terminal
 * has no tank catalogue, so the attendant names the tank by it (docs/terminal.md).
 */
const CheckTankRequest = callerObject(s.CheckTank.shape, [
  'tank_id',
  'code',
  'physical_dip_amount',
]);

/** A rule picked by hand (engine.md 3: the request lists its id); the engine reports the rest. */
const PickedRuleRequest = callerObject(s.CheckImplementedRule.shape, ['id'], {
  id: z.uuid(),
});

/** The vehicle being served, as the driver or a tag names it. */
const CheckVehicleRequest = callerObject(s.CheckCorporateVehicle.shape, [
  'id',
  'vehicle_id',
  'qr_code',
  'avi_id',
]);

/** The POS the till sells in (a till serving several); its settings are the terminal's. */
const CheckPosRequest = callerObject(s.CheckPos.shape, ['id'], { id: z.uuid() });

/**
 * What an integrator carries along, except the terminal's own keys: `bonuses_spent` (which
 * lots paid, read by a refund), `refund_lines` (what a refund took back) and `clock_suspect`
 * (the till's clock was in doubt when it sold, told to the central service).
 */
const ExternalInfoRequest = z
  .looseObject({
    bonuses_spent: refusedField(),
    refund_lines: refusedField(`the lines a refund took back; ${SET_BY_TERMINAL}`),
    clock_suspect: refusedField(
      'whether the till\u2019s clock was in doubt; set by the terminal, not by the caller',
    ),
    manual_lines: refusedField(
      `the lines entered by hand, from each line\u2019s manual_reason; ${SET_BY_TERMINAL}`,
    ),
  })
  .superRefine(freeFormBounds);

/** The transaction types a check sent here may have: refunds and cancels have their commands. */
const SOLD_HERE = ['sale', 'preauthorization', 'completion'] as const;
const ELSEWHERE: Record<string, string> = {
  refund: 'a refund goes through sale-refund, naming the sale it refunds',
  'bonuses-add': 'bonuses are not added through a check',
  'bonuses-write-off': 'bonuses are not written off through a check',
  refill: 'an account is not refilled through a check',
};
const CheckTransactionType = z.enum(SOLD_HERE, {
  error: (issue) => {
    const input = issue.input;
    const parsed = TransactionType.safeParse(input);
    if (parsed.success && ELSEWHERE[parsed.data]) return ELSEWHERE[parsed.data];
    return `one of ${SOLD_HERE.join(', ')}`;
  },
});

/** Every wire field of a check, request-only and response-only ones included. */
const wireCheck = { ...s.CheckResponse.shape, ...s.Check.shape };

/**
 * The check of `check-calc` and `sale-process`. The reasons name where the value comes from
 * instead, when it is not simply the terminal's.
 */
export const CheckRequest = callerObject(
  wireCheck,
  [
    // who the customer is
    'id',
    'id_type',
    'cardotppassword',
    'customer_id',
    'corporate_customer_id',
    'corporate_vehicle',
    'billing_info',
    'avi_id',
    'vehicle_id',
    'odometer',
    'odometer_unit',
    'pos',
    // what is sold
    'check_items',
    'check_services',
    'shipping_amount',
    'tanks',
    'manual_rules',
    'implemented_rules',
    'redeemed_coupons',
    'bonuses_redeemed_amount',
    // how it is paid
    'payment_type',
    'payment_id',
    'payments',
    'special_account_pin',
    // the transaction
    'transaction_id',
    'transaction_type',
    'preliminary_transaction_id',
    'online_store_order_id',
    'route_operation_id',
    'external_check_id',
    'external_check_id_by_user',
    'external_check_id_scope',
    'external_additional_info',
    'comment',
    'skip_message',
  ],
  {
    corporate_vehicle: CheckVehicleRequest.optional(),
    pos: CheckPosRequest.optional(),
    check_items: checkItems(CheckItemRequest, BOUNDS.amount).optional(),
    check_services: z.array(CheckServiceRequest).optional(),
    tanks: z.array(CheckTankRequest).optional(),
    implemented_rules: z.array(PickedRuleRequest).optional(),
    redeemed_coupons: z.array(CheckCouponRequest).optional(),
    payments: z.array(PaymentRequest).optional(),
    transaction_type: CheckTransactionType.optional(),
    external_additional_info: ExternalInfoRequest.optional(),
  },
  {
    business_staff: `the signed-in staff member; ${SET_BY_TERMINAL}`,
    transaction_cancelled: 'a sale is cancelled through sale-cancel',
    transaction_subtype: `online or offline is how the terminal reached the service; ${SET_BY_TERMINAL}`,
    special_account_required_values_verify: `whether the PIN and values were verified; ${SET_BY_TERMINAL}`,
    corporate_customer_special_account_id: 'the account that pays is named by payment_id',
    special_account: 'the account that pays is named by payment_id',
    loyalty: 'the loyalty is the POS\u2019s; set by the terminal, not by the caller',
  },
)
  .extend({
    // ours, not the wire's: the terminal turns each into its line and sends none on
    fills: z
      .array(z.uuid({ error: 'a fill id as forecourt-state lists it' }))
      .min(1, { error: 'name a fill, or leave fills out' })
      .max(8, { error: 'at most 8 fills on one check' })
      .optional()
      .meta({
        description:
          'Pump fills sold on this check, by the id forecourt-state lists: each becomes a line with the pump\u2019s grade, litres, unit price and amount (never the caller\u2019s). On a completion, the one fill of its prepay, with no check_items: its litres and amount are what was dispensed. A prepay a pump of this till ran is completed only so, or with no fills and no check_items when its release ran out with no fill (nothing dispensed): processed_quantity and processed_amount are then refused.',
      }),
  })
  .superRefine((check, ctx) => {
    // A completion names the pump authorisation it books against; nothing else links itself.
    if (check.preliminary_transaction_id !== undefined && check.transaction_type !== 'completion')
      ctx.addIssue({
        code: 'custom',
        path: ['preliminary_transaction_id'],
        message: `only a completion names the pump authorisation it completes; otherwise ${SET_BY_TERMINAL}`,
      });
    // What the pump dispensed is the forecourt's report of a completion, nothing else's.
    check.check_items?.forEach((it, i) => {
      if (check.transaction_type === 'completion') return;
      for (const key of ['processed_quantity', 'processed_amount'] as const)
        if (it[key] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['check_items', i, key],
            message: 'what the pump dispensed is reported only in a completion',
          });
    });
    // Money the caller names is money taken: a negative shipping charge, service or payment part
    // would be a discount nobody granted, or cash out of the drawer against a card overcharged.
    if (check.shipping_amount !== undefined && check.shipping_amount < 0)
      ctx.addIssue({
        code: 'custom',
        path: ['shipping_amount'],
        message: 'shipping is a charge: 0 or more',
      });
    check.check_services?.forEach((sv, i) => {
      for (const key of ['value', 'cost', 'amount'] as const) {
        const v = sv[key];
        if (typeof v === 'number' && v < 0)
          ctx.addIssue({
            code: 'custom',
            path: ['check_services', i, key],
            message: 'a service is a charge: 0 or more',
          });
      }
    });
    check.payments?.forEach((p, i) => {
      if (p.amount < 0)
        ctx.addIssue({
          code: 'custom',
          path: ['payments', i, 'amount'],
          message: 'a payment part is money taken: 0 or more',
        });
    });
    // A card payment's id is the card operation's, known once the terminal has charged it.
    const cardOp = `the card operation\u2019s id; ${SET_BY_TERMINAL}`;
    if (check.payment_type === 'bank-card' && check.payment_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['payment_id'], message: cardOp });
    check.payments?.forEach((p, i) => {
      if (p.type === 'bank-card' && p.payment_id !== undefined)
        ctx.addIssue({ code: 'custom', path: ['payments', i, 'payment_id'], message: cardOp });
    });
    if (check.implemented_rules !== undefined && check.manual_rules !== true)
      ctx.addIssue({
        code: 'custom',
        path: ['implemented_rules'],
        message: `list rules here only to pick them by hand (manual_rules: true); otherwise ${SET_BY_TERMINAL}`,
      });
  });
export type CheckRequest = z.infer<typeof CheckRequest>;
export type CheckItemRequest = z.infer<typeof CheckItemRequest>;
export type PaymentRequest = z.infer<typeof PaymentRequest>;
