/**
 * A year of nccl-tests runs (4 a day; 60 with --quick) through the real import path, the period
 * report over them, and one run's page on the large fabric (its findings are matched on the
 * part of the fabric its hosts used, read from the whole topology).
 */
import { writeIbdiagnetDir } from '../../packages/parsers/bench/generate.ts';
import { ncclRunText } from '../gen/nccl.ts';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, type Row } from '../lib/stats.ts';
import { targetFor } from '../lib/targets.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { buildApp } from '../../apps/collector/src/app.ts';

const DAY = 86_400_000;

export const ncclStage: Stage = async (ctx) => {
  const runs = ctx.quick ? 60 : 365 * 4;
  const c = createContext(benchConfig(ctx.tmp('nccl'), { IBWATCH_SOURCE: 'import-only' }));
  const texts = Array.from({ length: runs }, (_, i) => ncclRunText(i));
  const end = Date.now();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startedAt = end - 365 * DAY + i * ((365 * DAY) / runs);
    const t = performance.now();
    const r = await c.scans.importNccl(
      texts[i]!,
      { cluster: 'bench', nodes: 2, gpuModel: 'H100' } as never,
      `run-${i}.txt`,
      'cli',
      { startedAt, finishedAt: startedAt + 600_000 } as never,
    );
    ms.push(performance.now() - t);
    if (r.runId === null) throw new Error(`nccl import ${i} failed: ${r.scan.error}`);
  }
  const app = await buildApp({ config: c.config, db: c.db, scans: c.scans, names: c.names });
  const q: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await app.inject(`/api/reports/bandwidth?from=${end - 365 * DAY}&to=${end}`);
    q.push(performance.now() - t);
    if (r.statusCode !== 200) throw new Error(`bandwidth report: ${r.statusCode} ${r.body.slice(0, 200)}`);
  }
  // One run on two hosts of the large fabric: its page reads the topology to scope its findings.
  const fabric = benchFabric(ctx.big);
  const dir = ctx.tmp('nccl-fabric');
  await writeIbdiagnetDir(`${dir}/run`, fabric);
  const topo = await c.scans.importIbdiagnet(`${dir}/run`, 'cli');
  if (topo.status === 'failed') throw new Error(`ibdiagnet import failed: ${topo.error}`);
  const [h1, h2] = [...new Set(fabric.cas.map((n) => n.host).filter((h): h is string => !!h))];
  const onFabric = await c.scans.importNccl(
    texts[0]!.replaceAll('dgx-h100-017', h1!).replaceAll('dgx-h100-018', h2!),
    { cluster: 'bench-fabric' } as never,
    'fabric-run.txt',
    'cli',
  );
  const detail: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await app.inject(`/api/nccl/runs/${onFabric.runId}`);
    detail.push(performance.now() - t);
    if (r.statusCode !== 200 || r.json().correlation.hosts.length !== 2)
      throw new Error(`run detail: ${r.statusCode} ${r.body.slice(0, 200)}`);
  }
  await app.close();
  const size = `${runs} runs over a year`;
  const rows: Row[] = [
    {
      stage: 'nccl',
      what: 'import one nccl-tests output (parse, verdict, store)',
      size,
      value: median(ms),
      unit: 'ms',
      runs,
      // An upload from a job script is answered as fast as a read of the API.
      target: targetFor('nccl.import', ctx.big),
    },
    {
      stage: 'nccl',
      what: 'bandwidth report over the year',
      size,
      value: median(q),
      unit: 'ms',
      runs: q.length,
      target: targetFor('nccl.report', ctx.big),
    },
    {
      stage: 'nccl',
      what: "one run's page: findings scoped to its hosts' part of the fabric",
      size: sizeLabel(fabric),
      value: median(detail),
      unit: 'ms',
      runs: detail.length,
      target: targetFor('nccl.run-page', ctx.big),
    },
  ];
  return rows;
};
