// A real Slurm 22.05 cluster on this host for the integration tests: one slurmctld and one
// `slurmd -N <name>` per node, each slurmd on its own Port= (docs/impact.md). Authentication
// is off (auth/none, cred/none), so no munged is needed. Ports are found free at runtime in
// 7400-7499, never Slurm's defaults (6817/6818).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface SlurmCluster {
  conf: string;
  /** Env for slurm clients (sbatch, squeue, scancel): SLURM_CONF set. */
  env: NodeJS.ProcessEnv;
  /** Submits `sleep` on exactly these nodes (hostlist); returns the job id. */
  sbatch(name: string, nodelist: string): string;
  stop(): Promise<void>;
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** The first run of `n` consecutive free ports in [lo, hi]. */
async function freeRange(n: number, lo = 7400, hi = 7499): Promise<number> {
  for (let start = lo; start + n - 1 <= hi; start++) {
    let ok = true;
    for (let p = start; p < start + n && ok; p++) {
      ok = await portFree(p);
      if (!ok) start = p; // the loop's ++ moves past the taken port
    }
    if (ok) return start;
  }
  throw new Error(`no ${n} consecutive free ports in ${lo}-${hi}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`Slurm: timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Starts slurmctld and one slurmd per node (`nodes` like `dgx-[0001-0016]`, `count` nodes). */
export async function startSlurm(dir: string, prefix: string, count: number): Promise<SlurmCluster> {
  for (const d of ['state', 'log', 'spool']) mkdirSync(join(dir, d), { recursive: true });
  const base = await freeRange(count + 1);
  const width = 4;
  const first = `${prefix}${'1'.padStart(width, '0')}`;
  const last = `${prefix}${String(count).padStart(width, '0')}`;
  const range = `${prefix}[${first.slice(prefix.length)}-${last.slice(prefix.length)}]`;
  const conf = join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=ibwatchit',
      'SlurmctldHost=localhost',
      `SlurmctldPort=${base}`,
      'AuthType=auth/none',
      'CredType=cred/none',
      'SlurmUser=root',
      'SlurmdUser=root',
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool/%n`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd-%n.pid`,
      `SlurmctldLogFile=${dir}/log/slurmctld.log`,
      `SlurmdLogFile=${dir}/log/slurmd-%n.log`,
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'MpiDefault=none',
      'MailProg=/bin/true',
      'ReturnToService=2',
      'SlurmdParameters=config_overrides',
      `NodeName=${range} NodeHostname=localhost NodeAddr=127.0.0.1 Port=[${base + 1}-${base + count}] CPUs=8 ` +
        'Sockets=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN',
      // One job per node, as on a GPU cluster.
      'PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=EXCLUSIVE',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const procs: ChildProcess[] = [];
  const start = (cmd: string, args: string[]) => {
    const p = spawn(cmd, args, { env, stdio: 'ignore' });
    procs.push(p);
    return p;
  };
  const jobs: string[] = [];
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { env, encoding: 'utf8', timeout: 20_000 });
  const cluster: SlurmCluster = {
    conf,
    env,
    sbatch(name, nodelist) {
      const out = run('sbatch', [
        '--parsable',
        '-J',
        name,
        '-w',
        nodelist,
        '-N',
        String(countOf(nodelist)),
        '-o',
        '/dev/null',
        '--wrap',
        'sleep 600',
      ]);
      const id = out.trim().split(';')[0]!;
      jobs.push(id);
      return id;
    },
    async stop() {
      // scancel first: slurmstepd is reparented to PID 1 and would outlive its slurmd.
      if (jobs.length) {
        try {
          run('scancel', jobs);
          await until('jobs to end', () => run('squeue', ['-h', '-o', '%i']).trim() === '', 15_000);
        } catch {
          // the controller may be gone already; the daemons are stopped below anyway
        }
      }
      for (const p of procs.reverse()) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      await until(
        'Slurm daemons to exit',
        () => procs.every((p) => p.exitCode !== null || p.signalCode !== null),
        15_000,
      ).catch(() => {
        for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
      });
    },
  };
  try {
    start('slurmctld', ['-D', '-f', conf]);
    await until(
      'slurmctld',
      () => {
        try {
          return /UP/.test(run('scontrol', ['ping']));
        } catch {
          return false;
        }
      },
      20_000,
    );
    for (let i = 1; i <= count; i++) {
      const name = `${prefix}${String(i).padStart(width, '0')}`;
      mkdirSync(join(dir, 'spool', name), { recursive: true });
      start('slurmd', ['-D', '-N', name, '-f', conf]);
    }
    await until(
      `${count} idle nodes`,
      () => {
        try {
          return (
            run('sinfo', ['-h', '-N', '-o', '%T'])
              .trim()
              .split('\n')
              .filter((s) => s === 'idle').length === count
          );
        } catch {
          return false;
        }
      },
      30_000,
    );
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** Nodes in a simple hostlist like `dgx-[0002-0003]` or `dgx-0005`. */
function countOf(nodelist: string): number {
  const m = /\[(\d+)-(\d+)\]$/.exec(nodelist);
  return m ? Number(m[2]) - Number(m[1]) + 1 : 1;
}
