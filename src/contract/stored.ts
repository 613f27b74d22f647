// The documents the terminal keeps as JSON in its store and reads back: each is read through
// its schema here, never cast (docs/store.md, "Stored documents"). Checks keep the engine's
// exact numbers, so a check stored before the bounds existed still reads; an answer built
// from it meets the bounded output schema where it is given (checkout's `readable`).
import { z } from 'zod';
import { EngineCheckResult, RefundLine } from './engine.js';
import { ReceiptDocument } from './receipt.js';
import { FreeFormObject } from './wire.js';

/** A check's free-form info, with what the terminal itself writes there typed. */
const ExternalInfo = FreeFormObject.pipe(
  z.looseObject({
    /** What a refund took back, line by line (returns.ts). */
    refund_lines: z.array(RefundLine).optional(),
  }),
);

/** A processed check as the ledger keeps it (`ledger_check.check_json`): a sale or a refund. */
export const StoredCheck = EngineCheckResult.extend({
  external_additional_info: ExternalInfo.optional(),
});
export type StoredCheck = z.output<typeof StoredCheck>;

/**
 * A pump authorised before fuelling (engine.md 12), kept under `fuel-authorisation` by its
 * transaction id: what its completion books against.
 */
export const FuelAuthorisation = z.strictObject({
  id: z.string().min(1),
  /** The authorised check (`transaction_type: preauthorization`), without the PIN. */
  check: EngineCheckResult,
  /** The card's pre-authorisation, when the card holds the money. */
  card: z
    .strictObject({
      paymentId: z.string().min(1),
      receipt: z.int().nullable(),
      amount: z.number(),
    })
    .nullable(),
  /** Cash taken up front; the change is given back at completion. */
  prepaidCash: z.number(),
});
export type FuelAuthorisation = z.output<typeof FuelAuthorisation>;

/** The completion that booked a pump authorisation, kept under `fuel-completion`. */
const FuelCompletion = z.strictObject({ completion: z.string().min(1) });
export type FuelCompletion = z.output<typeof FuelCompletion>;

/** A pump authorisation given back when its lifetime ran out, kept under `fuel-released`. */
const FuelRelease = z.strictObject({
  payment_id: z.string().min(1),
  released_at: z.iso.datetime(),
  reason: z.literal('lifetime'),
});
export type FuelRelease = z.output<typeof FuelRelease>;

/**
 * What the payment unit reported of an approved card operation beyond the card journal's
 * columns, for its slip on the receipt; kept under `card-slip` by the journal entry's id.
 */
export const CardSlipRecord = z.strictObject({
  auth_code: z.string().nullable(),
  terminal_id: z.string().nullable(),
});
export type CardSlipRecord = z.output<typeof CardSlipRecord>;

/**
 * The records kept beside the commands' answers (command_result), by their key: the fuel
 * records; `receipt`, the receipt a sale printed (by its transaction id), which
 * `receipt-reprint` prints again as a copy; and `card-slip` (by the card operation's id).
 */
export const fuelRecords = {
  'fuel-authorisation': FuelAuthorisation,
  'fuel-completion': FuelCompletion,
  'fuel-released': FuelRelease,
  receipt: ReceiptDocument,
  'card-slip': CardSlipRecord,
} as const;
export type FuelRecordKind = keyof typeof fuelRecords;

/**
 * A refusal's error as the central service gave it (kept in the outbox row's `response`, and
 * in the attention item raised for it), read defensively: each field may be missing.
 */
export const KeptError = z.looseObject({
  code: z.string().optional(),
  message: z.string().optional(),
  path: z.string().nullish(),
});
export type KeptError = z.output<typeof KeptError>;

/** A kept refusal; anything else (an answer of another shape) reads as one giving no reason. */
export const KeptRefusal = z.looseObject({ error: KeptError.optional() }).catch({});
export type KeptRefusal = z.output<typeof KeptRefusal>;
