#!/usr/bin/env node
// Fails when a source file is over 400 lines or has a line over 120 columns. Biome wraps code at
// 120 but leaves long strings, template literals and comments alone, and nothing stops a file from
// growing: this check does both. Run by `pnpm lint` over every file git tracks or would track.
//
// What is checked: source by extension (SOURCE_EXTENSIONS). What is not: anything under a
// `fixtures/` directory (real tool output is kept byte for byte) and the EXCEPTIONS below. Each
// exception names who removes it; an exception that no longer covers a file over the limits is
// itself an error, so the list can only shrink.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX_LINES = 400;
export const MAX_COLUMNS = 120;

export const SOURCE_EXTENSIONS = [
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.css',
  '.html',
  '.sh',
  '.sql',
];

/**
 * Paths (a directory ending in `/`, or one file) still over the limits while their owners split
 * them. Keep this list short; remove an entry in the commit that brings its files under the limits.
 */
export const EXCEPTIONS = [];

/** True for a path this check applies to at all (source, not a fixture). */
export function isCheckedSource(path) {
  if (path.split('/').includes('fixtures')) return false;
  return SOURCE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/**
 * The limits a file's text breaks, as messages naming file and line: `path:line: ...`. Columns are
 * counted in characters (code points), as an editor shows them.
 */
export function sizeProblems(path, text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop(); // the final newline ends the last line, it does not start one
  const problems = [];
  if (lines.length > MAX_LINES) problems.push(`${path}: ${lines.length} lines (max ${MAX_LINES}): split it by concern`);
  lines.forEach((line, i) => {
    const columns = [...line.replace(/\r$/, '')].length;
    if (columns > MAX_COLUMNS) problems.push(`${path}:${i + 1}: ${columns} columns (max ${MAX_COLUMNS})`);
  });
  return problems;
}

function exceptionFor(path, exceptions) {
  return exceptions.find((e) => (e.path.endsWith('/') ? path.startsWith(e.path) : path === e.path));
}

/**
 * Checks `files` ({ path, text }) against the limits. Returns the problems outside the exceptions,
 * plus one problem per exception that covers no file over the limits (it should be removed).
 */
export function checkSizes(files, exceptions = EXCEPTIONS) {
  const problems = [];
  const used = new Set();
  for (const { path, text } of files) {
    if (!isCheckedSource(path)) continue;
    const found = sizeProblems(path, text);
    if (found.length === 0) continue;
    const exception = exceptionFor(path, exceptions);
    if (exception) used.add(exception);
    else problems.push(...found);
  }
  for (const exception of exceptions) {
    if (!used.has(exception)) {
      problems.push(`scripts/check-size.mjs: exception '${exception.path}' covers no file over the limits: remove it`);
    }
  }
  return problems;
}

function trackedFiles() {
  // --others --exclude-standard: a new file is checked before it is added, as the formatter does.
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter(Boolean))];
}

function main() {
  const files = [];
  for (const path of trackedFiles().filter(isCheckedSource)) {
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if (e.code === 'ENOENT') continue; // deleted in the work tree, not yet in the index
      throw e;
    }
    files.push({ path, text });
  }
  const problems = checkSizes(files);
  if (problems.length === 0) return;
  process.stderr.write(`check-size: ${problems.length} problem(s):\n${problems.join('\n')}\n`);
  process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
