import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes, type BandwidthReport, type NcclRunDetailReply, type NcclRunRow } from '@ibwatch/fabric';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { syncFindings } from '../scans/findings-sync.ts';
import { appOf, auth, ERROR_PORT, ncclFixture, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
let runs: { goodRun: number; badRun: number };
beforeAll(async () => {
  runs = await seedFabric(ctx);
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});
const post = (payload: unknown, headers: Record<string, string> = auth) =>
  app.inject({ method: 'POST', url: '/api/nccl-runs', payload: payload as object, headers });

describe('GET /api/nccl/runs', () => {
  it('lists runs newest first and filters by collective', async () => {
    const r = (await app.inject('/api/nccl/runs')).json<NcclRunRow[]>();
    expect(r.slice(0, 2).map((x) => x.id)).toEqual([runs.badRun, runs.goodRun]);
    expect((await app.inject('/api/nccl/runs?collective=alltoall')).json()).toEqual([]);
    expect((await app.inject('/api/nccl/runs?limit=0')).statusCode).toBe(400);
  });

  it('returns one run with rows, GDR evidence and its own findings; 404 when unknown', async () => {
    const r = await app.inject(`/api/nccl/runs/${runs.badRun}`);
    expect(r.statusCode).toBe(200);
    const d = r.json<NcclRunDetailReply>();
    expect(d.run).toMatchObject({ id: runs.badRun, verdict: 'host-memory-fallback', gdr: 'disabled' });
    expect(d.rows.length).toBeGreaterThan(20);
    expect(d.gdrEvidence.length).toBeGreaterThan(0);
    expect(d.correlatedFindings.map((f) => f.kind)).toContain('nccl-host-memory');
    expect((await app.inject('/api/nccl/runs/999999')).statusCode).toBe(404);
  });
});

describe('POST /api/nccl-runs', () => {
  const text = ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt');

  it('refuses an upload without the token', async () => {
    expect((await post({ text }, {})).statusCode).toBe(401);
  });

  it('refuses a body without text, with unknown labels or a path as name (400)', async () => {
    expect((await post({})).statusCode).toBe(400);
    expect((await post({ text, labels: { nodes: 'many' } })).statusCode).toBe(400);
    expect((await post({ text, name: '../../etc/passwd' })).statusCode).toBe(400);
  });

  it('imports a run and answers 201 with the stored run', async () => {
    const r = await post({
      text,
      name: 'job-42.txt',
      labels: { cluster: 'api', nodes: 2, runBy: 'ci' },
      startedAt: 1_700_000_000_000,
      finishedAt: 1_700_000_600_000,
    });
    expect(r.statusCode).toBe(201);
    const body = r.json<{ id: number; scan: { status: string }; run: NcclRunRow }>();
    expect(body.scan.status).toBe('ok');
    expect(body.run).toMatchObject({ id: body.id, verdict: 'pass', labels: { cluster: 'api', nodes: 2, runBy: 'ci' } });
  });

  it(
    'refuses a window that ends before it starts, lies in the future or is in seconds (400 naming the ' + 'field)',
    async () => {
      const now = Date.now();
      const cases: [object, RegExp][] = [
        [{ startedAt: now - 1000, finishedAt: now - 5000 }, /startedAt .* is after finishedAt/],
        [{ finishedAt: 1e17 }, /finishedAt 100000000000000000 .* is in the future/],
        [{ startedAt: 1_700_000_000 }, /startedAt 1700000000 is before 2000-01-01 .*not seconds/],
        [{ startedAt: now - 3 * 86_400_000, finishedAt: now }, /spans 72\.0 h; a run's window is at most 24 h/],
      ];
      const before = (await app.inject('/api/nccl/runs')).json<NcclRunRow[]>().length;
      for (const [window, message] of cases) {
        const r = await post({ text, ...window });
        expect(r.statusCode, JSON.stringify(window)).toBe(400);
        expect(r.json().message).toMatch(message);
      }
      expect((await app.inject('/api/nccl/runs')).json<NcclRunRow[]>()).toHaveLength(before);
    },
  );

  it('names the unknown field of a 400', async () => {
    expect((await post({ text, startedAtt: 1 })).json().message).toBe('body has an unknown field "startedAtt"');
    expect((await post({ text, labels: { cluster: 'a', shell: '$(id)' } })).json().message).toBe(
      'body/labels has an unknown field "shell"',
    );
    expect((await app.inject('/api/nccl/runs?colective=x')).json().message).toBe(
      'querystring has an unknown field "colective"',
    );
  });

  it('dates a backdated run by its startedAt: listed and reported in its own week', async () => {
    const week = 7 * 86_400_000;
    const startedAt = Date.now() - 3 * week;
    const r = await post({ text, name: 'old.txt', labels: { cluster: 'backdated' }, startedAt });
    expect(r.statusCode).toBe(201);
    const run = r.json<{ run: NcclRunRow }>().run;
    expect(run).toMatchObject({ at: startedAt, startedAt, finishedAt: startedAt + 3_600_000 });
    expect(run.createdAt).toBeGreaterThan(startedAt + week);
    const then = (await app.inject(`/api/nccl/runs?from=${startedAt - week}&to=${startedAt + week}`)).json<
      NcclRunRow[]
    >();
    expect(then.map((x) => x.id)).toEqual([run.id]);
    const report = (
      await app.inject(`/api/reports/bandwidth?from=${startedAt - week}&to=${startedAt + week}`)
    ).json<BandwidthReport>();
    expect(report.runs).toBe(1);
    const recent = (await app.inject(`/api/nccl/runs?from=${Date.now() - week}`)).json<NcclRunRow[]>();
    expect(recent.map((x) => x.id)).not.toContain(run.id);
  });

  it('answers 422 with the parse error for output that is not nccl-tests', async () => {
    const r = await post({ text: 'hello\nworld\n', name: 'notes.txt' });
    expect(r.statusCode).toBe(422);
    expect(r.json().message).toMatch(/^nccl-tests:notes\.txt/);
  });
});

describe('GET /api/reports/bandwidth', () => {
  it('reports pass rate and best/median/worst per collective, from each run’s headline', async () => {
    const r = (await app.inject('/api/reports/bandwidth')).json<BandwidthReport>();
    expect(r.runs).toBeGreaterThanOrEqual(2);
    expect(r.passed).toBeGreaterThanOrEqual(1);
    const ar = r.byCollective.find((c) => c.collective === 'all_reduce' && c.scope === 'multi-node')!;
    const runs = (await app.inject('/api/nccl/runs')).json<NcclRunRow[]>().filter((x) => x.at >= r.from);
    const headlines = runs.filter((x) => x.collective === 'all_reduce').map((x) => x.peakBusbwGBs!);
    expect(ar.bestGBs).toBe(Math.max(...headlines));
    expect(ar.worstGBs).toBe(Math.min(...headlines));
    expect(ar.bestGBs!).toBeGreaterThan(370);
    expect(ar.worstGBs!).toBeLessThan(80);
    expect(ar.targetGBs).toBe(360);
  });

  it('exports the period summary as CSV with summary=1: its period on every row, GB/s to one decimal', async () => {
    const from = Date.parse('2020-01-01T00:00:00Z');
    const to = Date.now();
    const r = await app.inject(`/api/reports/bandwidth.csv?from=${from}&to=${to}&summary=1`);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(
      /filename="ibwatch-bandwidth-summary-2020-01-01-to-\d{4}-\d\d-\d\d\.csv"/,
    );
    const [header, row] = r.body.split('\r\n');
    expect(header).toBe(
      'period_from,period_to,collective,scope,runs,runs_with_target,passed,pass_rate,' +
        'best_GBs,median_GBs,worst_GBs,target_GBs',
    );
    expect(row).toMatch(
      new RegExp(
        /^2020-01-01T00:00:00\.000Z,\d{4}-[\d-]+T[\d:.]+Z,all_reduce,multi-node,/.source +
          /\d+,\d+,\d+,0\.\d{3},\d+\.\d,\d+\.\d,\d+\.\d,360\.0$/.source,
      ),
    );
    expect((await app.inject('/api/reports/bandwidth?from=-1')).statusCode).toBe(400);
  });

  it('exports one CSV row per run of the period with the figures and words of the runs API', async () => {
    const from = Date.parse('2020-01-01T00:00:00Z');
    const to = Date.now();
    const r = await app.inject(`/api/reports/bandwidth.csv?from=${from}&to=${to}`);
    expect(r.headers['content-disposition']).toMatch(/filename="ibwatch-bandwidth-2020-01-01-to-/);
    const [header, ...lines] = r.body.trimEnd().split('\r\n');
    expect(header).toBe(
      'period_from,period_to,run_id,time,test,hosts,ranks,gpu_model,gpus_per_node,peak_busbw_GBs,peak_size,' +
        'largest_size_busbw_GBs,largest_size,target_GBs,target_profile,target,verdict,gdr,flags',
    );
    const api = (await app.inject(`/api/nccl/runs?from=${from}&to=${to}`)).json<NcclRunRow[]>();
    expect(lines).toHaveLength(api.length);
    // Cells with a comma are quoted (RFC 4180): split on commas outside quotes.
    const cells = (l: string) =>
      [...l.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, ''));
    const bad = lines.map((l) => cells(l).slice(0, 19)).find((c) => c[2] === String(runs.badRun))!;
    const run = api.find((x) => x.id === runs.badRun)!;
    expect(bad.slice(4)).toEqual([
      'all_reduce_perf',
      '2',
      '16',
      'NVIDIA H100 80GB HBM3',
      '8',
      run.peakBusbwGBs!.toFixed(1),
      formatBytes(run.peakSizeBytes!),
      run.largestBusbwGBs!.toFixed(1),
      '8 GiB',
      '360.0',
      '8x H100, 8x400G',
      '360.0 GB/s (profile 8x H100, 8x400G)',
      'HOST-MEMORY FALLBACK',
      'off',
      'GDR off (host-memory fallback)',
    ]);
  });

  it('has no runs and no pass rate in a window before any import', async () => {
    expect((await app.inject('/api/reports/bandwidth?from=0&to=1000')).json()).toMatchObject({
      runs: 0,
      withTarget: 0,
      passRate: null,
      byCollective: [],
    });
  });
});

describe('GET /api/nccl/runs/:id: fabric findings around a run', () => {
  // The real NDR fabric is rail-optimised (every host has an HCA on each of the 8 leaves), so a
  // run meets at the leaves: findings on its hosts' HCA links count, the spine's symbol errors
  // (ERROR_PORT, seeded) and another host's link do not.
  const hostsText = (hosts: string[]) =>
    ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt')
      .replaceAll('dgx-h100-017', hosts[0]!)
      .replaceAll('dgx-h100-018', hosts[1]!);
  const hcaOf = (host: string) =>
    createNcclRepo(ctx.db)
      .scopeGraph()
      .nodes.find((n) => n.description === `${host} mlx5_0`)!.guid;
  const openSymbolErrors = (host: string) =>
    syncFindings(
      createFindingsRepo(ctx.db),
      [
        {
          kind: 'symbol-errors',
          severity: 'major',
          subject: { kind: 'port', port: { nodeGuid: hcaOf(host), portNum: 1 } },
          title: `Symbol errors on ${host} mlx5_0 port 1`,
          evidence: {},
        },
      ],
      () => false,
      Date.now() - 60_000,
      10,
    );
  const detailOf = async (hosts: string[]) => {
    const r = await post({ text: hostsText(hosts), name: 'hosts.txt', labels: { cluster: hosts.join('+') } });
    expect(r.statusCode).toBe(201);
    return (await app.inject(`/api/nccl/runs/${r.json<{ id: number }>().id}`)).json<NcclRunDetailReply>();
  };
  const fabricFindings = (d: NcclRunDetailReply) =>
    d.correlatedFindings.filter((f) => f.subjectType !== 'run' && f.subjectType !== 'sm').map((f) => f.title);

  it("lists the findings on its hosts' links and none elsewhere in the fabric", async () => {
    openSymbolErrors('is-north-7-compute-1');
    openSymbolErrors('is-north-7-compute-9');
    const all = (await app.inject('/api/findings?state=active')).json<{ subjectKey: string }[]>();
    expect(all.some((f) => f.subjectKey.includes(`${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`))).toBe(true);

    const d = await detailOf(['is-north-7-compute-1', 'is-north-7-compute-2']);
    expect(d.correlation).toMatchObject({ unmatchedHosts: [], switches: 8, links: 16, tiers: ['leaf'] });
    expect(d.correlation.hosts).toEqual([
      { host: 'is-north-7-compute-1', hcas: 8 },
      { host: 'is-north-7-compute-2', hcas: 8 },
    ]);
    const titles = fabricFindings(d);
    expect(titles).toContain('Symbol errors on is-north-7-compute-1 mlx5_0 port 1');
    // Flagged: a finding on its paths was open during the run; the count is what the page lists.
    expect(d.correlation).toMatchObject({ flagged: true, pathFindings: titles.length });
    // The sample's own findings on these hosts (a saturated counter on compute-1) count too,
    // and ibdiagnet's about the 8 leaves the run used (firmware drift, a shared name); none
    // about the spine, which the run did not use.
    const onHosts = d.correlatedFindings.filter((f) => f.subjectType === 'port' || f.subjectType === 'link');
    for (const f of onHosts) expect(f.title).toMatch(/is-north-7-compute-[12] mlx5_\d+ port 1/);
    const onSwitches = d.correlatedFindings.filter((f) => f.subjectType === 'fabric');
    expect(onSwitches.length).toBeGreaterThan(0);
    for (const f of onSwitches)
      expect([f.kind.startsWith('ibdiagnet-'), f.subjectKey]).toEqual([
        true,
        expect.not.stringContaining('0xb0cf0e0300d33fc0'),
      ]);
    expect(titles.join('\n')).not.toMatch(/compute-9 /);
  });

  it('says so when the run’s hosts are not in the topology, and lists no fabric finding', async () => {
    const d = await detailOf(['ghost-1', 'ghost-2']);
    expect(d.correlation).toMatchObject({
      hosts: [],
      unmatchedHosts: ['ghost-1', 'ghost-2'],
      links: 0,
      flagged: false,
      pathFindings: 0,
    });
    expect(fabricFindings(d)).toEqual([]);
  });

  it('reads the topology again after a topology write, not before', async () => {
    const d = await detailOf(['ghost-3', 'is-north-7-compute-5']);
    const again = async () =>
      (await app.inject(`/api/nccl/runs/${d.run.id}`)).json<NcclRunDetailReply>().correlation.unmatchedHosts;
    // A host renamed behind the topology writers' back is not seen (the page uses its cached index)...
    ctx.db
      .prepare("UPDATE nodes SET description = 'ghost-3 mlx5_0' WHERE description = 'is-north-7-compute-6 mlx5_0'")
      .run();
    expect(await again()).toEqual(['ghost-3']);
    // ...until a topology write bumps the version, as every ingest does.
    ctx.db.prepare("UPDATE change_counters SET n = n + 1 WHERE name = 'topology'").run();
    expect(await again()).toEqual([]);
  });
});
