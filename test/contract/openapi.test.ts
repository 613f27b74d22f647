import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiYaml, schemaComponents } from '../../src/contract/openapi.js';

describe('the OpenAPI builder', () => {
  it('refers to a shared sub-schema by name, and a second name to the first', () => {
    const Money = z.string();
    const Line = z.object({ amount: Money });
    const out = schemaComponents(
      [
        ['Money', Money],
        ['Line', Line],
        ['AlsoLine', Line],
      ],
      'input',
    );
    expect(JSON.stringify(out.Line)).toContain('#/components/schemas/Money');
    expect(out.AlsoLine).toEqual({ $ref: '#/components/schemas/Line' });
  });

  it('writes YAML that a parser reads back as the same document', () => {
    const doc = {
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
    expect(load(openApiYaml('', doc))).toEqual(doc);
  });

  it('puts the header comment first', () => {
    expect(openApiYaml('# made here\n', { a: 1 })).toBe('# made here\na: 1\n');
  });
});
