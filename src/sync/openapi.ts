// docs/central-api.yaml, generated from the operation table (src/contract/central-api.ts) and the contract's zod
// schemas, never edited by hand: test/sync/openapi.test.ts fails when the file and this
// generator disagree, and rewrites it with UPDATE_OPENAPI=1.
import type { z } from 'zod';
import { strictBusiness } from '../contract/business.js';
import { strictShared } from '../contract/shared.js';
import {
  ApiErrorBody,
  BankCardPayment,
  BonusesOperationResult,
  CouponSell,
  CouponSold,
  CancelCheck,
  Change,
  ChangesPage,
  HEADERS,
  LookupResult,
  operations,
  ProcessCheckRequest,
  StaffSignIn,
  TerminalSignIn,
  RefundCheck,
  WriteBatch,
  WriteBatchAnswer,
  WriteBatchItem,
  WriteBatchResult,
  ReturnAnswer,
  type Operation,
} from '../contract/central-api.js';
import { openApiYaml, schemaComponents, schemaOf, type Json } from '../contract/openapi.js';

/** The named schemas of the document, sub-schemas included so they are shared by reference. */
function namedSchemas(): [string, z.ZodType][] {
  const s = strictShared;
  return [
    ['Error', ApiErrorBody],
    ['TerminalSignIn', TerminalSignIn],
    ['StaffSignIn', StaffSignIn],
    ['BusinessAuthToken', strictBusiness.BusinessAuthToken],
    ['BusinessStaff', s.BusinessStaff],
    ['Change', Change],
    ['ChangesPage', ChangesPage],
    ['LookupResult', LookupResult],
    ['Check', s.Check],
    ['CheckResponse', s.CheckResponse],
    ['ProcessCheckRequest', ProcessCheckRequest],
    ['CancelCheck', CancelCheck],
    ['RefundCheck', RefundCheck],
    ['ReturnAnswer', ReturnAnswer],
    ['BonusesOperationObject', strictBusiness.BonusesOperationObject],
    ['BonusesOperationResult', BonusesOperationResult],
    ['BankCardPayment', BankCardPayment],
    ['CouponSell', CouponSell],
    ['CouponSold', CouponSold],
    ['WriteBatch', WriteBatch],
    ['WriteBatchItem', WriteBatchItem],
    ['WriteBatchAnswer', WriteBatchAnswer],
    ['WriteBatchResult', WriteBatchResult],
    ['CheckItem', s.CheckItem],
    ['CheckService', s.CheckService],
    ['CheckCoupon', s.CheckCoupon],
    ['EmittedCheckCoupon', s.EmittedCheckCoupon],
    ['CheckCouponBatch', s.CheckCouponBatch],
    ['CheckImplementedRule', s.CheckImplementedRule],
    ['CheckPos', s.CheckPos],
    ['CheckLoyalty', s.CheckLoyalty],
    ['CheckBusiness', s.CheckBusiness],
    ['CheckCorporateVehicle', s.CheckCorporateVehicle],
    ['CheckSpecialAccount', s.CheckSpecialAccount],
    ['CheckTank', s.CheckTank],
    ['BonusAdded', s.BonusAdded],
    ['SpecialAccountCharge', s.SpecialAccountCharge],
    ['Payment', s.Payment],
    ['ThresholdsValues', s.ThresholdsValues],
    ['RuleImplementationData', s.RuleImplementationData],
  ];
}

function componentSchemas(): Record<string, Json> {
  return schemaComponents(namedSchemas(), 'input');
}

function nameOf(schema: z.ZodType): string {
  const found = namedSchemas().find(([, s]) => s === schema);
  if (!found) throw new Error('an operation schema is missing from the named schemas');
  return found[0];
}

const ref = (schema: z.ZodType): Json => ({ $ref: `#/components/schemas/${nameOf(schema)}` });

function errorResponse(description: string): Json {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function operationObject(op: Operation): Json {
  return {
    operationId: op.name,
    summary: op.summary,
    ...(op.auth === 'token' ? {} : { security: [] }),
    parameters: parametersOf(op),
    ...(op.method === 'POST' && op.request
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(op.request) } },
          },
        }
      : {}),
    responses: responsesOf(op),
  };
}

/** The version headers, the idempotency key of a write, and the query's fields. */
function parametersOf(op: Operation): Json[] {
  const parameters: Json[] = [
    {
      name: HEADERS.appVersion,
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'The terminal app version.',
    },
    {
      name: HEADERS.schemaVersion,
      in: 'header',
      required: false,
      schema: { type: 'integer' },
      description: "The terminal's database schema version.",
    },
  ];
  if (op.write) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 8, maxLength: 100 },
      description:
        'The transaction id made on the terminal (process_check: equal to `transaction_id`). Kept for good: a repeat gets the first answer, another body 409. The same key holds for the write sent alone or as an item of write_batch (docs/sync.md, "Drain over a slow link").',
    });
  }
  if (op.query) {
    for (const [name, field] of Object.entries(op.query.shape)) {
      parameters.push({
        name,
        in: 'query',
        required: !(field as z.ZodType).safeParse(undefined).success,
        schema: schemaOf(field as z.ZodType, 'input'),
      });
    }
  }
  return parameters;
}

/** What every operation may answer, and the refusals only some of them give. */
function responsesOf(op: Operation): Record<string, Json> {
  const responses: Record<string, Json> = {
    '200': { description: 'OK', content: { 'application/json': { schema: ref(op.response) } } },
    '400': errorResponse(
      'invalid-input: the body or query breaks its schema (`path` names the field)',
    ),
    '429': {
      ...(errorResponse('rate-limited; wait for Retry-After') as Record<string, Json>),
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    },
    '5XX': errorResponse(
      'transient: retry later (writes only through the outbox, with the same key)',
    ),
  };
  if (op.auth === 'token' || op === operations.signIn)
    responses['401'] = errorResponse('unauthorized: sign in (again)');
  if (op.write) {
    responses['409'] = errorResponse(
      'idempotency-conflict: the key was used with a different body',
    );
    responses['422'] = errorResponse(
      "a business refusal: the engine's error code, `details` where it has them",
    );
  }
  if (op === operations.calcCheck)
    responses['422'] = errorResponse("a business refusal: the engine's error code");
  if (op === operations.changes)
    responses['200'] = {
      ...(responses['200'] as Record<string, Json>),
      headers: {
        'Content-Encoding': {
          schema: { type: 'string', enum: ['br', 'gzip'] },
          description:
            'A page of 1 KiB or more is compressed when the request\'s Accept-Encoding offers br (preferred) or gzip (docs/sync.md, "Compressed pages").',
        },
      },
    };
  if (op === operations.changes)
    responses['410'] = errorResponse('cursor-expired: start a snapshot (call without a cursor)');
  if (op === operations.lookup)
    responses['404'] = errorResponse('not-found: no customer has this identifier');
  if (op === operations.writeBatch) {
    responses['200'] = {
      description:
        'One result per item, in the items\' order, each the status and body the write would get sent alone (200, 400, 404, 409, 422; 5XX: the server failed on it and stopped, so every later item is 424 not-attempted and was not applied). Each item is applied in its own transaction under its idempotency_key: a repeat of a whole or cut batch is answered item by item from the keys kept (docs/sync.md, "Drain over a slow link").',
      content: { 'application/json': { schema: ref(op.response) } },
    };
    responses['404'] = errorResponse(
      'not-found: a central without the batch operation; the terminal then sends each write alone',
    );
  }
  return responses;
}

export function buildOpenApi(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of Object.values(operations)) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: operationObject(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Central service: the terminal operations of the business surface',
      version: '1',
      description:
        "Generated from src/contract/central-api.ts and the zod schemas of src/contract by src/sync/openapi.ts; do not edit by hand. The operations are ours (shared/spec/sync.md); the data shapes are the contract's.",
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:8080' } } }],
    security: [{ bearer: [] }],
    paths: paths as Json,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token from /v1/terminal/sign_in.',
        },
      },
      schemas: componentSchemas(),
    },
  };
}

export function renderOpenApiYaml(): string {
  return openApiYaml(
    '# Generated by src/sync/openapi.ts from the zod schemas; do not edit (see docs/sync.md).\n',
    buildOpenApi(),
  );
}
