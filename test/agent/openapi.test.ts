import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { agentApiYaml, agentOpenApi } from '../../src/agent/openapi.js';
import { commandNames } from '../../src/contract/commands.js';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

describe('docs/agent-api.yaml', () => {
  it('is what the command map generates (`UPDATE_OPENAPI=1` rewrites it)', () => {
    const file = new URL('../../docs/agent-api.yaml', import.meta.url);
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(file, agentApiYaml());
    expect(readFileSync(file, 'utf8') === agentApiYaml()).toBe(true);
  });

  it('is YAML that reads back as the document', () => {
    expect(yaml.load(agentApiYaml())).toEqual(JSON.parse(JSON.stringify(agentOpenApi())));
  });

  it('has a POST path for every command and nothing else under /api/commands', () => {
    const doc = agentOpenApi() as { paths: Record<string, unknown> };
    const commandPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/commands/'));
    expect(commandPaths).toEqual(commandNames.map((n) => `/api/commands/${n}`));
  });

  it('resolves every $ref to a component', () => {
    const doc = agentOpenApi() as { components: { schemas: Record<string, unknown> } };
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const r of new Set(refs)) {
      const id = JSON.parse(r).slice('#/components/schemas/'.length) as string;
      expect(doc.components.schemas, id).toHaveProperty([id]);
    }
  });
});
