// Builds the cashier UI into renderer/dist: every renderer TypeScript module transpiled to an
// ES module with the options of renderer/tsconfig.json, plus index.html and styles.css.
// Type-only imports from src/contract vanish in the output, so dist holds the renderer
// alone (tsc itself would also emit the contract files it type-checks). Type checking is
// `tsc -p renderer/tsconfig.json`, which the npm script runs first.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const configPath = join(here, 'tsconfig.json');
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, here);
const outDir = parsed.options.outDir ?? join(here, 'dist');
const options = { ...parsed.options, noEmit: false, declaration: false, sourceMap: false };

rmSync(outDir, { recursive: true, force: true });
let count = 0;
for (const file of parsed.fileNames) {
  const rel = relative(here, file);
  if (rel.startsWith('..')) continue; // only the renderer's own modules
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: options,
    fileName: file,
  });
  const target = join(outDir, rel.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, out.outputText);
  count++;
}
for (const asset of ['index.html', 'styles.css'])
  copyFileSync(join(here, asset), join(outDir, asset));
const files = readdirSync(outDir, { recursive: true }).length;
console.log(JSON.stringify({ out: relative(process.cwd(), outDir) || '.', modules: count, files }));
