/**
 * The Slurm jobs on the fabric's hosts: `squeue --json` through the tool runner (execFile,
 * timeout), parsed by @ibwatch/parsers. Any failure (squeue missing, slurmctld down, output
 * that is not squeue's) is a ScanError: a failed `slurm` scan with the reason, never a failed
 * topology scan.
 */
import { ParseError, parseSqueueJson, type SqueueResult } from '@ibwatch/parsers';
import type { ImpactConfig } from '../config-impact.ts';
import { describeFailure, type ToolRunner } from './tool-runner.ts';
import { ScanError, type Collected } from './types.ts';

/** squeue answers in well under a second on a healthy controller; a hung one must not hold scans. */
const SQUEUE_TIMEOUT_MS = 30_000;

export async function collectSlurm(runner: ToolRunner, config: ImpactConfig): Promise<Collected<SqueueResult>> {
  const { path, args } = config.squeue;
  const r = await runner.run(path, [...args, '--json'], { timeoutMs: SQUEUE_TIMEOUT_MS });
  const why = describeFailure(r);
  const raw = [{ name: 'squeue.json', text: r.stdout }];
  if (why) throw new ScanError(`Slurm jobs not read: ${why}`, [{ name: 'squeue.stderr.txt', text: r.stderr }]);
  try {
    const data = parseSqueueJson(r.stdout, 'squeue --json');
    return {
      data,
      raw,
      toolVersions: data.slurmRelease ? { squeue: data.slurmRelease } : {},
      warnings: [],
    };
  } catch (err) {
    if (err instanceof ParseError) throw new ScanError(`Slurm jobs not read: ${err.message}`, raw);
    throw err;
  }
}
