import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The real electron module fetches its binary on first load; tests never load it.
    alias: { electron: fileURLToPath(new URL('./test/mocks/electron.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // every command's output is checked against its schema in the tests, the trusted ones too
    // (src/terminal/command-map.ts, TRUSTED_OUTPUTS); the agents tests spawn inherit it
    env: { LT_CHECK_OUTPUTS: 'all' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
