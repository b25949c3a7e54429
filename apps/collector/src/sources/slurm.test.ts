import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadImpactConfig } from '../config-impact.ts';
import { collectSlurm } from './slurm.ts';
import type { ToolRun, ToolRunner } from './tool-runner.ts';
import { ScanError } from './types.ts';

const FIXTURE = new URL('../../../../packages/parsers/fixtures/slurm/lab-squeue-json.json', import.meta.url);

/** A runner that records its calls and answers with `reply`. */
function fake(reply: Partial<ToolRun>) {
  const calls: { tool: string; args: string[]; timeoutMs?: number }[] = [];
  const runner: ToolRunner = {
    async run(tool, args, opts) {
      calls.push({ tool, args, timeoutMs: opts?.timeoutMs });
      return {
        tool,
        args,
        stdout: '',
        stderr: '',
        exitCode: 0,
        signal: null,
        durationMs: 3,
        timedOut: false,
        truncated: false,
        spawnError: null,
        ...reply,
      };
    },
  };
  return { runner, calls };
}

const config = (env: Record<string, string> = {}) => {
  const problems: string[] = [];
  const c = loadImpactConfig({ IBWATCH_SLURM: 'squeue', ...env }, problems);
  expect(problems).toEqual([]);
  return c;
};

describe('collectSlurm()', () => {
  it('runs squeue --json with the configured path and arguments, with a timeout, and parses it', async () => {
    const { runner, calls } = fake({ stdout: readFileSync(FIXTURE, 'utf8') });
    const c = await collectSlurm(runner, config({ IBWATCH_SQUEUE: '/opt/slurm/bin/squeue --partition=gpu' }));
    expect(calls).toEqual([{ tool: '/opt/slurm/bin/squeue', args: ['--partition=gpu', '--json'], timeoutMs: 30_000 }]);
    expect(c.data.jobs.filter((j) => j.state === 'RUNNING').map((j) => j.name)).toEqual([
      'allreduce-a',
      'train-b',
      'llm-pretrain',
    ]);
    expect(c.toolVersions).toEqual({ squeue: '22.05.8' });
  });

  it('fails with a clear message when squeue is missing, exits non-zero or prints no JSON', async () => {
    await expect(collectSlurm(fake({ spawnError: 'ENOENT', exitCode: null }).runner, config())).rejects.toThrow(
      'Slurm jobs not read: squeue: not found on PATH',
    );
    const down = fake({ exitCode: 1, stderr: 'squeue: error: Unable to contact slurm controller (connect failure)' });
    await expect(collectSlurm(down.runner, config())).rejects.toThrow(
      /squeue --json: exit 1: squeue: error: Unable to contact slurm controller/,
    );
    const err = await collectSlurm(fake({ stdout: 'JOBID PARTITION NAME' }).runner, config()).catch((e) => e);
    expect(err).toBeInstanceOf(ScanError);
    expect(err.message).toMatch(/^Slurm jobs not read: squeue-json:squeue --json: not JSON/);
  });
});

describe('loadImpactConfig()', () => {
  it('defaults: Slurm off, squeue on PATH, 8 GPUs per host, the mlx5_N rail', () => {
    const problems: string[] = [];
    expect(loadImpactConfig({}, problems)).toEqual({
      slurm: 'off',
      squeue: { path: 'squeue', args: [] },
      gpusPerHost: 8,
      railPattern: null,
    });
    expect(problems).toEqual([]);
  });

  it('reads every setting and reports every bad one', () => {
    expect(config({ IBWATCH_GPUS_PER_HOST: '4', IBWATCH_RAIL_REGEX: 'HCA-(\\d+)$' })).toMatchObject({
      gpusPerHost: 4,
      railPattern: /HCA-(\d+)$/,
    });
    const problems: string[] = [];
    loadImpactConfig(
      {
        IBWATCH_SLURM: 'sacct',
        IBWATCH_SQUEUE: 'squeue;rm',
        IBWATCH_GPUS_PER_HOST: 'eight',
        IBWATCH_RAIL_REGEX: 'mlx5_\\d+',
      },
      problems,
    );
    expect(problems).toEqual([
      'IBWATCH_SLURM="sacct": expected off or squeue',
      'IBWATCH_SQUEUE: "squeue;rm" has characters outside [A-Za-z0-9_.,:=/+@-]',
      'IBWATCH_GPUS_PER_HOST="eight": expected an integer from 1 to 1024',
      'IBWATCH_RAIL_REGEX: it needs one capture group',
    ]);
  });
});
