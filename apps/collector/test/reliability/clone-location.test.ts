// Issue 37: a clone in a directory only its owner may enter (root's home is mode 700 on Debian,
// and so is anything `mktemp -d` makes) once failed a test that ran the server as `nobody`, who
// could not reach the clone's node_modules. This test clones the commit under test (HEAD: uncommitted
// changes are not in a clone) into such a directory, installs from the pnpm store offline and runs
// there the tests that depend on file ownership and location. The full suite in the clone would
// take ~12 min; these files are the ones that start processes with other credentials.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './support.ts';

const LOCATION_TESTS = ['apps/collector/test/reliability/disk-faults.test.ts'];

function headCommit(): { sha?: string; reason?: string } {
  const r = spawnSync('git', ['-C', REPO, 'rev-parse', '--verify', 'HEAD'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return { reason: `not a git checkout (${r.error?.message ?? r.stderr.trim()})` };
  return { sha: r.stdout.trim() };
}

const head = headCommit();
if (head.reason) console.warn(`clone-location: skipped: ${head.reason}`);
const parent = mkdtempSync(join(tmpdir(), 'ibw-clone-'));

// The clone's node_modules is tens of thousands of links: removing it took over 10 s on a busy machine.
afterAll(() => rmSync(parent, { recursive: true, force: true }), 120_000);

// The nested vitest must not think it is one of this run's workers.
const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete env[k];
  return env;
};

interface JsonReport {
  numFailedTests: number;
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

describe('a clone in a directory only its owner may enter', () => {
  it.skipIf(head.reason !== undefined)(
    'passes the tests that depend on file ownership and location' + (head.reason ? ` (skipped: ${head.reason})` : ''),
    () => {
      expect(statSync(parent).mode & 0o777).toBe(0o700);
      const clone = join(parent, 'ibwatch-check');
      const run = (cmd: string, args: string[], cwd: string) =>
        execFileSync(cmd, args, { cwd, env: childEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      run('git', ['clone', '--no-hardlinks', '-q', REPO, clone], parent);
      run('git', ['checkout', '-q', '--detach', head.sha!], clone);
      run('pnpm', ['install', '--frozen-lockfile', '--offline'], clone);

      const out = join(parent, 'report.json');
      // Failing tests exit non-zero: the report says which, so the exit code is not what is asserted.
      const r = spawnSync(
        'pnpm',
        ['exec', 'vitest', 'run', '--maxWorkers=1', '--reporter=json', `--outputFile.json=${out}`, ...LOCATION_TESTS],
        { cwd: clone, env: childEnv(), encoding: 'utf8', timeout: 150_000 },
      );
      expect(existsSync(out), `vitest wrote no report: ${r.stdout}${r.stderr}`).toBe(true);
      const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
      const results = report.testResults.flatMap((f) => f.assertionResults);
      const failed = results.filter((t) => t.status === 'failed');
      expect(
        failed.map((t) => `${t.title}: ${t.failureMessages.join('\n')}`),
        r.stderr,
      ).toEqual([]);
      expect(report.testResults.map((f) => f.name.slice(clone.length + 1)).sort()).toEqual([...LOCATION_TESTS].sort());
      // A case that cannot run in some environment is skipped only with its reason in its name.
      for (const t of results) expect(t.status === 'passed' || / \(skipped: .+\)$/.test(t.title), t.title).toBe(true);
      expect(results.some((t) => t.status === 'passed')).toBe(true);
    },
    240_000,
  );
});
