// The V8 flags the till's Node runs with, wherever it is started: the `loyalty-terminal`
// command's shebang, `npm start`, `npm run bench` and Electron's main process (js-flags).
// A young generation of at most 16 MB a half: V8 grows it to 64 MB (128 MB at times) while a
// snapshot's pages arrive as fast as they are applied, which took the apply's peak RSS over its
// 300 MB target (330 MB measured) for no speed (docs/sync.md, "Apply speed").
// test/config/runtime-flags.test.ts holds every launcher to this list.
export const V8_FLAGS = ['--max-semi-space-size=16'] as const;
