// docs/central-api.yaml is generated from the zod schemas: the file must equal the generator's
// output. `UPDATE_OPENAPI=1 npx vitest run test/sync/openapi.test.ts` rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/contract/central-api.js';
import { buildOpenApi, renderOpenApiYaml } from '../../src/sync/openapi.js';

const FILE = new URL('../../docs/central-api.yaml', import.meta.url);

describe('docs/central-api.yaml', () => {
  it('is what the generator makes from the zod schemas', () => {
    const want = renderOpenApiYaml();
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(FILE, want);
    expect(readFileSync(FILE, 'utf8')).toBe(want);
  });

  it('documents every operation of sync.md with its path and method', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, unknown>> };
    for (const op of Object.values(operations))
      expect(doc.paths[op.path]?.[op.method.toLowerCase()]).toBeDefined();
  });

  it('marks every write with a required Idempotency-Key', () => {
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { parameters: { name: string; required: boolean }[] }>>;
    };
    for (const op of Object.values(operations).filter((o) => o.write)) {
      const params = doc.paths[op.path]!.post!.parameters;
      expect(params.find((p) => p.name === 'Idempotency-Key')?.required).toBe(true);
    }
  });
});
