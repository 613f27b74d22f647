import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { agentApiYaml, agentOpenApi, toYaml } from '../../src/agent/openapi.js';
import { commandNames } from '../../src/contract/commands.js';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

describe('docs/agent-api.yaml', () => {
  it('is what the command map generates (run `npm run build && node dist/src/agent/write-openapi.js` when not)', () => {
    const onDisk = readFileSync(new URL('../../docs/agent-api.yaml', import.meta.url), 'utf8');
    expect(onDisk === agentApiYaml()).toBe(true);
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

describe('the YAML writer', () => {
  it('writes what a YAML parser reads back as the same data', () => {
    const data = {
      a: 'plain',
      'needs quoting': 'a: b # c',
      n: 1.5,
      t: true,
      nothing: null,
      yes: 'no',
      list: [1, 'two', { x: [], y: {} }, [3, 4]],
      nested: { deeper: { '/api/x': ['$ref'] } },
      unicode: 'Grüße\n"quoted"',
    };
    expect(yaml.load(toYaml(data))).toEqual(data);
  });

  it('writes the whole agent document readably', () => {
    expect(yaml.load(agentApiYaml())).toEqual(JSON.parse(JSON.stringify(agentOpenApi())));
  });
});
