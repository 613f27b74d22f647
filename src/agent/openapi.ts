// docs/agent-api.yaml, made from the command map's zod schemas (z.toJSONSchema), so the
// document and the code never disagree: test/agent/openapi.test.ts fails when the file is
// stale, and `UPDATE_OPENAPI=1 npx vitest run test/agent/openapi.test.ts` rewrites it.
import type { z } from 'zod';
import {
  commandNames,
  commands,
  ErrorResponse,
  eventNames,
  events,
  httpStatusOf,
  shellErrorStatus,
  type CommandName,
} from '../contract/commands.js';
import { CheckRequest } from '../contract/check-request.js';
import { looseShared } from '../contract/shared.js';
import { openApiYaml, schemaComponents, type Json } from '../contract/openapi.js';
import { DISPLAY_COOKIE, SESSION_COOKIE } from './sessions.js';

const pascal = (kebab: string) =>
  kebab.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const errorStatuses = [400, 401, 403, 404, 405, 409, 413, 415, 422, 500, 501];

/** One shared response per status, named by it (`#/components/responses/Refused400`). */
function errorComponents(): Record<string, Json> {
  const by = new Map<number, string[]>();
  for (const [code, status] of Object.entries(shellErrorStatus))
    by.set(status, [...(by.get(status) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const status of errorStatuses) {
    const names =
      status === 422
        ? ['any business refusal (engine codes, role-required, ...)']
        : (by.get(status) ?? []);
    out[`Refused${status}`] = {
      description: `Refused: ${names.join(', ')}`,
      content: { 'application/json': { schema: ref('ErrorResponse') } },
    };
  }
  return out;
}

function errorResponses(codes: number[]): Record<string, Json> {
  return Object.fromEntries(
    codes.map((s) => [String(s), { $ref: `#/components/responses/Refused${s}` }]),
  );
}

export function agentOpenApi(): Record<string, Json> {
  const { inputs, outputs } = schemas();
  return {
    openapi: '3.1.0',
    info: {
      title: 'loyalty-terminal agent',
      version: '1',
      description:
        'The headless terminal agent on 127.0.0.1. Generated from src/contract/commands.ts by src/agent/openapi.ts; do not edit by hand. ' +
        `Every refusal is ErrorResponse; a code outside the shell's own answers ${httpStatusOf('any-business-code')}.`,
    },
    servers: [
      {
        url: 'http://127.0.0.1:{port}',
        variables: { port: { default: '8080', description: 'the port the agent printed' } },
      },
    ],
    security: [{ bearer: [] }, { session: [] }],
    paths: { ...commandPaths(), ...shellPaths() },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token in DIR/agent-token' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'From GET /session?code=...',
        },
        display: {
          type: 'apiKey',
          in: 'cookie',
          name: DISPLAY_COOKIE,
          description:
            'From GET /session?code=... beside the session: GET /api/events?only=customer-display alone',
        },
      },
      responses: errorComponents(),
      schemas: { ...inputs, ...outputs },
    },
  };
}

/** Every command's input and output, and every event, as schema components. */
function schemas(): { inputs: Record<string, Json>; outputs: Record<string, Json> } {
  const inputs = schemaComponents(
    [
      ['CheckRequest', CheckRequest],
      ...commandNames.map((n): [string, z.ZodType] => [`${pascal(n)}Input`, commands[n].input]),
    ],
    'input',
  );
  const outputs = schemaComponents(
    [
      ['CheckResponse', looseShared.CheckResponse],
      ['ErrorResponse', ErrorResponse],
      ...commandNames.map((n): [string, z.ZodType] => [`${pascal(n)}Output`, commands[n].output]),
      ...eventNames.map((e): [string, z.ZodType] => [`${pascal(e)}Event`, events[e]]),
    ],
    'output',
  );
  for (const id of Object.keys(inputs))
    if (id in outputs) throw new Error(`schema id ${id} is both input and output`);
  return { inputs, outputs };
}

// 409 only where a client-made id makes a retry idempotent.
const idempotent = new Set<CommandName>(['sale-process', 'sale-cancel', 'sale-refund']);

const commandStatuses = (name: CommandName) =>
  [400, 401, 403, 404, 405, 409, 413, 415, 422, 500, 501].filter(
    (s) => s !== 409 || idempotent.has(name),
  );

/** POST /api/commands/NAME for every command. */
function commandPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const name of commandNames) {
    paths[`/api/commands/${name}`] = {
      post: {
        operationId: name,
        summary: `The \`${name}\` command`,
        requestBody: {
          required: false,
          content: { 'application/json': { schema: ref(`${pascal(name)}Input`) } },
        },
        responses: {
          '200': {
            description: 'Done',
            content: { 'application/json': { schema: ref(`${pascal(name)}Output`) } },
          },
          ...errorResponses(commandStatuses(name)),
        },
      },
    };
  }
  return paths;
}

/** The shell's own paths: status as a GET, the event stream and the session hand-over. */
function shellPaths(): Record<string, Json> {
  return {
    '/api/status': {
      get: {
        operationId: 'get-status',
        summary: 'The `status` command, as a GET',
        responses: {
          '200': {
            description: 'The status',
            content: { 'application/json': { schema: ref('StatusOutput') } },
          },
          ...errorResponses([401, 403, 500]),
        },
      },
    },
    '/api/events': eventsPath(),
    ...sessionPaths(),
  };
}

function eventsPath(): Json {
  return {
    get: {
      operationId: 'events',
      summary: 'Server-sent events: what `on()` delivers',
      description: `Each event is \`event: NAME\` and \`data: JSON\`. Names and payloads: ${eventNames
        .map((e) => `\`${e}\` (${pascal(e)}Event)`)
        .join(
          ', ',
        )}. The stream ends when the way in that opened it ends (a sign-out ends a session's).`,
      security: [{ bearer: [] }, { session: [] }, { display: [] }],
      parameters: [
        {
          name: 'only',
          in: 'query',
          required: false,
          description:
            'customer-display: that event alone; with the display pass the stream outlives a staff sign-out',
          schema: { type: 'string', enum: ['customer-display'] },
        },
      ],
      responses: {
        '200': {
          description: 'An event stream',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...errorResponses([401, 403]),
      },
    },
  };
}

/** A one-time code minted with the API token, traded for the session cookie. */
function sessionPaths(): Record<string, Json> {
  return {
    '/api/session-codes': {
      post: {
        operationId: 'mint-session-code',
        summary: 'A new one-time URL for a person (the API token only)',
        security: [{ bearer: [] }],
        responses: {
          '200': {
            description: 'The URL to open',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { url: { type: 'string' } },
                  required: ['url'],
                  additionalProperties: false,
                },
              },
            },
          },
          ...errorResponses([401, 403]),
        },
      },
    },
    '/session': {
      get: {
        operationId: 'open-session',
        summary: 'Trades a one-time code for the session cookie, then redirects to the page',
        security: [],
        parameters: [{ name: 'code', in: 'query', required: true, schema: { type: 'string' } }],
        responses: {
          '303': {
            description: `Redirect to /, with Set-Cookie: ${SESSION_COOKIE}=... and ${DISPLAY_COOKIE}=... (the display pass); HttpOnly; SameSite=Strict`,
          },
          ...errorResponses([401, 403]),
        },
      },
    },
  };
}

const AGENT_API_HEADER =
  '# The agent API (OpenAPI 3.1). Generated from src/contract/commands.ts by src/agent/openapi.ts:\n' +
  '# do not edit; `UPDATE_OPENAPI=1 npx vitest run test/agent/openapi.test.ts` rewrites it.\n';

export function agentApiYaml(): string {
  return openApiYaml(AGENT_API_HEADER, agentOpenApi());
}
