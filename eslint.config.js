// One lint setup for the whole repository. Besides the usual checks it holds the layers of
// shared/style.md ("What we take", 1): which folder may import which module. The rule is
// tested in test/lint/layers.test.ts, so a change that stops it biting fails the suite.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { layerViolation } from './.ci/layers.mjs';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), 'node:*'];
const natives = {
  'better-sqlite3': 'SQL lives only in src/store and src/central/store.',
  undici: 'HTTP goes through src/sync only.',
  serialport: 'Serial lines belong to src/devices only.',
  '@serialport/*': 'Serial lines belong to src/devices only.',
  electron: 'src/ runs in plain Node; Electron is wired in main/ only.',
};

/** Build the no-restricted-imports options for one layer. */
function layer({ node = true, allow = [] }) {
  const patterns = [];
  if (!node) {
    patterns.push({
      group: nodeBuiltins,
      message: 'This layer is pure: no Node built-in modules (pass effects in as ports).',
    });
  }
  for (const [name, message] of Object.entries(natives)) {
    if (!allow.includes(name)) patterns.push({ group: [name], message });
  }
  return ['error', { patterns }];
}

/** Holds the folder table of .ci/layers.mjs on every import, export-from and import(). */
const layers = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const check = (node, source, typeOnly) => {
          if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
          const message = layerViolation(context.filename, source.value, typeOnly);
          if (message) context.report({ node, message });
        };
        const allTypes = (node) =>
          node.importKind === 'type' ||
          node.exportKind === 'type' ||
          (node.specifiers?.length > 0 &&
            node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
        return {
          ImportDeclaration: (node) => check(node, node.source, allTypes(node)),
          ExportNamedDeclaration: (node) => check(node, node.source, allTypes(node)),
          ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
          ImportExpression: (node) => check(node, node.source, false),
        };
      },
    },
  },
};

const rule = '@typescript-eslint/no-restricted-imports';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'renderer/dist/**',
      'test-results/**',
      'test/lint/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Default for src/: Node is fine, natives only in their own folder, never Electron.
  { files: ['src/**/*.ts'], rules: { [rule]: layer({}) } },
  // Which folder may import which: the table of .ci/layers.mjs, for every folder.
  {
    files: ['src/**/*.ts', 'main/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { layers },
    rules: { 'layers/imports': 'error' },
  },
  // The pure layers: no Node built-ins either.
  {
    files: ['src/money/**/*.ts', 'src/contract/**/*.ts', 'src/engine/**/*.ts'],
    rules: { [rule]: layer({ node: false }) },
  },
  {
    files: ['src/store/**/*.ts', 'src/central/store/**/*.ts'],
    rules: { [rule]: layer({ allow: ['better-sqlite3'] }) },
  },
  { files: ['src/sync/**/*.ts'], rules: { [rule]: layer({ allow: ['undici'] }) } },
  {
    files: ['src/devices/**/*.ts'],
    rules: { [rule]: layer({ allow: ['serialport', '@serialport/*'] }) },
  },
  // The renderer runs in the browser: no Node modules and no natives (its imports of our
  // folders are the layers table's).
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      [rule]: [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'The renderer runs in the browser: no Node modules.' },
            ...Object.entries(natives).map(([name, message]) => ({ group: [name], message })),
          ],
        },
      ],
    },
  },
);
