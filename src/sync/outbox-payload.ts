// The outbox payload: versioned JSON, written once with the operation and never rewritten
// (sync.md). Version 1 carries the request body as it will be sent, the app and schema
// versions it was made under, and whether the terminal's clock was suspect when it was made.
import { z } from 'zod';

export const OUTBOX_PAYLOAD_VERSION = 1;

export const OutboxPayloadV1 = z.looseObject({
  body: z.record(z.string(), z.unknown()),
  app_version: z.string(),
  schema_version: z.int().min(0),
  /** Wall-clock time the terminal made the operation (ISO), as it believed it. */
  made_at: z.string(),
  /** The clock was suspect (skew or a backwards jump): the server should not trust made_at. */
  clock_suspect: z.boolean(),
});
export type OutboxPayloadV1 = z.infer<typeof OutboxPayloadV1>;

/** A version-1 payload for `body`, made now (every writer of the outbox builds it here). */
export function outboxPayload(
  body: Record<string, unknown>,
  made: { appVersion: string; schemaVersion: number; nowMs: number; clockSuspect: boolean },
): OutboxPayloadV1 {
  return {
    body,
    app_version: made.appVersion,
    schema_version: made.schemaVersion,
    made_at: new Date(made.nowMs).toISOString(),
    clock_suspect: made.clockSuspect,
  };
}

/** Store hook: re-validates a stored payload by its version when it is read back. */
export function outboxPayloadSchema(_operation: string, version: number): z.ZodType | undefined {
  return version === 1 ? OutboxPayloadV1 : undefined;
}

/** The body to send: a suspect clock travels inside the check's free-form info, which the contract allows. */
export function bodyToSend(operation: string, payload: OutboxPayloadV1): Record<string, unknown> {
  if (!payload.clock_suspect || operation !== 'process_check') return payload.body;
  const info = (payload.body.external_additional_info ?? {}) as Record<string, unknown>;
  return { ...payload.body, external_additional_info: { ...info, clock_suspect: true } };
}

/** Operation names in the outbox -> the client's write operations. */
export const OUTBOX_OPERATIONS = {
  process_check: 'processCheck',
  cancel_check: 'cancelCheck',
  refund_check: 'refundCheck',
  bonuses_add: 'bonusesAdd',
  bonuses_write_off: 'bonusesWriteOff',
  coupons_sell: 'couponsSell',
  bank_card_payments: 'bankCardPayments',
} as const;
export type OutboxOperation = keyof typeof OUTBOX_OPERATIONS;
