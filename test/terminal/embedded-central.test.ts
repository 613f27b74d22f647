// With no central URL configured the terminal runs the sandbox it is given
// (StartEmbeddedCentral, src/terminal/ports.ts); it never starts one on its own.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedCentral } from '../../src/central/embedded.js';
import { memorySecretStore } from '../support/secrets.js';
import { ConfigSchema } from '../../src/contract/config.js';
import { nullLogger } from '../../src/terminal/log.js';
import type { StartEmbeddedCentral } from '../../src/terminal/ports.js';
import { createTerminal } from '../../src/terminal/terminal.js';
import { tempDir } from './helpers.js';

const start = (dataDir: string, embeddedCentral?: StartEmbeddedCentral) =>
  createTerminal({
    dataDir,
    config: ConfigSchema.parse({}),
    secrets: memorySecretStore(),
    log: nullLogger,
    startSync: false,
    ...(embeddedCentral ? { embeddedCentral } : {}),
  });

describe('the embedded sandbox', () => {
  it('is the one the launcher passes in, over DIR/sandbox-central.sqlite, and closes with the terminal', async () => {
    const dir = tempDir();
    const started: string[] = [];
    let closed = 0;
    const terminal = await start(dir, async (o) => {
      started.push(o.db);
      const central = await startEmbeddedCentral(o);
      return { ...central, close: () => ((closed += 1), central.close()) };
    });
    try {
      expect(started).toEqual([join(dir, 'sandbox-central.sqlite')]);
      expect(existsSync(join(dir, 'sandbox-central.sqlite'))).toBe(true);
      expect((await terminal.sync.pull()).ok).toBe(true);
    } finally {
      await terminal.close();
    }
    expect(closed).toBe(1);
  });

  it('is never started by the terminal itself: with no URL and none given, the start fails', async () => {
    await expect(start(tempDir())).rejects.toThrow(/no central\.url .* no embedded sandbox/);
  });
});
