// The one OpenAPI builder: named zod schemas become `components.schemas` (z.toJSONSchema over a
// registry, so shared sub-schemas are references), and a document becomes YAML through
// js-yaml. docs/central-api.yaml (src/sync/openapi.ts) and docs/agent-api.yaml
// (src/agent/openapi.ts) are both made with it; each of those only says what its API holds.
import { dump } from 'js-yaml';
import { z } from 'zod';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * `components.schemas` from named zod schemas (`io`: the input or the output view). A schema
 * listed under a second name is that name's reference to the first.
 */
export function schemaComponents(
  entries: readonly (readonly [string, z.ZodType])[],
  io: 'input' | 'output',
): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  const first = new Map<z.ZodType, string>();
  const aliases: [string, string][] = [];
  for (const [id, schema] of entries) {
    const named = first.get(schema);
    if (named !== undefined) {
      aliases.push([id, named]);
      continue;
    }
    first.set(schema, id);
    registry.add(schema, { id });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as unknown as { schemas: Record<string, Record<string, Json>> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, id: _id, ...rest } = schema;
    out[id] = rest;
  }
  for (const [id, named] of aliases) out[id] = { $ref: `#/components/schemas/${named}` };
  return out;
}

/** One schema alone (a query parameter), without the `$schema` line. */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    Json
  >;
  return rest;
}

/** The document as YAML under a comment header (each header line starts with `# `). */
export function openApiYaml(header: string, doc: Json): string {
  return `${header}${dump(doc, { lineWidth: -1, noRefs: true, quotingType: '"' })}`;
}
