// "No one gets in" (issue 8), the parts a test can hold that test/agent and test/main do not:
// SQL only through prepared statements, and only in the store; the main process loading only
// our own scheme through the checked window options; the agent's every API route and command
// closed to a caller without the token, on no address but loopback.
//
// The SQL scan reads the TypeScript of src/: better-sqlite3 mentioned anywhere outside
// src/store and src/central/store fails, as does a `.prepare(` or SQL `.exec(` whose text is
// built from a template literal with `${}` or a `+` concatenation, unless what is put in is a
// constant (UPPER_CASE), a quoted identifier (`q(...)`), or listed below with why it is not a
// value. It cannot see SQL assembled in a variable first; review keeps that rare.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/server.js';
import { commandNames } from '../../src/contract/commands.js';
import { agentFor } from '../agent/helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Interpolations that are identifiers or SQL the code itself wrote, never a value. */
const REVIEWED: Record<string, string[]> = {
  // Table and column names from the store's own ENTITIES map (and each table's staging twin,
  // `staged_` + that name), and placeholders. The snapshot swap (DROP TABLE `table`, ALTER
  // TABLE `staged` RENAME TO `table`) also runs the schema's own SQL of the live indexes and
  // of the twin as it is (read from sqlite_schema, written by the migrations; not a template,
  // so not scanned here).
  'src/store/cache.ts': [
    'table',
    'staged',
    "cols.join(', ')",
    "cols.map(() => '?').join(', ')",
    'set',
  ],
  // The staging statements: the twins' names and columns from the same map (the snapshot
  // writer's thread is sent them by the store, snapshot-writer.ts), and placeholders.
  'src/store/feed-writes.ts': [
    'staged',
    "cols.join(', ')",
    'set',
    // a staging INSERT's rows: `row` (placeholders only) repeated
    'values',
  ],
  // A WHERE clause built only from q()-quoted primary-key column names.
  'src/store/recovery-salvage.ts': ['where'],
};

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (/\.(ts|cts|mts|js|cjs|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

const rel = (path: string) => relative(root, path).split(sep).join('/');
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

interface Finding {
  where: string;
  what: string;
}

/** The `${...}` expressions of the template literal starting at `start` (a backtick). */
function interpolations(text: string, start: number): { exprs: string[]; end: number } {
  const exprs: string[] = [];
  let i = start + 1;
  while (i < text.length && text[i] !== '`') {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '$' && text[i + 1] === '{') {
      let depth = 1;
      const from = i + 2;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}') depth--;
        i++;
      }
      exprs.push(text.slice(from, i - 1).trim());
    } else i++;
  }
  return { exprs, end: i };
}

const SQL_WORDS = /\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|VALUES)\b/i;
/** A constant, a q()-quoted identifier, or the text of a statement the code prepared itself. */
const SAFE_EXPR = /^([A-Z][A-Z0-9_]*|q\([^()]*\)|[A-Za-z_][\w.]*\.source)$/;

function sqlFindings(file: string): Finding[] {
  const text = readFileSync(file, 'utf8');
  const name = rel(file);
  const out: Finding[] = [];
  const call = /\.(prepare|exec)\s*(<[^()]*?>)?\s*\(\s*/g;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    const at = m.index + m[0].length;
    const where = `${name}:${lineOf(text, m.index)}`;
    const first = text[at];
    if (first === '`') {
      const { exprs, end } = interpolations(text, at);
      const body = text.slice(at, end);
      if (m[1] === 'exec' && !SQL_WORDS.test(body)) continue; // RegExp.exec and the like
      for (const e of exprs) {
        if (SAFE_EXPR.test(e) || REVIEWED[name]?.includes(e)) continue;
        out.push({ where, what: `\${${e}} put into SQL text` });
      }
      if (/^\s*\+/.test(text.slice(end + 1)))
        out.push({ where, what: 'SQL text concatenated with +' });
    } else if (first === "'" || first === '"') {
      let i = at + 1;
      while (i < text.length && text[i] !== first) i += text[i] === '\\' ? 2 : 1;
      const literal = text.slice(at, i + 1);
      if (m[1] === 'exec' && !SQL_WORDS.test(literal)) continue;
      if (/^\s*\+/.test(text.slice(i + 1)))
        out.push({ where, what: 'SQL text concatenated with +' });
    }
  }
  return out;
}

describe('SQL only through prepared statements, only in the store', () => {
  const sources = ['src', 'main', 'renderer']
    .map((d) => join(root, d))
    .filter((d) => {
      try {
        return statSync(d).isDirectory();
      } catch {
        return false;
      }
    })
    .flatMap((d) => filesUnder(d))
    .filter((f) => !f.includes(`${sep}node_modules${sep}`) && !f.includes(`${sep}dist${sep}`));

  it('finds the sources it scans', () => {
    expect(sources.some((f) => rel(f) === 'src/store/ledger.ts')).toBe(true);
  });

  it('mentions better-sqlite3 nowhere outside src/store and src/central/store', () => {
    const outside = sources
      .filter((f) => !/^src\/(store|central\/store)\//.test(rel(f)))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        const found: string[] = [];
        const re = /['"`]better-sqlite3['"`]/g;
        for (let m = re.exec(text); m; m = re.exec(text))
          found.push(`${rel(f)}:${lineOf(text, m.index)}`);
        return found;
      });
    expect(outside).toEqual([]);
  });

  it('builds no SQL text from values: no ${} of a value and no + in .prepare or .exec', () => {
    const findings = sources.flatMap(sqlFindings).map((f) => `${f.where}: ${f.what}`);
    expect(findings).toEqual([]);
  });

  it('the scan bites: it names the file and line of a value put into SQL', () => {
    const probe = join(root, 'test', 'reliability', 'fixtures', 'unsafe-sql.txt');
    expect(sqlFindings(probe).map((f) => f.where.replace(/^.*\//, ''))).toEqual([
      'unsafe-sql.txt:2',
      'unsafe-sql.txt:3',
      'unsafe-sql.txt:5',
    ]);
  });
});

describe('the Electron main process', () => {
  const main = filesUnder(join(root, 'main')).map((f) => ({
    name: rel(f),
    text: readFileSync(f, 'utf8'),
  }));
  const code = (t: string) => t.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');

  it('17/18: loads no file:// page; the window shows our own scheme only', () => {
    for (const f of main) {
      expect(code(f.text), f.name).not.toMatch(/loadFile\(|['"`]file:\/\//);
    }
    const mainTs = main.find((f) => f.name === 'main/main.ts')!;
    expect(code(mainTs.text)).toMatch(/loadURL\(`\$\{APP_ORIGIN\}/);
  });

  it('creates every window through the checked window options', () => {
    // displayWindowOptions is windowOptions placed on another screen (window-options.test.ts)
    for (const f of main) {
      const windows = code(f.text).match(/new BrowserWindow\(\s*[^\s]+/g) ?? [];
      for (const w of windows)
        expect(w, f.name).toMatch(/new BrowserWindow\(\s*(windowOptions|displayWindowOptions)\(/);
    }
  });

  it('14: never hands a URL to the OS shell', () => {
    for (const f of main) expect(code(f.text), f.name).not.toMatch(/openExternal|openPath/);
  });

  it('switches no checklist setting off anywhere in main/', () => {
    for (const f of main) {
      expect(code(f.text), f.name).not.toMatch(
        /nodeIntegration\s*:\s*true|contextIsolation\s*:\s*false|sandbox\s*:\s*false|webSecurity\s*:\s*false|allowRunningInsecureContent\s*:\s*true/,
      );
    }
  });
});

describe('the agent lets no one in without the token', () => {
  let agent: Agent;
  beforeAll(async () => {
    agent = await agentFor();
  });
  afterAll(() => agent.close());

  const routes: Array<[string, string]> = [
    ['GET', '/api/status'],
    ['GET', '/api/events'],
    ['POST', '/api/session-codes'],
    ...commandNames.map((n): [string, string] => ['POST', `/api/commands/${n}`]),
  ];

  it('refuses every API route and every command without a token, with 401', async () => {
    for (const [method, path] of routes) {
      const res = await fetch(`${agent.url}${path}`, {
        method,
        ...(method === 'POST'
          ? { body: '{}', headers: { 'Content-Type': 'application/json' } }
          : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      await res.body?.cancel();
    }
  });

  it('refuses a token of the right length that is not the token', async () => {
    const wrong = agent.token.replace(/./g, (c) => (c === 'a' ? 'b' : 'a'));
    for (const [method, path] of routes.slice(0, 4)) {
      const res = await fetch(`${agent.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${wrong}`, 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      await res.body?.cancel();
    }
  });

  it('cannot be reached on any address of the machine but loopback', async () => {
    const { connect } = await import('node:net');
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a!.address);
    for (const host of external) {
      const reached = await new Promise<boolean>((done) => {
        const s = connect({ host, port: agent.port, timeout: 2_000 });
        s.once('connect', () => {
          s.destroy();
          done(true);
        });
        s.once('timeout', () => {
          s.destroy();
          done(false);
        });
        s.once('error', () => done(false));
      });
      expect(reached, host).toBe(false);
    }
  });
});
