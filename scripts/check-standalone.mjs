#!/usr/bin/env node
// Fails when a tracked file points outside the repository at the team's reference folder: the
// project must stand alone for whoever clones it. The pattern is assembled so that this file
// does not match itself.
import { execFileSync } from 'node:child_process';

const folder = ['sha', 'red'].join('');
const pattern = `(\\.\\./|/work/)${folder}(/|\\b)`;
let out = '';
try {
  out = execFileSync('git', ['grep', '-n', '-I', '-E', pattern, '--', '.', ':!pnpm-lock.yaml'], { encoding: 'utf8' });
} catch (e) {
  if (e.status === 1) process.exit(0); // git grep: no match
  throw e;
}
process.stderr.write(`check-standalone: tracked files reference a folder outside the repository:\n${out}`);
process.exit(1);
