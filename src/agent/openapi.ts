// docs/agent-api.yaml, made from the command map's zod schemas (z.toJSONSchema), so the
// document and the code never disagree: test/agent/openapi.test.ts fails when the file is
// stale, and `node dist/src/agent/write-openapi.js` rewrites it.
import { z } from 'zod';
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
import { SESSION_COOKIE } from './sessions.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const pascal = (kebab: string) =>
  kebab.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function componentsOf(
  entries: [string, z.ZodType][],
  io: 'input' | 'output',
): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, Json>> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

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
  const inputs = componentsOf(
    [
      ['CheckRequest', CheckRequest],
      ...commandNames.map((n): [string, z.ZodType] => [`${pascal(n)}Input`, commands[n].input]),
    ],
    'input',
  );
  const outputs = componentsOf(
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

  // 409 only where a client-made id makes a retry idempotent.
  const idempotent = new Set<CommandName>(['sale-process', 'sale-cancel', 'sale-refund']);
  const commandStatuses = (name: CommandName) =>
    [400, 401, 403, 404, 405, 409, 413, 415, 422, 500, 501].filter(
      (s) => s !== 409 || idempotent.has(name),
    );

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
  paths['/api/status'] = {
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
  };
  paths['/api/events'] = {
    get: {
      operationId: 'events',
      summary: 'Server-sent events: what `on()` delivers',
      description: `Each event is \`event: NAME\` and \`data: JSON\`. Names and payloads: ${eventNames
        .map((e) => `\`${e}\` (${pascal(e)}Event)`)
        .join(', ')}.`,
      responses: {
        '200': {
          description: 'An event stream',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...errorResponses([401, 403]),
      },
    },
  };
  paths['/api/session-codes'] = {
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
  };
  paths['/session'] = {
    get: {
      operationId: 'open-session',
      summary: 'Trades a one-time code for the session cookie, then redirects to the page',
      security: [],
      parameters: [{ name: 'code', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '303': {
          description: `Redirect to /, with Set-Cookie: ${SESSION_COOKIE}=...; HttpOnly; SameSite=Strict`,
        },
        ...errorResponses([401, 403]),
      },
    },
  };

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
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token in DIR/agent-token' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'From GET /session?code=...',
        },
      },
      responses: errorComponents(),
      schemas: { ...inputs, ...outputs },
    },
  };
}

// ---- a small YAML writer: enough for JSON data, deterministic, every odd string quoted ----

const reserved = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
const plainKey = /^[A-Za-z_$/][A-Za-z0-9_$/.-]*$/;
const plainValue = /^[A-Za-z_/][A-Za-z0-9_/.-]*$/;

// Quotes as Prettier (singleQuote) would, so the file passes `prettier --check` as written:
// single quotes unless the text holds one and no double quote, or needs an escape.
function quote(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters need the escaped form
  const needsEscape = /[\u0000-\u001f\u007f]/.test(s);
  if (needsEscape || (s.includes("'") && !s.includes('"'))) return JSON.stringify(s);
  return `'${s.replaceAll("'", "''")}'`;
}

function str(s: string, plain: RegExp): string {
  return plain.test(s) && !reserved.test(s) ? s : quote(s);
}

function inline(v: Json): string | null {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return str(v, plainValue);
  if (Array.isArray(v)) return v.length === 0 ? '[]' : null;
  return Object.keys(v).length === 0 ? '{}' : null;
}

function block(v: Json[] | { [k: string]: Json }, pad: string): string {
  let out = '';
  if (Array.isArray(v)) {
    for (const item of v) {
      const s = inline(item);
      if (s !== null) out += `${pad}- ${s}\n`;
      else
        out += `${pad}- ${block(item as Json[] | { [k: string]: Json }, `${pad}  `).slice(pad.length + 2)}`;
    }
    return out;
  }
  for (const [k, item] of Object.entries(v)) {
    const s = inline(item);
    if (s !== null) out += `${pad}${str(k, plainKey)}: ${s}\n`;
    else
      out += `${pad}${str(k, plainKey)}:\n${block(item as Json[] | { [k: string]: Json }, `${pad}  `)}`;
  }
  return out;
}

export function toYaml(doc: Record<string, Json>): string {
  return block(doc as { [k: string]: Json }, '');
}

export const AGENT_API_HEADER =
  '# The agent API (OpenAPI 3.1). Generated from src/contract/commands.ts by src/agent/openapi.ts:\n' +
  '# do not edit; `npm run build && node dist/src/agent/write-openapi.js` rewrites it.\n';

export function agentApiYaml(): string {
  return AGENT_API_HEADER + toYaml(agentOpenApi());
}
