#!/usr/bin/env node
// Builds the dashboard (apps/web/dist) when it is missing or older than what it is built from,
// so that the demo and the benches never serve a stale or absent SPA. Fast when it is current.
// `--check` only says whether a build is needed (exit 1 if so) without building.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DIST_INDEX = join(ROOT, 'apps/web/dist/index.html');
// The SPA's sources and what Vite bundles into it (the shared API types of packages/fabric).
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/fabric/src',
];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

export function webBuildReason() {
  if (!existsSync(DIST_INDEX)) return 'apps/web/dist is missing';
  const built = statSync(DIST_INDEX).mtimeMs;
  const stale = SOURCES.map((s) => join(ROOT, s)).filter((s) => existsSync(s) && newestMtime(s) > built);
  return stale.length ? `apps/web/dist is older than ${stale.map((s) => s.slice(ROOT.length + 1)).join(', ')}` : null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reason = webBuildReason();
  if (!reason) process.exit(0);
  if (process.argv.includes('--check')) {
    process.stderr.write(`${reason}: run pnpm build\n`);
    process.exit(1);
  }
  process.stderr.write(`${reason}: building it (pnpm build)\n`);
  try {
    execFileSync('pnpm', ['build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (e) {
    process.stderr.write(`pnpm build failed (exit ${e.status ?? '?'})\n`);
    process.exit(1);
  }
}
