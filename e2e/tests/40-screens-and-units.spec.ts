import { expect, test, type FindingRow, type NcclRunRow, type PortsReply, type WorklistEntry } from './fixtures.ts';

// Smaller defects of the review (issue 13, item 6) that need a real browser: dark mode across a
// reload under the collector's CSP, pages at a phone's width, the port chart's axis and unit,
// the ports list's sort arrow, the findings kind filter. Changes nothing in the fabric.

test('dark mode survives a reload: the theme script is not blocked by the CSP', async ({ page }) => {
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  await page.goto('/ports');
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.getByTestId('ports-page')).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('aria-pressed', 'true');
  // Back to light for the specs after this one (the choice lives in localStorage).
  await page.getByTestId('theme-toggle').click();
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  expect(csp).toEqual([]);
});

test('no page is wider than a 390 px phone screen', async ({ page, api }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const [port] = (await api.get<PortsReply>('/api/ports?sort=-findings&limit=1')).items;
  const [run] = await api.get<NcclRunRow[]>('/api/nccl/runs');
  const pages: [string, string][] = [
    ['/', 'overview'],
    ['/topology', 'topology-page'],
    ['/ports', 'ports-page'],
    [`/ports/${port!.guid}/${port!.port}`, 'port-detail'],
    ['/worklist', 'worklist-page'],
    ['/findings', 'findings-page'],
    ['/sm', 'sm-page'],
    ['/bandwidth', 'bandwidth-page'],
    ['/scans', 'scans-page'],
    ['/firmware', 'firmware-page'],
    ['/fleet', 'fleet-tile'],
  ];
  if (run) pages.push([`/bandwidth/runs/${run.id}`, 'nccl-run-detail']);
  for (const [path, testid] of pages) {
    await page.goto(path);
    await expect(page.getByTestId(testid)).toBeVisible();
    await expect(page.getByTestId('loading-state')).toHaveCount(0);
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll, `${path} is ${scroll} px wide on a ${client} px screen`).toBeLessThanOrEqual(client);
  }
});

test('the port chart spans what was observed, with several time ticks, in errors per hour', async ({ page, api }) => {
  // The symbol-error port of spec 02: fresh data on a port first seen minutes ago.
  const entry = (await api.get<WorklistEntry[]>('/api/worklist')).find((e) =>
    e.reasons.some((r) => r.startsWith('symbol errors')),
  );
  expect(entry, 'a symbol-error entry on the worklist').toBeDefined();
  expect(entry!.reasons.find((r) => r.startsWith('symbol errors'))).toMatch(/\/h\)$/);
  await page.goto(`/ports/${entry!.a.guid}/${entry!.a.port}`);
  const chart = page.locator('[data-testid="port-rate-chart"][data-counter="SymbolErrorCounter"]');
  await expect(chart).toBeVisible();
  const xTicks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect.poll(() => xTicks.count()).toBeGreaterThanOrEqual(3);
  const yTicks = await chart
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .allTextContents();
  expect(yTicks.length).toBeGreaterThan(1);
  for (const t of yTicks) expect(t).toMatch(/\/h$/);
  await expect(chart).toContainText(/threshold [\d.,e+-]+\/h/);
  await expect(page.getByRole('heading', { name: 'Error counter rates (per hour)' })).toBeVisible();
});

test('sorting the ports by open findings puts the most first and the arrow says so', async ({ page, api }) => {
  const top = (await api.get<PortsReply>('/api/ports?sort=-findings&limit=1')).items[0]!;
  expect(top.openFindings).toBeGreaterThan(0);
  await page.goto('/ports');
  const header = page.getByRole('columnheader', { name: /Open findings/ });
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=-findings(&|$)/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(header).toContainText('▼');
  await expect(page.getByTestId('port-row').first()).toHaveAttribute('data-guid', top.guid);
  await expect(page.getByTestId('port-row').first()).toHaveAttribute('data-port', String(top.port));
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=findings(&|$)/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('port-row').first().locator('td.num')).toHaveText('0');
});

test('the findings kind filter’s example, link-degraded, finds the degraded link', async ({ page, api }) => {
  // Spec 03 trained a cable down to 2X: a link-degraded-width finding.
  const degraded = await api.get<FindingRow[]>('/api/findings?kind=link-degraded');
  expect(degraded.length).toBeGreaterThan(0);
  expect(degraded.every((f) => f.kind.startsWith('link-degraded-'))).toBe(true);
  await page.goto('/findings');
  const input = page.getByTestId('filter-kind');
  await expect(input).toHaveAttribute('placeholder', 'link-degraded');
  await input.fill('link-degraded');
  await page.getByTestId('filter-apply').click();
  await expect(page).toHaveURL(/[?&]kind=link-degraded(&|$)/);
  await expect(page.getByTestId('finding-row')).toHaveCount(degraded.length);
  await expect(page.getByTestId('finding-row').first()).toContainText('link-degraded-');
});
