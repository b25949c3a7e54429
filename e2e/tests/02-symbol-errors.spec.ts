import { addCounter, attachLab } from '@ibwatch/lab';
import { expect, test, type CounterHistoryReply, type WorklistEntry } from './fixtures.ts';

// A burst of symbol errors on one leaf port (down-link to a GPU HCA), injected through ibsim's
// PerformanceSet, must reach the worklist and the port's SymbolErrorCounter trend.
const PORT = { node: 'leaf-r2-01', port: 7 };
const BURST = 400;

const touches = (e: WorklistEntry) => [e.a, e.b].some((end) => end?.name === PORT.node && end.port === PORT.port);

test('a symbol-error burst shows on the worklist and in the port trend', async ({ page, api, env }) => {
  const lab = await attachLab(env.labDir);
  expect(await addCounter(lab, PORT, 'SymbolErrorCounter', BURST)).toBeGreaterThanOrEqual(BURST);

  // A PM scan through the API makes the delta deterministic; the 5 s cron may beat it to it.
  const entry = await api.scanUntil(
    'pm',
    async () => (await api.get<WorklistEntry[]>('/api/worklist')).find(touches),
    `a worklist entry for ${PORT.node} port ${PORT.port}`,
  );
  const leafEnd = entry.a.name === PORT.node ? entry.a : entry.b!;
  const hcaEnd = entry.a.name === PORT.node ? entry.b! : entry.a;
  expect(hcaEnd.name).toMatch(/^dgx-\d+ mlx5_\d+$/);
  expect(entry.reasons.join(' ')).toContain('symbol errors');

  await page.goto('/worklist');
  const row = page.locator(`[data-testid="worklist-row"][data-link-key="${entry.linkKey}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-severity', entry.severity);
  await expect(row).toContainText(PORT.node);
  await expect(row).toContainText(hcaEnd.name);
  await expect(row).toContainText('symbol errors');
  // Its blast radius: the HCA's host and rail, one GPU (no Slurm in the e2e collector).
  const host = hcaEnd.name.split(' ')[0]!;
  const rail = hcaEnd.name.replace(/^.* mlx5_/, '');
  expect(entry.impact).toMatchObject({ kind: 'hca-link', hosts: [host], rails: [Number(rail)], gpus: 1, jobs: [] });
  const impact = row.getByTestId('worklist-impact');
  await expect(impact).toHaveAttribute('data-gpus', '1');
  await expect(impact).toContainText(`${host}, rail ${rail} · 1 GPU`);
  await expect(impact).toContainText('Slurm jobs not read');

  await row.getByRole('link', { name: `${PORT.node} port ${PORT.port}` }).click();
  await expect(page).toHaveURL(new RegExp(`/ports/${leafEnd.guid}/${PORT.port}(\\?|$)`));
  await expect(page.getByTestId('port-detail')).toBeVisible();

  const hist = await api.get<CounterHistoryReply>(`/api/ports/${leafEnd.guid}/${PORT.port}/counters?range=1h`);
  const sym = hist.points.filter((p) => p.counter === 'SymbolErrorCounter');
  expect(sym.reduce((n, p) => n + p.delta, 0)).toBeGreaterThanOrEqual(BURST);

  const chart = page.locator('[data-testid="port-rate-chart"][data-counter="SymbolErrorCounter"]');
  await expect(chart).toBeVisible();
  await expect(chart).toContainText('over threshold');
  await expect(chart.locator('.recharts-line-dot').first()).toBeVisible();
  await expect(page.locator('[data-testid="finding-row"][data-state="open"]').first()).toBeVisible();
});
