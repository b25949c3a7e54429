import { describe, expect, it } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { fixture } from '../diags/fixture.test-helper.ts';
import { expandHostlist, MAX_HOSTLIST_HOSTS } from './hostlist.ts';
import { parseSqueueJson } from './squeue.ts';

describe('expandHostlist()', () => {
  it('expands ranges with their zero padding, lists and single names, in order', () => {
    expect(expandHostlist('dgx-[0001-0004,0007]')).toEqual([
      'dgx-0001',
      'dgx-0002',
      'dgx-0003',
      'dgx-0004',
      'dgx-0007',
    ]);
    expect(expandHostlist('dgx-0003')).toEqual(['dgx-0003']);
    expect(expandHostlist('dgx-[0009-0011],head-01')).toEqual(['dgx-0009', 'dgx-0010', 'dgx-0011', 'head-01']);
    expect(expandHostlist('n[8-10]')).toEqual(['n8', 'n9', 'n10']);
  });

  it('takes several brackets in one name as a product, and suffixes after a bracket', () => {
    expect(expandHostlist('rack[1-2]-n[01-02]')).toEqual(['rack1-n01', 'rack1-n02', 'rack2-n01', 'rack2-n02']);
    expect(expandHostlist('gpu[1-2]-ib')).toEqual(['gpu1-ib', 'gpu2-ib']);
  });

  it('gives no hosts for an empty expression (a pending job) and drops duplicates', () => {
    expect(expandHostlist('')).toEqual([]);
    expect(expandHostlist('dgx-[0001-0002],dgx-0002')).toEqual(['dgx-0001', 'dgx-0002']);
  });

  it('refuses unbalanced brackets, bad and backwards ranges, and huge expansions', () => {
    expect(() => expandHostlist('dgx-[0001-0004')).toThrow(ParseError);
    expect(() => expandHostlist('dgx-0001]')).toThrow(/unbalanced/);
    expect(() => expandHostlist('dgx-[a-b]')).toThrow(/bad range "a-b"/);
    expect(() => expandHostlist('dgx-[0009-0001]')).toThrow(/backwards/);
    expect(() => expandHostlist(`n[0-${MAX_HOSTLIST_HOSTS}]`)).toThrow(/too large/);
    expect(() => expandHostlist('a[0-999]b[0-9999]')).toThrow(/more than/);
  });
});

describe('parseSqueueJson() on squeue --json from the local Slurm 22.05 cluster', () => {
  it('reads each job: id, name, user, state, hosts, node count, start', () => {
    const r = parseSqueueJson(fixture('slurm/lab-squeue-json.json'));
    expect(r.slurmRelease).toBe('22.05.8');
    expect(r.jobs.map((j) => [j.id, j.name, j.user, j.state, j.hosts.join(','), j.nodeCount])).toEqual([
      ['1', 'allreduce-a', 'root', 'RUNNING', 'dgx-0001,dgx-0002', 2],
      ['2', 'train-b', 'root', 'RUNNING', 'dgx-0003', 1],
      ['3', 'llm-pretrain', 'root', 'RUNNING', 'dgx-0004,dgx-0005,dgx-0006', 3],
      ['4', 'queued-big', 'root', 'PENDING', '', 4],
    ]);
    expect(r.jobs[3]!.startedAt).toBeNull();
    expect(r.jobs[0]!.startedAt).toBe(1796145918_000);
    expect(r.jobs.every((j) => j.partition === 'batch')).toBe(true);
  });

  it('reads a job on a hostlist with a gap', () => {
    const r = parseSqueueJson(fixture('slurm/lab-squeue-json-gaps.json'));
    const big = r.jobs.find((j) => j.name === 'queued-big')!;
    expect(big.state).toBe('RUNNING');
    expect(big.hosts).toEqual(['dgx-0001', 'dgx-0002', 'dgx-0007', 'dgx-0008']);
  });

  it('falls back to the nodes hostlist without job_resources, and names array tasks id_task', () => {
    const text = JSON.stringify({
      jobs: [
        {
          job_id: 12,
          array_job_id: 10,
          array_task_id: 2,
          name: 'a',
          user_name: 'ann',
          job_state: 'RUNNING',
          nodes: 'dgx-[0001-0002]',
          node_count: 2,
          start_time: 5,
        },
      ],
    });
    const [j] = parseSqueueJson(text).jobs;
    expect(j).toMatchObject({ id: '10_2', user: 'ann', hosts: ['dgx-0001', 'dgx-0002'], startedAt: 5000 });
  });

  it('fails with the reason on non-JSON, a missing jobs array, Slurm errors and bad hostlists', () => {
    expect(() => parseSqueueJson('squeue: error: Invalid user', 'squeue')).toThrow(/squeue-json:squeue: not JSON/);
    expect(() => parseSqueueJson('{"meta":{}}')).toThrow(/no "jobs" array/);
    expect(() =>
      parseSqueueJson('{"errors":[{"error":"Unable to contact slurm controller","errno":1}],"jobs":[]}'),
    ).toThrow(/1 error\(s\): Unable to contact slurm controller/);
    expect(() => parseSqueueJson('{"jobs":[{"job_id":1,"nodes":"dgx-[1-"}]}')).toThrow(/jobs\[0\]\.nodes: unbalanced/);
    expect(() => parseSqueueJson('{"jobs":[{"name":"x"}]}')).toThrow(/no numeric job_id/);
  });
});
