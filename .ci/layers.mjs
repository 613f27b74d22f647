// The layers of the repository (issue 14; shared/style.md, "What we take", 1), VS Code style:
// every folder of src/, main/ and renderer/ lists the folders it may import, and everything
// else is refused. Each row says what the folder's README says. eslint.config.js enforces the
// table (the `layers/imports` rule below), test/lint/layers.test.ts proves every cell bites,
// and `npm run deps` (.ci/deps.mjs) prints the graph the code actually has.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `types:` before a folder: only `import type` from it (nothing of it runs there). */
export const LAYERS = {
  'src/money': [],
  'src/contract': [],
  'src/secret-hash': [],
  'src/http': [],
  'src/config': ['src/contract'],
  'src/engine': ['src/contract', 'src/money'],
  'src/devices': ['src/contract', 'src/money'],
  'src/store': ['src/contract', 'src/money', 'src/secret-hash'],
  'src/sync': ['src/contract', 'src/money', 'src/store', 'src/secret-hash'],
  'src/central': ['src/contract', 'src/money', 'src/engine', 'src/secret-hash', 'src/http'],
  'src/terminal': [
    'src/contract',
    'src/money',
    'src/engine',
    'src/devices',
    'src/store',
    'src/sync',
    'src/secret-hash',
    'src/config',
  ],
  'src/agent': ['src/contract', 'src/config', 'src/terminal', 'src/http'],
  'src/cli': [
    'src/contract',
    'src/money',
    'src/engine',
    'src/devices',
    'src/store',
    'src/sync',
    'src/secret-hash',
    'src/central',
    'src/config',
    'src/http',
    'src/terminal',
    'src/agent',
  ],
  // main wires the embedded sandbox (src/central/embedded.ts) into the terminal, as the CLI does.
  main: ['src/contract', 'src/config', 'src/terminal', 'src/agent', 'src/central'],
  // The cashier's screen: the contract's types, and src/money (pure) so amounts round alike.
  renderer: ['types:src/contract', 'src/money'],
};

/** The folder a file belongs to: `src/<name>` for the core, else its top folder. */
export function folderOf(file) {
  const parts = relative(root, file).split(sep);
  if (parts[0] === 'src' && parts.length > 2) return `src/${parts[1]}`;
  return parts[0];
}

/**
 * Why `spec`, imported from `file`, breaks the table (null when it may). Only our own
 * folders are judged: packages and Node modules have their own rules.
 */
export function layerViolation(file, spec, typeOnly) {
  if (!spec.startsWith('.')) return null;
  const from = folderOf(file);
  const allowed = LAYERS[from];
  if (!allowed) return null;
  const to = folderOf(resolve(dirname(file), spec));
  if (to === from || !(to in LAYERS)) return null;
  if (allowed.includes(to)) return null;
  if (typeOnly && allowed.includes(`types:${to}`)) return null;
  const may = allowed.length === 0 ? 'nothing of ours' : allowed.join(', ');
  return allowed.includes(`types:${to}`)
    ? `${from} may import only types from ${to}.`
    : `${from} may not import ${to} (it may import: ${may}). See .ci/layers.mjs.`;
}
