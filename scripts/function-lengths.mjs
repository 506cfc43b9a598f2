#!/usr/bin/env node
// Size of a package's source: files, lines, and the functions longer than a limit (tests left out).
// `node scripts/function-lengths.mjs [dir=packages/core/src] [limit=80]`; `--list` prints each long one.
// A function's length counts its own lines, nested functions included (so an outer function that
// only holds long inner ones is listed too).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2).filter((a) => a !== '--list');
const dir = args[0] ?? 'packages/core/src';
const limit = Number(args[1] ?? 80);

const sources = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });

const nameOf = (node) => {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return '(anonymous)';
};

let lines = 0;
const long = [];
const files = sources(dir);
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > limit) long.push({ where: `${relative(process.cwd(), file)}:${start + 1}`, name: nameOf(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(JSON.stringify({ dir, files: files.length, lines, limit, functionsOverLimit: long.length }));
if (process.argv.includes('--list')) for (const f of long.sort((a, b) => b.lines - a.lines)) console.log(`${f.lines}\t${f.name}\t${f.where}`);
