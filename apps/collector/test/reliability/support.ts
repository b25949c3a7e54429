// Shared helpers of the reliability suite: temp dirs, configs, a database fingerprint, and a
// ToolRunner that plays back canned tool outputs (the runner's documented test seam).
import { makeTempDir, removeDir, TEST_TOKEN, testCollectorEnv } from '@ibwatch/testkit';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/open-db.ts';
import type { RunOptions, ToolRun, ToolRunner } from '../../src/sources/tool-runner.ts';
import { cannedToolCall } from '../../src/test-support.ts';

export const REPO = resolve(import.meta.dirname, '../../../..');
// The two real ibdiagnet2 runs are fixtures of packages/parsers (see its SOURCE.md).
export const RUN_A = join(REPO, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-a');
export const RUN_B = join(REPO, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-b');
export const PARSER_FIXTURES = join(REPO, 'packages/parsers/fixtures');
export const BAD_FIXTURES = resolve(import.meta.dirname, '../fixtures/bad');
export const TOKEN = TEST_TOKEN;

const made: string[] = [];

/** A fresh temp dir, removed by {@link cleanupTemp}. */
export function tempDir(prefix: string): string {
  const d = makeTempDir(`ibw-rel-${prefix}`);
  made.push(d);
  return d;
}

export function cleanupTemp(): void {
  for (const d of made.splice(0)) removeDir(d);
}

/** A config for tests: everything under `dir`, no web UI, no jitter. */
export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig(
    testCollectorEnv(dir, {
      IBWATCH_WEB_DIST: join(dir, 'no-web'),
      IBWATCH_IBDIAGNET_OUT: join(dir, 'ibdiagnet-out'),
      IBWATCH_LAB_DIR: join(dir, 'no-lab'),
      IBWATCH_JITTER_MS: '0',
      ...env,
    }),
  );
}

/** Tables whose content is "the fabric as ibwatch knows it"; scans and raw_outputs are the audit trail. */
const DATA_TABLES = [
  'nodes',
  'ports',
  'links',
  'port_state_history',
  'counter_last',
  'counter_deltas',
  'counter_rollups',
  'sm_observations',
  'sm_events',
  'nccl_runs',
  'nccl_results',
  'findings',
  'cables',
];

/**
 * Row counts plus a hash of every row of the data tables, in a stable order: equal
 * fingerprints mean nothing earlier in the database changed.
 */
export function fingerprint(db: Db): string {
  const h = createHash('sha256');
  const counts: string[] = [];
  for (const t of DATA_TABLES) {
    const rows = db.prepare(`SELECT * FROM ${t}`).raw().all() as unknown[][];
    const lines = rows.map((r) =>
      JSON.stringify(r, (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v,
      ),
    );
    lines.sort();
    for (const l of lines) h.update(l).update('\n');
    counts.push(`${t}=${rows.length}`);
  }
  return `${counts.join(' ')} ${h.digest('hex').slice(0, 16)}`;
}

/** How to start a process to which file modes apply, or why it cannot be done here. */
export type ModesApply = { argv: string[]; reason?: undefined } | { argv?: undefined; reason: string };

/**
 * The command prefix that starts a process to which file modes apply. A non-root user needs none.
 * Root ignores modes through CAP_DAC_OVERRIDE (and CAP_DAC_READ_SEARCH), so it runs under
 * `setpriv` with both dropped from the bounding set: still root, owner of the checkout wherever it
 * lives (a 0700 home included, which `nobody` could not enter), but a 0444 file now refuses
 * `open(O_RDWR)` with EACCES, as for any user. Dropping needs CAP_SETPCAP (Docker grants it); a
 * probe on a 0444 file in `dir` checks it really refuses, else the reason is returned.
 */
export function modesApply(dir: string): ModesApply {
  if (process.getuid?.() !== 0) return { argv: [] };
  const argv = ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'];
  const probe = join(dir, 'modes-probe');
  writeFileSync(probe, '');
  chmodSync(probe, 0o444);
  const code = `try { require('fs').openSync(${JSON.stringify(probe)}, 'r+'); } catch (e) { console.log(e.code); }`;
  const r = spawnSync(argv[0]!, [...argv.slice(1), process.execPath, '-e', code], { encoding: 'utf8' });
  if (r.error) return { reason: `setpriv could not run (${r.error.message}); root ignores file modes` };
  if (r.stdout.trim() !== 'EACCES')
    return { reason: `root without CAP_DAC_OVERRIDE still opened a 0444 file (${r.stdout}${r.stderr})`.trim() };
  return { argv };
}

export interface CannedOutput {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/**
 * A ToolRunner that answers from a table keyed `tool args...` (falling back to `tool`), so the
 * collector's diags source parses exactly the text a test hands it. `-V` answers a version.
 */
export class CannedRunner implements ToolRunner {
  outputs = new Map<string, CannedOutput>();
  calls: string[] = [];

  set(key: string, out: CannedOutput): this {
    this.outputs.set(key, out);
    return this;
  }

  async run(tool: string, args: string[], _opts?: Partial<RunOptions>): Promise<ToolRun> {
    this.calls.push([tool, ...args].join(' '));
    const base = { tool, args, signal: null, durationMs: 1, timedOut: false, truncated: false, spawnError: null };
    if (args[0] === '-V')
      return { ...base, stdout: '', stderr: `${tool} BUILD VERSION: 44.0 Build date: test`, exitCode: 0 };
    const { key, snapshot } = cannedToolCall(tool, args);
    if (snapshot) {
      const o = this.outputs.get(key);
      return { ...base, stdout: o?.stdout ?? '', stderr: o?.stderr ?? '', exitCode: o?.exitCode ?? 0 };
    }
    const o = this.outputs.get(key) ?? this.outputs.get(tool);
    if (!o) return { ...base, stdout: '', stderr: '', exitCode: null, spawnError: 'ENOENT' };
    return { ...base, stdout: o.stdout ?? '', stderr: o.stderr ?? '', exitCode: o.exitCode ?? 0 };
  }
}

/** The lab captures (real infiniband-diags 44 output against ibsim) as a healthy fabric. */
export function labOutputs(): Record<string, CannedOutput> {
  const f = (n: string) => readFileSync(join(PARSER_FIXTURES, 'diags', n), 'utf8');
  return {
    ibnetdiscover: { stdout: f('lab-ibnetdiscover.txt') },
    iblinkinfo: { stdout: f('lab-iblinkinfo.txt') },
    'ibqueryerrors --data --threshold-file /dev/null': { stdout: f('lab-ibqueryerrors-nothr.txt'), exitCode: 1 },
    'ibqueryerrors --counters': { stdout: f('lab-ibqueryerrors-counters.txt') },
    'saquery SMIR': { stdout: f('lab-saquery-smir.txt') },
  };
}

export function cannedLab(): CannedRunner {
  const r = new CannedRunner();
  for (const [k, v] of Object.entries(labOutputs())) r.set(k, v);
  return r;
}
