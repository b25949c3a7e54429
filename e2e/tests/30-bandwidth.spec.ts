import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { addCounter, attachLab } from '@ibwatch/lab';
import { REPO_ROOT } from '../state.ts';
import { expect, setTokenViaUi, snap, test, type NcclRunDetailReply, type NcclRunRow } from './fixtures.ts';

// The real 2 x 8 H100 all_reduce run with GPUDirect RDMA (392.85 GB/s at 8 GiB), its two hosts
// renamed to hosts of the lab so that the run lands on the lab's fabric.
const FIXTURE = resolve(REPO_ROOT, 'packages/parsers/fixtures/nccl/all_reduce_perf.gdr-enabled.multinode.good.txt');
const onHosts = (a: string, b: string) =>
  readFileSync(FIXTURE, 'utf8').replaceAll('dgx-h100-017', a).replaceAll('dgx-h100-018', b);
const DAY = 86_400_000;

// The form's datetime-local is read in the browser's zone: pin it so the test can compute it.
test.use({ timezoneId: 'UTC' });

test('a run imported after the fact shows at its own time, with one busbw figure on every view', async ({
  page,
  api,
  env,
}) => {
  const startedAt = Math.floor((Date.now() - 3 * DAY) / 60_000) * 60_000;
  await page.goto('/scans');
  await setTokenViaUi(page, env.token);
  await page.getByTestId('nccl-import-text').fill(onHosts('dgx-0003', 'dgx-0004'));
  await page.getByTestId('nccl-label-cluster').fill('e2e-backdated');
  await page.getByTestId('nccl-label-nodes').fill('2');
  await page.getByTestId('nccl-run-at').fill(new Date(startedAt).toISOString().slice(0, 16));
  await page.getByTestId('nccl-import-submit').click();
  await expect(page.getByTestId('nccl-import-result')).toContainText('Imported.');

  const run = (await api.get<NcclRunRow[]>('/api/nccl/runs')).find((r) => r.labels.cluster === 'e2e-backdated')!;
  expect(run).toMatchObject({ at: startedAt, startedAt, verdict: 'pass', peakSizeBytes: 2 ** 33, scope: 'multi-node' });
  expect(run.createdAt - run.at).toBeGreaterThan(2 * DAY);
  const headline = `${run.peakBusbwGBs!.toFixed(1)} GB/s`;

  // The list: the run's row at its date, with its headline (not the 150-ish average); the CSV
  // row of the run says the same.
  await page.goto('/bandwidth');
  const row = page.locator('[data-testid="nccl-run-row"]', { has: page.getByRole('link', { name: `#${run.id}` }) });
  await expect(row.getByTestId('nccl-run-busbw')).toHaveText(headline);
  await expect(row.locator('time')).toHaveAttribute('datetime', new Date(startedAt).toISOString());
  const yMax = Number(await page.getByTestId('bandwidth-chart').getAttribute('data-y-max'));
  expect(yMax).toBeGreaterThan(360);
  await expect(page.getByTestId('bandwidth-pass-text')).toContainText(/had a target; \d+ met it\./);
  const csvHref = await page.getByTestId('bandwidth-csv').getAttribute('href');
  const csv = await (await page.request.get(csvHref!)).text();
  const line = csv.split('\r\n').find((l) => l.split(',')[2] === String(run.id))!;
  expect(line).toContain(`,${headline.replace(' GB/s', '')},8 GiB,`);
  expect(line).toMatch(/,PASS,on,$/);

  // The run page: the headline with its size; the average labelled as what it is.
  await row.getByRole('link', { name: `#${run.id}` }).click();
  await expect(page.getByTestId('run-headline')).toContainText(`${headline} at 8 GiB`);
  await expect(page.getByTestId('run-target')).toContainText(
    '360.0 GB/s for all_reduce across nodes, over the fabric; hardware profile 8x H100, 8x400G',
  );
  await expect(page.getByTestId('run-largest')).toContainText(
    `${run.largestBusbwGBs!.toFixed(1)} GB/s at 8 GiB — what regressions compare`,
  );
  await expect(page.getByTestId('run-avg-busbw')).toContainText('mean over every size');
  await expect(page.getByTestId('run-size-chart').locator('.recharts-line')).toHaveCount(2);
  await snap(page, 'bandwidth-run-backdated');

  // The report counts it in its own week, not in the week it was imported.
  const week = `from=${startedAt - DAY}&to=${startedAt + DAY}`;
  const report = await api.get<{ runs: number }>(`/api/reports/bandwidth?${week}`);
  expect(report.runs).toBe(1);
});

test("a run's page lists the findings on its hosts' links, not those elsewhere in the fabric", async ({
  page,
  api,
  env,
}) => {
  // Symbol errors on the leaf port of one host of the run, and on one of a host outside it.
  const topo = await api.topology();
  const leafEndOf = (hca: string) => {
    const l = topo.links.find((x) => x.a.name === hca || x.b.name === hca)!;
    return l.a.name === hca ? l.b : l.a;
  };
  const inRun = leafEndOf('dgx-0001 mlx5_0');
  const outside = leafEndOf('dgx-0009 mlx5_0');
  const lab = await attachLab(env.labDir);
  for (const end of [inRun, outside])
    await addCounter(lab, { node: end.name, port: end.port }, 'SymbolErrorCounter', 400);
  const about = (end: { guid: string; port: number }) => (f: { subjectKey: string }) =>
    f.subjectKey.includes(`${end.guid}/${end.port}`);
  await api.scanUntil(
    'pm',
    async () => {
      const open = await api.get<{ subjectKey: string; kind: string }[]>('/api/findings?state=active');
      const both = [inRun, outside].every((end) => open.some((f) => f.kind === 'symbol-errors' && about(end)(f)));
      return both ? true : undefined;
    },
    'symbol-error findings on both leaf ports',
  );

  const created = await api.post<{ id: number }>('/api/nccl-runs', {
    text: onHosts('dgx-0001', 'dgx-0002'),
    name: 'e2e-scope.txt',
    labels: { cluster: 'e2e-scope' },
  });
  const d = await api.get<NcclRunDetailReply>(`/api/nccl/runs/${created.id}`);
  expect(d.correlation).toMatchObject({ unmatchedHosts: [], links: 16, switches: 8, tiers: ['leaf'] });
  const fabric = d.correlatedFindings.filter((f) => f.subjectType !== 'run' && f.subjectType !== 'sm');
  expect(fabric.some(about(inRun))).toBe(true);
  expect(fabric.some(about(outside))).toBe(false);
  // Nothing else either (spec 02's burst on dgx-0007's link, say): every one is on a link of the run's HCAs.
  const runEnds = topo.links
    .filter((l) => [l.a.name, l.b.name].some((n) => /^dgx-000[12] mlx5_\d+$/.test(n)))
    .flatMap((l) => [l.a, l.b]);
  for (const f of fabric)
    expect(
      runEnds.some((end) => about(end)(f)),
      f.subjectKey,
    ).toBe(true);

  await page.goto(`/bandwidth/runs/${created.id}`);
  const around = page.locator('section[aria-labelledby="run-around"]');
  await expect(page.getByTestId('run-correlation')).toContainText(
    'findings on 2 hosts (16 HCAs), their 16 links and the 8 switches above them (leaf).',
  );
  await expect(around.getByTestId('finding-row')).toHaveCount(d.correlatedFindings.length);
  await snap(page, 'bandwidth-run-findings');
});
