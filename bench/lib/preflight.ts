/**
 * What a bench needs before it starts, checked in seconds rather than found missing after
 * minutes of generating fabrics: the built dashboard (built here when missing or stale), Debian
 * Chromium with the e2e package's Playwright, and the lab's tools. Each failure names the step
 * that provides what is missing.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join, resolve } from 'node:path';
import { findUmad2sim } from '../../packages/lab/src/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const WEB_DIST = resolve(ROOT, 'apps/web/dist');

export type Need = 'web' | 'chromium' | 'lab';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const onPath = (cmd: string) => (process.env.PATH ?? '').split(delimiter).some((d) => executable(join(d, cmd)));

/** Builds apps/web/dist when it is missing or older than its sources (scripts/ensure-web-build.mjs). */
function ensureWebBuild(): void {
  try {
    execFileSync(process.execPath, [resolve(ROOT, 'scripts/ensure-web-build.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch {
    throw new Error('the dashboard could not be built: run `pnpm build` and fix what it reports');
  }
}

function requireChromium(): void {
  if (!executable(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: run \`bash scripts/setup.sh\` (Debian package chromium) or set CHROMIUM_PATH`,
    );
  try {
    createRequire(resolve(ROOT, 'e2e/package.json')).resolve('@playwright/test');
  } catch {
    throw new Error('@playwright/test is not installed in e2e/: run `bash scripts/setup.sh` (pnpm install)');
  }
}

async function requireLabTools(): Promise<void> {
  const missing = ['ibsim', 'opensm', 'ibqueryerrors', 'ibnetdiscover'].filter((t) => !onPath(t));
  if (missing.length)
    throw new Error(`the live lab needs ${missing.join(', ')} on PATH: run \`bash scripts/setup.sh\` (as root)`);
  try {
    await findUmad2sim();
  } catch (e) {
    throw new Error(`${(e as Error).message}: run \`bash scripts/setup.sh\` (as root)`);
  }
}

/** Checks (and builds) everything `needs` asks for; throws naming the first missing step. */
export async function preflight(needs: Iterable<Need>): Promise<void> {
  const set = new Set(needs);
  if (set.has('chromium')) requireChromium();
  if (set.has('lab')) await requireLabTools();
  if (set.has('web')) ensureWebBuild();
}
