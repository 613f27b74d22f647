// Builds the cashier UI into renderer/dist: one ES module bundle per page, main.js (the
// cashier's, which index.html loads) and display.js (the customer display's, display.html),
// plus the two pages and styles.css. esbuild follows the imports, so the pure
// modules of src/ the screen runs (src/money) and Preact land in the bundle and type-only
// imports from src/contract vanish; dist holds no import outside itself. The views are JSX
// (.tsx) compiled by the automatic runtime to calls of `preact/jsx-runtime`, as
// tsconfig.json says for tsc. The bundle is plain code: no eval, no inline script, no inline
// style, so the CSP of 'self' holds. Type checking is `tsc -p renderer/tsconfig.json`, which
// the npm script runs first (esbuild only strips types).
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'dist');

rmSync(outDir, { recursive: true, force: true });
const result = await build({
  // the cashier's page and the customer display (a second screen), each one bundle
  entryPoints: { main: join(here, 'main.ts'), display: join(here, 'display.ts') },
  outdir: outDir,
  tsconfig: join(here, 'tsconfig.json'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2024',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
  metafile: true,
});
for (const asset of ['index.html', 'display.html', 'styles.css'])
  copyFileSync(join(here, asset), join(outDir, asset));
const modules = Object.keys(result.metafile.inputs).length;
const files = readdirSync(outDir, { recursive: true }).length;
console.log(JSON.stringify({ out: relative(process.cwd(), outDir) || '.', modules, files }));
