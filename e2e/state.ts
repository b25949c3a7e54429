import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What global-setup started, for the specs and for global-teardown. */
export interface E2eState {
  baseURL: string;
  port: number;
  token: string;
  /** Temp dir holding the lab dir, the database and the collector log. */
  tmpDir: string;
  labDir: string;
  dbFile: string;
  collectorLog: string;
  collectorPid: number | null;
  /** The collector's IBWATCH_* settings (for the CLI run against its database). */
  collectorEnv?: Record<string, string>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..');
// E2E_STATE_FILE lets two checkouts' runs (or two engineers in one tree) keep apart.
export const STATE_FILE = resolve(process.env.E2E_STATE_FILE ?? resolve(HERE, '.state.json'));
export const OUTPUT_DIR = resolve(HERE, 'output');

export function readState(): E2eState {
  try {
    return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
  } catch (err) {
    throw new Error(`no e2e state at ${STATE_FILE} (global-setup did not run or failed): ${String(err)}`);
  }
}

/**
 * True while `pid` is still the collector this run started: checked through /proc so a PID the
 * kernel has handed to another process since is never signalled.
 */
export function collectorAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('apps/collector/src/server.ts');
  } catch {
    return false;
  }
}
