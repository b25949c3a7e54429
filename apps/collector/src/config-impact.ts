/**
 * Settings of the blast radius and the Slurm jobs behind it (docs/impact.md), kept apart from
 * config.ts so the rest of the configuration does not grow with them.
 */
export interface ImpactConfig {
  /** IBWATCH_SLURM: `squeue` reads the running jobs with each topology scan; `off` (default) does not. */
  slurm: 'off' | 'squeue';
  /** IBWATCH_SQUEUE: squeue's path and extra arguments (no shell); `--json` is appended. */
  squeue: { path: string; args: string[] };
  /** IBWATCH_GPUS_PER_HOST (default 8). */
  gpusPerHost: number;
  /** IBWATCH_RAIL_REGEX: an HCA's rail from its NodeDescription (first capture group). */
  railPattern: RegExp | null;
}

const SAFE_ARG = /^[A-Za-z0-9_.,:=/+@-]+$/;

export function loadImpactConfig(env: NodeJS.ProcessEnv, problems: string[]): ImpactConfig {
  const raw = (k: string) => (env[k] ?? '').trim();
  const slurm = (raw('IBWATCH_SLURM') || 'off').toLowerCase();
  if (slurm !== 'off' && slurm !== 'squeue')
    problems.push(`IBWATCH_SLURM=${JSON.stringify(env.IBWATCH_SLURM)}: expected off or squeue`);
  const [path = 'squeue', ...args] = (raw('IBWATCH_SQUEUE') || 'squeue').split(/\s+/);
  for (const a of [path, ...args])
    if (!SAFE_ARG.test(a))
      problems.push(`IBWATCH_SQUEUE: ${JSON.stringify(a)} has characters outside [A-Za-z0-9_.,:=/+@-]`);
  let gpusPerHost = 8;
  if (raw('IBWATCH_GPUS_PER_HOST')) {
    gpusPerHost = /^\d+$/.test(raw('IBWATCH_GPUS_PER_HOST')) ? Number(raw('IBWATCH_GPUS_PER_HOST')) : NaN;
    if (!Number.isInteger(gpusPerHost) || gpusPerHost < 1 || gpusPerHost > 1024) {
      problems.push(
        `IBWATCH_GPUS_PER_HOST=${JSON.stringify(env.IBWATCH_GPUS_PER_HOST)}: expected an integer from 1 to 1024`,
      );
      gpusPerHost = 8;
    }
  }
  let railPattern: RegExp | null = null;
  if (raw('IBWATCH_RAIL_REGEX')) {
    try {
      railPattern = new RegExp(raw('IBWATCH_RAIL_REGEX'));
      if (!/\((?!\?)/.test(railPattern.source)) throw new Error('it needs one capture group');
    } catch (err) {
      problems.push(`IBWATCH_RAIL_REGEX: ${(err as Error).message}`);
      railPattern = null;
    }
  }
  return { slurm: slurm === 'squeue' ? 'squeue' : 'off', squeue: { path, args }, gpusPerHost, railPattern };
}
