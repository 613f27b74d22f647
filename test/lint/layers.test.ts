// The layers of shared/style.md ("What we take", 1) are held by eslint.config.js; these
// tests prove the rule bites, so a config change that loosens it fails here.
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../.ci/layers.mjs';

const eslint = new ESLint({ cwd: process.cwd() });

const LAYER_RULES = ['@typescript-eslint/no-restricted-imports', 'layers/imports'];

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId !== null && LAYER_RULES.includes(m.ruleId))
    .map((m) => m.message);
}

const folders = Object.keys(LAYERS);
/** An import of a module of `to` as a file of `from` would write it. */
const importOf = (from: string, to: string, kind: 'value' | 'type') =>
  kind === 'type'
    ? `import type { X } from '${posix.relative(from, to)}/x.js';\nexport type Y = X;\n`
    : `import { x } from '${posix.relative(from, to)}/x.js';\nvoid x;\n`;

describe('the folder table (.ci/layers.mjs)', () => {
  for (const from of folders) {
    const allowed = LAYERS[from] ?? [];
    it(`lets ${from} import ${allowed.join(', ') || 'nothing of ours'}, and refuses the rest`, async () => {
      for (const to of folders) {
        if (to === from) continue;
        const value = await layerErrors(`${from}/x.ts`, importOf(from, to, 'value'));
        const type = await layerErrors(`${from}/x.ts`, importOf(from, to, 'type'));
        expect(value.length > 0, `${from} -> ${to} refused`).toBe(!allowed.includes(to));
        const typesAllowed = allowed.includes(to) || allowed.includes(`types:${to}`);
        expect(type.length > 0, `${from} -> ${to} (types) refused`).toBe(!typesAllowed);
      }
    });
  }

  it('holds a file nested deeper in its folder to the same row', async () => {
    const code = "import { a } from '../../store/outbox.js';\nvoid a;\n";
    expect(await layerErrors('src/central/store/x.ts', code)).toHaveLength(1);
  });

  it('holds export-from and import() too', async () => {
    expect(
      await layerErrors('src/engine/x.ts', "export { a } from '../store/outbox.js';\n"),
    ).toHaveLength(1);
    const dynamic = "export const m = () => import('../store/outbox.js');\n";
    expect(await layerErrors('src/engine/x.ts', dynamic)).toHaveLength(1);
  });
});

describe('layer rule', () => {
  it('refuses a Node built-in in the engine', async () => {
    const errors = await layerErrors(
      'src/engine/x.ts',
      "import { readFileSync } from 'node:fs';\nreadFileSync('a');\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses better-sqlite3 outside the store', async () => {
    const code = "import Database from 'better-sqlite3';\nvoid Database;\n";
    expect(await layerErrors('src/sync/x.ts', code)).toHaveLength(1);
    expect(await layerErrors('src/store/x.ts', code)).toEqual([]);
    expect(await layerErrors('src/central/store/x.ts', code)).toEqual([]);
  });

  it('refuses undici outside sync', async () => {
    const code = "import { request } from 'undici';\nvoid request;\n";
    expect(await layerErrors('src/terminal/x.ts', code)).toHaveLength(1);
    expect(await layerErrors('src/sync/x.ts', code)).toEqual([]);
  });

  it('refuses serialport outside devices', async () => {
    const code = "import { SerialPort } from 'serialport';\nvoid SerialPort;\n";
    expect(await layerErrors('src/agent/x.ts', code)).toHaveLength(1);
    expect(await layerErrors('src/devices/x.ts', code)).toEqual([]);
  });

  it('refuses electron anywhere in src', async () => {
    const code = "import { app } from 'electron';\nvoid app;\n";
    expect(await layerErrors('src/cli/x.ts', code)).toHaveLength(1);
  });
});

describe('the import graph (npm run deps)', () => {
  it('has no cycle between folders', async () => {
    const { cycles, importGraph } = await import('../../.ci/deps.mjs');
    expect(cycles(importGraph())).toEqual([]);
  });
});

describe("each folder's README", () => {
  for (const folder of folders) {
    it(`${folder}/README.md states the row of the folder table`, () => {
      const text = readFileSync(`${folder}/README.md`, 'utf8');
      const at = text.indexOf('Layer (.ci/layers.mjs):');
      expect(at, 'a "Layer (.ci/layers.mjs):" paragraph').toBeGreaterThan(-1);
      const paragraph = text.slice(at).split('\n\n')[0]!;
      const named = [...paragraph.matchAll(/`((?:src\/)?[a-z-]+)`/g)].map((m) => m[1]);
      const row = (LAYERS[folder] ?? []).map((a) => a.replace(/^types:/, ''));
      expect([...named].sort()).toEqual([...row].sort());
    });
  }
});
