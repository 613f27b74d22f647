// The golden corpus (test/engine/cases/README.md): every hand-worked case runs through the
// fixture schema and the engine, and its `expect` must match the answer as a deep partial.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EngineFixture, EngineResult } from '../../src/contract/engine.js';
import { problemsOf } from '../../src/contract/problems.js';
import { runFixture } from '../../src/engine/index.js';

const dir = fileURLToPath(new URL('./cases/', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

interface GoldenCase {
  title: string;
  fixture: unknown;
  expect: Record<string, unknown>;
}

describe('golden cases', () => {
  it('holds at least 80 cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(80);
  });

  for (const file of files) {
    const golden = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as GoldenCase;
    it(`${file}: ${golden.title}`, () => {
      const parsed = EngineFixture.safeParse(golden.fixture);
      if (!parsed.success) {
        throw new Error(`the fixture is refused: ${JSON.stringify(problemsOf(parsed.error))}`);
      }
      const output = runFixture(parsed.data);
      // Round-trip through JSON: the answer is compared as the CLI prints it.
      expect(JSON.parse(JSON.stringify(output))).toMatchObject(golden.expect);
    });
  }
});

describe('golden answers', () => {
  for (const file of files) {
    const golden = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as GoldenCase;
    it(`${file}: the answer conforms to the contract's schemas`, () => {
      const parsed = EngineFixture.safeParse(golden.fixture);
      if (!parsed.success) return; // reported by the case itself
      const answer = EngineResult.safeParse(JSON.parse(JSON.stringify(runFixture(parsed.data))));
      expect(answer.success ? [] : problemsOf(answer.error)).toEqual([]);
    });
  }
});
