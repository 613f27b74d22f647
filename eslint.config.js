// One lint setup for the whole repository. Besides the usual checks it holds the layers of
// shared/style.md ("What we take", 1): which folder may import which module. The rule is
// tested in test/lint/layers.test.ts, so a change that stops it biting fails the suite.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), 'node:*'];
const natives = {
  'better-sqlite3': 'SQL lives only in src/store and src/central/store.',
  undici: 'HTTP goes through src/sync only.',
  serialport: 'Serial lines belong to src/devices only.',
  '@serialport/*': 'Serial lines belong to src/devices only.',
  electron: 'src/ runs in plain Node; Electron is wired in main/ only.',
};

/** Build the no-restricted-imports options for one layer. */
function layer({ node = true, allow = [], extraGroups = [] }) {
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
  patterns.push(...extraGroups);
  return ['error', { patterns }];
}

const otherSrc = (keep) => ({
  group: [
    ...[
      'engine',
      'store',
      'sync',
      'devices',
      'terminal',
      'agent',
      'central',
      'cli',
      'money',
      'contract',
    ]
      .filter((d) => !keep.includes(d))
      .flatMap((d) => [`../${d}`, `../${d}/*`, `../../${d}`, `../../${d}/*`]),
  ],
  message: 'Layer violation: see shared/style.md, "What we take", 1.',
});

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
  {
    files: ['src/money/**/*.ts'],
    rules: { [rule]: layer({ node: false, extraGroups: [otherSrc(['money'])] }) },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: { [rule]: layer({ node: false, extraGroups: [otherSrc(['contract'])] }) },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      [rule]: layer({ node: false, extraGroups: [otherSrc(['engine', 'money', 'contract'])] }),
    },
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
  // The renderer talks to the API only: it may import types from src/contract, nothing else of src/.
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      [rule]: [
        'error',
        {
          patterns: [
            {
              group: ['**/src/contract', '**/src/contract/*'],
              allowTypeImports: true,
              message: 'The renderer imports only types from src/contract.',
            },
            {
              group: ['**/src/*', '!**/src/contract', '!**/src/contract/*', '**/main/*'],
              message: 'The renderer talks only to the API, never to src/ or main/.',
            },
            { group: nodeBuiltins, message: 'The renderer runs in the browser: no Node modules.' },
            ...Object.entries(natives).map(([name, message]) => ({ group: [name], message })),
          ],
        },
      ],
    },
  },
);
