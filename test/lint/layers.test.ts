// The layers of shared/style.md ("What we take", 1) are held by eslint.config.js; these
// tests prove the rule bites, so a config change that loosens it fails here.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('layer rule', () => {
  it('refuses a Node built-in in the engine', async () => {
    const errors = await layerErrors(
      'src/engine/x.ts',
      "import { readFileSync } from 'node:fs';\nreadFileSync('a');\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses the store in the engine', async () => {
    const errors = await layerErrors(
      'src/engine/x.ts',
      "import { a } from '../store/outbox.js';\nvoid a;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('lets the engine import money and contract', async () => {
    const code =
      "import { dec } from '../money/index.js';\nimport { flag } from '../contract/wire.js';\nvoid dec; void flag;\n";
    expect(await layerErrors('src/engine/x.ts', code)).toEqual([]);
  });

  it('refuses the engine in money', async () => {
    expect(
      await layerErrors('src/money/x.ts', "import { a } from '../engine/calculate.js';\nvoid a;\n"),
    ).toHaveLength(1);
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

  it('lets the renderer import types from the contract only', async () => {
    const typeOnly =
      "import type { Check } from '../src/contract/index.js';\nexport type X = Check;\n";
    expect(await layerErrors('renderer/x.ts', typeOnly)).toEqual([]);
    const value = "import { contract } from '../src/contract/index.js';\nvoid contract;\n";
    expect(await layerErrors('renderer/x.ts', value)).toHaveLength(1);
  });

  it('refuses the renderer any other part of src', async () => {
    const code = "import type { X } from '../src/engine/calculate.js';\nexport type Y = X;\n";
    expect(await layerErrors('renderer/x.ts', code)).toHaveLength(1);
  });
});
