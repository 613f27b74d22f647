// The import graph between folders (issue 14): which folder of src/, main/ and renderer/
// imports which, as a Markdown table, and the cycles between folders. `npm run deps` prints
// it; `--json` prints the graph for tests. Exits 1 when folders import each other in a cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderOf, root } from './layers.mjs';

const ROOTS = ['src', 'main', 'renderer'];
const SKIP = new Set(['node_modules', 'dist']);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function importGraph() {
  const graph = new Map();
  for (const top of ROOTS) {
    for (const file of sources(join(root, top))) {
      const from = folderOf(file);
      if (!graph.has(from)) graph.set(from, new Set());
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec);
        if (!ROOTS.some((r) => target.startsWith(join(root, r) + sep))) continue;
        const to = folderOf(target);
        if (to !== from) graph.get(from).add(to);
      }
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const out = [];
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const found = cycles(graph);
  if (process.argv.includes('--json')) {
    const plain = Object.fromEntries([...graph].map(([k, v]) => [k, [...v].sort()]));
    console.log(JSON.stringify({ graph: plain, cycles: found }, null, 2));
  } else {
    console.log('| folder | imports |\n| --- | --- |');
    for (const k of [...graph.keys()].sort())
      console.log(`| ${k} | ${[...graph.get(k)].sort().join(', ') || '(nothing of ours)'} |`);
    console.log(
      found.length === 0
        ? '\nNo cycle between folders.'
        : `\nCycles: ${found.map((c) => c.join(' <-> ')).join('; ')}`,
    );
  }
  process.exitCode = found.length === 0 ? 0 : 1;
}
