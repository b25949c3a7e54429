import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { recordExtraCollector, startCollector, stopCollector } from '../collector.ts';
import { REPO_ROOT } from '../state.ts';
import { expect, snap, test, type FabricSummary } from './fixtures.ts';

// What the dashboard says must be true: the wall turns STALE at the first poll its API does not
// answer and keeps nothing green under it; empty views tell "no data yet" from "checked, none";
// search placeholders name nodes of the fabric shown; an unknown port is one message; the
// overview logs no Recharts sizing warnings. The kiosk polls every 10 s.

const KIOSK_REFRESH_MS = 10_000;
const NCCL_RUN = resolve(REPO_ROOT, 'packages/parsers/fixtures/nccl/all_reduce_perf.gdr-disabled.multinode.good.txt');

async function freshSummary(page: Page): Promise<FabricSummary> {
  for (let i = 0; i < 60; i++) {
    const s = (await (await page.request.get('/api/summary')).json()) as FabricSummary;
    if (s.freshness.length && s.freshness.every((f) => f.state === 'fresh') && s.fabricStatus.word !== 'STALE')
      return s;
    await page.waitForTimeout(500);
  }
  throw new Error('the lab collector never had every scan kind fresh');
}

test.describe('the wall when its API stops answering', () => {
  test('the kiosk says STALE at the first failed poll, and no FRESH badge or green SM word is left', async ({
    page,
  }) => {
    // Wide enough that the kiosk shows its scans table (a smaller wall leaves it out).
    await page.setViewportSize({ width: 1920, height: 1080 });
    const before = await freshSummary(page);
    await page.goto('/?kiosk=1');
    const status = page.getByTestId('fabric-status');
    await expect(status).toHaveAttribute('data-status', before.fabricStatus.word);
    await expect(page.locator('[data-testid="overview-scan"][data-freshness="fresh"]').first()).toBeVisible();
    await expect(page.locator('.badge', { hasText: 'FRESH' }).first()).toBeVisible();

    // Every API request now fails as a stopped collector's would (connection refused).
    const stoppedAt = Date.now();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await expect(status).toHaveAttribute('data-status', 'STALE', { timeout: KIOSK_REFRESH_MS + 5_000 });
    // The first poll after the stop, not two refresh periods later.
    expect(Date.now() - stoppedAt).toBeLessThan(KIOSK_REFRESH_MS + 4_000);
    await expect(page.locator('[data-testid="stale-banner"][data-kind="collector"]')).toBeVisible();
    await expect(page.getByTestId('fabric-status-reasons')).toContainText(`it said ${before.fabricStatus.word} then`);
    await expect(page.locator('[data-testid="overview-scan"][data-freshness="fresh"]')).toHaveCount(0);
    await expect(page.locator('[data-testid="overview-scan"][data-freshness="unknown"]')).toHaveCount(
      before.freshness.length,
    );
    await expect(page.locator('.badge', { hasText: 'FRESH' })).toHaveCount(0);
    await expect(page.getByTestId('sm-status')).not.toHaveClass(/tone-ok/);
    // Nothing green at all: the last runs' OK badges are as of then too.
    await expect(page.locator('.tone-ok')).toHaveCount(0);
    // The scans table fits its card: no column cut off on the wall.
    const table = page.locator('.scans-card .table-wrap');
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await snap(page, 'wall-api-stopped');

    // Answering again: the collector's own word is back at the next poll.
    await page.unroute('**/api/**');
    await expect(status).toHaveAttribute('data-status', /^(OK|DEGRADED|CRITICAL)$/, {
      timeout: KIOSK_REFRESH_MS + 5_000,
    });
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
  });

  test('a poll left unanswered fails too: the fleet wall tile of this fabric turns STALE', async ({ page }) => {
    test.setTimeout(60_000);
    await freshSummary(page);
    await page.goto('/fleet?kiosk=1');
    const tile = page.getByTestId('fleet-tile').first();
    await expect(tile).toHaveAttribute('data-status', /^(OK|DEGRADED|CRITICAL)$/);
    await expect(tile.getByTestId('fleet-freshness')).toHaveAttribute('data-freshness', 'fresh');
    // A collector that hangs: the request is never answered (nor refused).
    await page.route('**/api/fleet', () => undefined);
    // The next poll (10 s) fails at its deadline (9 s).
    await expect(page.getByTestId('fleet-status')).toHaveAttribute('data-status', 'STALE', { timeout: 25_000 });
    await expect(tile).toHaveAttribute('data-status', 'STALE');
    await expect(tile.getByTestId('fleet-freshness')).toHaveAttribute('data-freshness', 'unknown');
    await expect(tile.getByTestId('fleet-freshness')).not.toContainText('fresh');
    await expect(page.getByTestId('error-state')).toContainText('no answer from the collector within 9 s');
    await snap(page, 'fleet-api-hung');
  });
});

test.describe('empty views tell "no data yet" from "checked, nothing found"', () => {
  test('an import-only collector on an empty database says no data yet and what to do, on every view', async ({
    page,
    env,
  }) => {
    test.setTimeout(90_000);
    const { pid, baseURL } = await startCollector({
      labDir: env.labDir,
      dbFile: join(env.tmpDir, 'empty-import-only.db'),
      log: join(env.tmpDir, 'empty-import-only.log'),
      token: env.token,
      env: { IBWATCH_SOURCE: 'import-only' },
      onSpawn: (p) => recordExtraCollector(env.tmpDir, p),
      until: 'answering',
    });
    try {
      const s = (await (await page.request.get(`${baseURL}/api/summary`)).json()) as FabricSummary;
      expect(s.completedScans).toEqual([]);
      expect(s.freshness).toEqual([]);
      expect(s.exampleNames).toEqual({ switch: null, host: null, rack: null });

      for (const [path, name] of [
        ['/worklist', 'empty-worklist'],
        ['/findings', 'empty-findings'],
        ['/scans', 'empty-scans'],
      ] as const) {
        await page.goto(`${baseURL}${path}`);
        const empty = page.getByTestId('no-rows');
        await expect(empty).toHaveAttribute('data-coverage', 'no-data');
        await expect(empty).toHaveAttribute('data-import-only', 'true');
        await expect(empty).toContainText('schedules no scans (import-only)');
        await expect(empty).toContainText('ibwatch import ibdiagnet DIR');
        await expect(empty).not.toContainText('Nothing to reseat');
        await expect(empty).not.toContainText('No finding matches');
        await expect(empty).not.toContainText('starts one shortly');
        await snap(page, name);
      }
      await page.goto(`${baseURL}/`);
      await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', 'STALE');
      await expect(page.getByTestId('overview-no-data')).toContainText('schedules no scans (import-only)');
      await snap(page, 'empty-overview');

      // No fabric: the placeholders are neutral words, not made-up node names.
      await page.goto(`${baseURL}/worklist`);
      await expect(page.getByLabel('Switch')).toHaveAttribute('placeholder', 'switch name');
      await page.goto(`${baseURL}/ports`);
      await expect(page.getByLabel('Name, GUID or LID')).toHaveAttribute('placeholder', 'host, switch, GUID or LID');
    } finally {
      await stopCollector(pid);
    }
  });

  test('on a scanned fabric an empty result says it was checked', async ({ page }) => {
    await page.goto('/findings?kind=no-such-kind');
    const empty = page.getByTestId('no-rows');
    await expect(empty).toHaveAttribute('data-coverage', 'checked');
    await expect(empty).toContainText('No finding matches these filters.');
    await expect(empty).toContainText('checked by the');
  });
});

test('search placeholders name a switch and a host of the fabric shown', async ({ page, api }) => {
  const topo = await api.topology();
  const switches = new Set(topo.nodes.filter((n) => n.type === 'switch').map((n) => n.name));
  const hosts = new Set(topo.nodes.map((n) => n.host).filter((h): h is string => !!h));
  const named = (placeholder: string | null) => {
    expect(placeholder).not.toMatch(/dgx-0042|leaf-r3-07/);
    return placeholder ?? '';
  };

  await page.goto('/worklist');
  await expect(page.getByLabel('Switch')).toHaveAttribute('placeholder', /^e\.g\. /);
  const sw = named(await page.getByLabel('Switch').getAttribute('placeholder'));
  expect(switches.has(sw.replace(/^e\.g\. /, '')), sw).toBe(true);

  await page.goto('/ports');
  await expect(page.getByLabel('Name, GUID or LID')).toHaveAttribute('placeholder', /^e\.g\. /);
  const ports = named(await page.getByLabel('Name, GUID or LID').getAttribute('placeholder'));
  const [host, swName] = ports.replace(/^e\.g\. /, '').split(' or ');
  expect(hosts.has(host!), ports).toBe(true);
  expect(switches.has(swName!), ports).toBe(true);
  // What the placeholder names, the search finds.
  await page.getByLabel('Name, GUID or LID').fill(host!);
  await page.getByLabel('Name, GUID or LID').press('Enter');
  await expect(page.locator('table tbody tr').first()).toContainText(host!);

  await page.goto('/topology');
  const search = page.getByTestId('topology-search');
  await expect(search).toBeEnabled({ timeout: 30_000 });
  const find = named(await search.getAttribute('placeholder'));
  expect(find).toBe(`e.g. ${host}, ${[...switches].find((n) => find.includes(n))} or a GUID`);
  await snap(page, 'topology-labels');
});

test('an unknown port is one "no such port" message with a way back', async ({ page }) => {
  for (const [path, name] of [
    ['/ports/0x00000000deadbeef/9', 'port-not-found'],
    ['/ports/not-a-guid/1', 'port-not-an-address'],
  ] as const) {
    await page.goto(path);
    const msg = page.getByTestId('port-not-found');
    await expect(msg).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No such port');
    await expect(page.getByTestId('error-state')).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(1);
    await expect(msg.getByRole('link', { name: '← Back to the port list' })).toHaveAttribute('href', '/ports');
    await snap(page, name);
  }
});

test('the overview logs no chart sizing warning, on the desktop and on a small wall screen', async ({ page, api }) => {
  // The nccl sparkline is the overview's chart: one run imported so that it is drawn.
  if (!(await api.get<FabricSummary>('/api/summary')).ncclTrend.length)
    await api.post('/api/nccl-runs', { text: readFileSync(NCCL_RUN, 'utf8'), labels: { cluster: 'e2e-wall' } });
  const s = await api.get<FabricSummary>('/api/summary');
  expect(s.ncclTrend.length).toBeGreaterThan(0);
  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') logged.push(m.text());
  });
  for (const path of ['/', '/?kiosk=1']) {
    await page.goto(path);
    await expect(page.getByTestId('fabric-status')).toBeVisible();
    // Drawn on the desktop; in a hidden card on the 1280 px wall screen (where the warning came from).
    if (path === '/') await expect(page.locator('[data-testid="nccl-sparkline"] svg').first()).toBeVisible();
    else await expect(page.getByTestId('nccl-sparkline')).toBeHidden();
    // Past a refresh of the page's data and a resize, which re-render the chart.
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(1_500);
  }
  expect(logged.filter((t) => /width\(-?\d+\) and height\(-?\d+\)/.test(t))).toEqual([]);
});
