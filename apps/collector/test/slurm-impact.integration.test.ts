/**
 * Integration: the blast radius with a REAL Slurm. A 16-node Slurm 22.05 cluster (one slurmd
 * per node, named like the lab's hosts) runs sleep jobs pinned to known hosts; a live 256-GPU
 * lab gets a symbol-error burst on one host's HCA link and a leaf uplink trained down to 2X.
 * The worklist must name the jobs, users and node counts on the hosts behind each cable, the
 * hosts to drain first, and rank by impact on request.
 */
import { join } from 'node:path';
import { userInfo } from 'node:os';
import { mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow, ScanRow, WorklistEntry } from '@ibwatch/fabric';
import { addCounter, degradeLink } from '@ibwatch/lab';
import { startHarness, until, type Harness } from './lab-harness.ts';
import { startSlurm, type SlurmCluster } from './slurm-cluster.ts';

let h: Harness;
let slurm: SlurmCluster | undefined;
const jobs: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness({ IBWATCH_SLURM: 'squeue' });
  const dir = join(h.root, 'slurm');
  mkdirSync(dir);
  slurm = await startSlurm(dir, 'dgx-', 16);
  // The collector's squeue runs with the collector's environment, as a site's would.
  process.env.SLURM_CONF = slurm.conf;
  jobs.allreduce = slurm.sbatch('allreduce-a', 'dgx-[0002-0003]');
  jobs.train = slurm.sbatch('train-b', 'dgx-0005');
  jobs.far = slurm.sbatch('far-away', 'dgx-[0010-0011]');
  await until(
    'three running jobs',
    async () => {
      const out = execFileSync('squeue', ['-h', '-t', 'R', '-o', '%i'], { env: slurm!.env, encoding: 'utf8' });
      return out.trim().split('\n').filter(Boolean).length === 3 ? true : undefined;
    },
    30_000,
  );
}, 120_000);

afterAll(async () => {
  delete process.env.SLURM_CONF;
  try {
    await slurm?.stop();
  } finally {
    await h?.close();
  }
}, 60_000);

const user = userInfo().username;

describe('blast radius with Slurm jobs on the lab', () => {
  it('reads the running jobs with each topology scan (a slurm scan of its own)', async () => {
    const topo = await h.scan('topology');
    expect(topo.status).not.toBe('failed');
    // The baseline sweep: the next one's deltas are the faults below.
    expect((await h.scan('pm')).status).not.toBe('failed');
    const scans = await h.get<ScanRow[]>('/api/scans?kind=slurm');
    expect(scans[0]).toMatchObject({ kind: 'slurm', status: 'ok' });
    expect(scans[0]!.summary).toMatchObject({ running: 3, hosts: 5 });
  }, 60_000);

  it('an HCA link with symbol errors names its host, rail, the job on it and the node to drain', async () => {
    const hca = h.port('dgx-0003 mlx5_2', 1);
    const leaf = h.peer(hca);
    await addCounter(h.lab, leaf, 'SymbolErrorCounter', 500);
    expect((await h.scan('pm')).status).not.toBe('failed');
    const entry = (await h.openWorklist()).find((e) => [e.a.name, e.b?.name].includes('dgx-0003 mlx5_2'));
    expect(entry, 'worklist entry of dgx-0003 mlx5_2').toBeDefined();
    expect(entry!.impact).toMatchObject({ kind: 'hca-link', hosts: ['dgx-0003'], rails: [2], gpus: 1 });
    expect(entry!.impact!.jobs).toEqual([
      { id: jobs.allreduce, name: 'allreduce-a', user, nodes: 2, hosts: ['dgx-0003'] },
    ]);
    expect(entry!.impact!.drain).toEqual(['dgx-0003']);
    expect(entry!.impact!.jobsAt).toBeGreaterThan(0);
    // The finding carries its entry's impact in brief, on the list and on its own.
    const [finding] = (await h.linkFindings()).filter((f) => entry!.findingIds.includes(f.id));
    expect(finding!.impact).toEqual({ kind: 'hca-link', hosts: 1, gpus: 1, jobs: 1, drain: ['dgx-0003'] });
    expect((await h.get<FindingRow>(`/api/findings/${finding!.id}`)).impact).toEqual(finding!.impact);
  }, 60_000);

  it('a leaf uplink at 2X names the hosts under the leaf, the uplink share lost, every job there; ' +
    'sort=impact puts it first', async () => {
    const up = h.port('leaf-r2-01', 40);
    const under = h.lab
      .topology()
      .links.filter((l) => l.b.node === 'leaf-r2-01' && h.node(l.a.node).type === 'ca')
      .map((l) => h.node(l.a.node).host!)
      .sort();
    await degradeLink(h.lab, up, { width: '2X' });
    const entry = await until(
      'the 2X uplink on the worklist',
      async () => {
        await h.scan('topology');
        return (await h.openWorklist()).find((e) => e.reasons.some((r) => /width/.test(r)));
      },
      30_000,
    );
    const impact = entry.impact!;
    expect(impact.kind).toBe('leaf-uplink');
    expect(impact.hosts).toEqual(under);
    expect(impact.rails).toEqual([2]);
    expect(impact.uplink).toMatchObject({ switch: 'leaf-r2-01', lostGbps: 100 });
    expect(impact.uplink!.share).toBeCloseTo(100 / impact.uplink!.totalGbps);
    const busy = ['dgx-0002', 'dgx-0003', 'dgx-0005', 'dgx-0010', 'dgx-0011'].filter((x) => under.includes(x));
    expect(impact.drain).toEqual(busy);
    expect(impact.jobs.map((j) => j.name).sort()).toEqual(
      ['allreduce-a', 'train-b', 'far-away']
        .filter((_, i) =>
          [['dgx-0002', 'dgx-0003'], ['dgx-0005'], ['dgx-0010', 'dgx-0011']][i]!.some((x) => under.includes(x)),
        )
        .sort(),
    );

    // The CSV carries the jobs and the drain list for the printed or shared sheet.
    const csv = (await h.app.inject('/api/worklist.csv?sort=impact')).body.slice(1).trimEnd().split('\r\n');
    expect(csv[0]).toMatch(/,impact_hosts,impact_gpus,slurm_jobs,drain_first$/);
    expect(csv[1]).toContain(busy.join(' '));
    expect(csv[1]).toContain(`allreduce-a (${user}, 2 nodes)`);

    const ranked = await h.get<WorklistEntry[]>('/api/worklist?sort=impact');
    const open = ranked.filter((e) => e.state !== 'resolved' && e.clearedAt === null);
    expect(open[0]!.linkKey).toBe(entry.linkKey);
    expect(open.map((e) => e.impact!.jobs.length)).toEqual(
      [...open.map((e) => e.impact!.jobs.length)].sort((a, b) => b - a),
    );
  }, 90_000);
});
