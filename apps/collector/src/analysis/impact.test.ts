import { describe, expect, it } from 'vitest';
import { impactIndex, type WorklistEntry } from '@ibwatch/fabric';
import { entryImpact, type JobBook } from './impact.ts';
import { filterWorklist } from './worklist.ts';
import type { StoredJob } from '../db/slurm-repo.ts';

const job = (id: string, hosts: string[], nodeCount = hosts.length): StoredJob => ({
  id,
  name: `job-${id}`,
  user: 'ann',
  state: 'RUNNING',
  partition: 'batch',
  nodeCount,
  hosts,
  startedAt: 1,
});

function book(jobs: StoredJob[]): JobBook {
  const byHost = new Map<string, StoredJob[]>();
  for (const j of jobs) for (const h of j.hosts) byHost.set(h, [...(byHost.get(h) ?? []), j]);
  return { byHost, at: 42 };
}

// One leaf with two hosts of one HCA each, one spine above it.
const index = impactIndex(
  {
    nodes: [
      { guid: '0xa', type: 'ca', description: 'dgx-0001 mlx5_0', tier: 'hca' },
      { guid: '0xb', type: 'ca', description: 'DGX-0002 mlx5_0', tier: 'hca' },
      { guid: '0x1', type: 'switch', description: 'leaf-1', tier: 'leaf' },
      { guid: '0x2', type: 'switch', description: 'spine-1', tier: 'spine' },
    ],
    links: [
      { a: { nodeGuid: '0xa', portNum: 1 }, b: { nodeGuid: '0x1', portNum: 1 }, rateGbps: 400 },
      { a: { nodeGuid: '0xb', portNum: 1 }, b: { nodeGuid: '0x1', portNum: 2 }, rateGbps: 400 },
      { a: { nodeGuid: '0x1', portNum: 3 }, b: { nodeGuid: '0x2', portNum: 1 }, rateGbps: 0 },
    ],
  },
  { expectedGbps: 400 },
);

describe('entryImpact()', () => {
  it('names the jobs on the hosts behind the cable (any case), most nodes first, and the drain list', () => {
    const jobs = book([job('7', ['dgx-0001']), job('9', ['dgx-0002', 'dgx-0099'], 2), job('3', ['dgx-0050'])]);
    const up = entryImpact(index, jobs, [
      { nodeGuid: '0x1', portNum: 3 },
      { nodeGuid: '0x2', portNum: 1 },
    ]);
    expect(up).toMatchObject({ kind: 'leaf-uplink', hosts: ['DGX-0002', 'dgx-0001'], gpus: 16, jobsAt: 42 });
    expect(up.uplink).toEqual({
      switch: 'leaf-1',
      uplinks: 1,
      totalGbps: 400,
      lostGbps: 400,
      share: 1,
      switchShare: 1,
    });
    expect(up.jobs).toEqual([
      { id: '9', name: 'job-9', user: 'ann', nodes: 2, hosts: ['DGX-0002'] },
      { id: '7', name: 'job-7', user: 'ann', nodes: 1, hosts: ['dgx-0001'] },
    ]);
    expect(up.drain).toEqual(['DGX-0002', 'dgx-0001']);
    const hca = entryImpact(index, jobs, [{ nodeGuid: '0xa', portNum: 1 }]);
    expect(hca).toMatchObject({ kind: 'hca-link', hosts: ['dgx-0001'], drain: ['dgx-0001'], gpus: 8 });
  });

  it('without Slurm: no jobs, nothing to drain, jobsAt null', () => {
    const r = entryImpact(index, { byHost: new Map(), at: null }, [{ nodeGuid: '0xa', portNum: 1 }]);
    expect(r).toMatchObject({ jobs: [], drain: [], jobsAt: null, hosts: ['dgx-0001'] });
  });
});

describe('filterWorklist() sort=impact', () => {
  const entry = (key: string, jobs: number, gpus: number) =>
    ({
      rank: 0,
      linkKey: key,
      severity: 'major',
      state: 'open',
      a: { guid: '0x1', name: key, port: 1, lid: null, rack: null, u: null },
      b: null,
      impact: { gpus, jobs: Array.from({ length: jobs }, (_, i) => ({ id: String(i) })) },
    }) as unknown as WorklistEntry;

  it('puts most jobs first, then most GPUs, then urgency, and keeps the urgency rank', () => {
    const out = filterWorklist([entry('a', 0, 64), entry('b', 2, 1), entry('c', 2, 8), entry('d', 0, 64)], {
      sort: 'impact',
    });
    expect(out.map((e) => [e.linkKey, e.rank])).toEqual([
      ['c', 3],
      ['b', 2],
      ['a', 1],
      ['d', 4],
    ]);
  });
});
