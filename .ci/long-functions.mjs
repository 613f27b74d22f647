// Functions longer than a reader takes in at once (issue 14: about 80 lines). Lists every
// function, method and arrow function of src/, main/ and renderer/ over the limit, longest
// first, with its file and line: `npm run long-functions [-- --limit N] [-- --root DIR]`.
// A function's length is its own lines: the functions nested in it are measured on their
// own, so a factory of short methods is short. A function may stay long with a reason: a
// comment containing `long:` right above it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { root as repoRoot } from './layers.mjs';

const { values } = parseArgs({
  options: { limit: { type: 'string', default: '80' }, root: { type: 'string' } },
});
const LIMIT = Number(values.limit);
const root = values.root ?? repoRoot;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  return '(anonymous)';
}

const isFunction = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n);

function spanOf(node, sf) {
  const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  return sf.getLineAndCharacterOfPosition(node.end).line - start + 1;
}

/** Lines of the functions nested directly in `node` (each is measured on its own). */
function nestedLines(node, sf) {
  let total = 0;
  ts.forEachChild(node, (child) => {
    if (isFunction(child) && child.body) total += Math.max(0, spanOf(child, sf) - 1);
    else total += nestedLines(child, sf);
  });
  return total;
}

/** A `long:` comment above the function (or above the statement that holds it). */
function hasReason(node, text) {
  for (let n = node; n && !ts.isSourceFile(n); n = n.parent) {
    const comments = ts.getLeadingCommentRanges(text, n.getFullStart()) ?? [];
    if (comments.some((c) => text.slice(c.pos, c.end).includes('long:'))) return true;
    if (ts.isStatement(n) || ts.isClassElement(n) || ts.isPropertyAssignment(n)) return false;
  }
  return false;
}

function longFunctions(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const lines = spanOf(node, sf) - nestedLines(node.body, sf);
      const reason = hasReason(node, text);
      if (lines > LIMIT)
        out.push({
          file: relative(root, file),
          line: start + 1,
          name: nameOf(node, sf),
          lines,
          reason,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const found = ['src', 'main', 'renderer']
  .flatMap((top) => [...sources(join(root, top))].flatMap(longFunctions))
  .sort((a, b) => b.lines - a.lines);
for (const f of found)
  console.log(
    `${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}${f.reason ? '  (long: reason given)' : ''}`,
  );
console.log(
  `${found.length} functions over ${LIMIT} lines (${found.filter((f) => !f.reason).length} without a reason)`,
);
