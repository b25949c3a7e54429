import { attachLab, degradeLink } from '@ibwatch/lab';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import type { FabricSummary, FleetReply } from '../../packages/fabric/src/api.ts';
import { worstFleetWord } from '../../packages/fabric/src/fleet.ts';
import { fleetCollector, stopFleetCollector, type FabricName, type FleetCollector } from '../fleet.ts';
import { snap } from './fixtures.ts';

// The fleet wall on three lab fabrics (fleet.ts): plane-1 serves /fleet and reads plane-2 and
// plane-3 (which needs a read token) server-side. A cable of plane-2 is trained down to 2X and
// must show on plane-2's tile only; then plane-3's collector is stopped and its tile must say
// UNREACHABLE, keeping what it said last. These labs are this project's own: the fault stays,
// and plane-3's collector stays stopped until the fleet teardown.

test.describe.configure({ mode: 'serial' });

const UPLINK = { node: 'leaf-r0-01', port: 33 };

async function summaryOf(request: APIRequestContext, c: FleetCollector): Promise<FabricSummary> {
  const res = await request.get(`${c.baseURL}/api/summary`, { headers: { authorization: `Bearer ${c.token}` } });
  expect(res.status(), `${c.name} /api/summary`).toBe(200);
  return (await res.json()) as FabricSummary;
}

const tile = (page: Page, name: FabricName) => page.locator(`[data-testid="fleet-tile"][data-fabric="${name}"]`);

test('the fleet wall shows the three fabrics, each with the word its own collector says', async ({ page, request }) => {
  const fleet = fleetCollector('plane-1');
  // Reached from the header's Fabrics menu, which lists the peers too.
  await page.goto(`${fleet.baseURL}/`);
  await page.getByTestId('fabrics-menu').locator('summary').click();
  await expect(page.getByTestId('fabric-peer')).toHaveText(['plane-2', 'plane-3']);
  await page.getByTestId('fleet-link').click();
  await expect(page).toHaveURL(`${fleet.baseURL}/fleet`);
  await expect(page.getByTestId('fleet-tile')).toHaveCount(3);
  await expect(page.getByTestId('kiosk-toggle')).toHaveAttribute('href', '/fleet?kiosk=1');

  await page.setViewportSize({ width: 3840, height: 2160 });
  await page.goto(`${fleet.baseURL}/fleet?kiosk=1`);
  await expect(page.getByTestId('fleet-tile')).toHaveCount(3);
  expect(
    await page.getByTestId('fleet-tile').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-fabric'))),
  ).toEqual(['plane-1', 'plane-2', 'plane-3']);
  await expect(page.locator('nav[aria-label="Main"]')).toHaveCount(0);
  for (const name of ['plane-1', 'plane-2', 'plane-3'] as const) {
    const own = await summaryOf(request, fleetCollector(name));
    // What plane-1 shows is what that fabric's collector says (within the wall's refresh).
    await expect(tile(page, name)).toHaveAttribute('data-status', own.fabricStatus.word, { timeout: 30_000 });
    await expect(tile(page, name)).toHaveAttribute('data-stale', 'false');
    await expect(tile(page, name).getByTestId('fleet-sm')).toHaveAttribute('data-sm', own.sm.status);
  }
  await expect(tile(page, 'plane-1')).toContainText('this collector');
  await expect(tile(page, 'plane-2').getByTestId('fleet-tile-link')).toHaveAttribute(
    'href',
    `${fleetCollector('plane-2').baseURL}/?kiosk=1`,
  );
  // Readable across a room on a 4K panel, and no scrolling.
  const wordPx = await tile(page, 'plane-1')
    .getByTestId('fleet-tile-word')
    .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
  expect(wordPx).toBeGreaterThan(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(overflow, 'the 4K fleet wall must not need scrolling').toBeLessThanOrEqual(0);
});

test('a cable trained down to 2X in plane-2 shows on plane-2 tile, and only there', async ({ page, request }) => {
  test.setTimeout(150_000);
  const p2 = fleetCollector('plane-2');
  const lab = await attachLab(p2.labDir);
  await degradeLink(lab, UPLINK, { width: '2X' });
  // Scan plane-2 now (its schedule is slow) until its own summary lists the cable.
  const deadline = Date.now() + 60_000;
  let row: FabricSummary['brokenNow'][number] | undefined;
  while (!row) {
    const scan = await request.post(`${p2.baseURL}/api/scans`, {
      data: { kind: 'topology' },
      headers: { authorization: `Bearer ${p2.token}` },
    });
    expect(scan.status(), await scan.text()).toBeLessThan(300);
    row = (await summaryOf(request, p2)).brokenNow.find((r) => r.reasons.some((x) => x.includes('4X->2X')));
    if (!row && Date.now() > deadline) throw new Error('plane-2 never listed the 2X cable');
    if (!row) await new Promise((r) => setTimeout(r, 3_000));
  }
  expect(row.title).toContain(UPLINK.node);

  // The wall refreshes by itself (kiosk: every 10 s; the collector reads peers at most every 5 s).
  await page.goto(`${fleetCollector('plane-1').baseURL}/fleet?kiosk=1`);
  const t2 = tile(page, 'plane-2');
  await expect(t2).toHaveAttribute('data-status', 'DEGRADED', { timeout: 30_000 });
  await expect(t2.locator(`[data-testid="fleet-broken-row"][data-key="${row.key}"]`)).toContainText('4X->2X');
  await expect(t2.getByTestId('fleet-tile-reasons')).toContainText('with a problem now');
  for (const other of ['plane-1', 'plane-3'] as const) {
    await expect(tile(page, other).locator(`[data-testid="fleet-broken-row"][data-key="${row.key}"]`)).toHaveCount(0);
    await expect(tile(page, other)).not.toContainText(`${UPLINK.node} port ${UPLINK.port}`);
  }
  // The fleet's word is the worst of the three collectors' own words.
  const names = ['plane-1', 'plane-2', 'plane-3'] as const;
  const words = await Promise.all(
    names.map(async (n) => (await summaryOf(request, fleetCollector(n))).fabricStatus.word),
  );
  expect(words[1]).toBe('DEGRADED');
  await expect(page.getByTestId('fleet-status')).toHaveAttribute('data-status', worstFleetWord(words));

  // Its link opens plane-2's own dashboard, which says the same.
  await page.goto(`${fleetCollector('plane-1').baseURL}/fleet`);
  await tile(page, 'plane-2').getByTestId('fleet-tile-link').click();
  await expect(page).toHaveURL(`${p2.baseURL}/`);
  await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', 'DEGRADED');
  await expect(page.locator(`[data-testid="broken-row"][data-key="${row.key}"]`)).toBeVisible();
});

test('a collector that stops answering is UNREACHABLE on the wall, with what it said last', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = fleetCollector('plane-1');
  const p3 = fleetCollector('plane-3');
  const before = (await summaryOf(request, p3)).fabricStatus.word;
  await page.setViewportSize({ width: 3840, height: 2160 });
  await page.goto(`${fleet.baseURL}/fleet?kiosk=1`);
  await expect(tile(page, 'plane-3')).toHaveAttribute('data-stale', 'false');
  await stopFleetCollector(p3);

  const t3 = tile(page, 'plane-3');
  await expect(t3).toHaveAttribute('data-status', 'UNREACHABLE', { timeout: 40_000 });
  await expect(t3).toHaveAttribute('data-stale', 'true');
  await expect(t3.getByTestId('fleet-tile-reasons')).toContainText('connection refused');
  await expect(t3.getByTestId('fleet-tile-reasons')).toContainText(`when it said ${before}`);
  await expect(t3.getByTestId('fleet-as-of')).toBeVisible();
  // Never green: the tile is striped "no signal", and the fleet's word is the worst of the known ones and UNREACHABLE.
  await expect(t3).toHaveClass(/no-signal/);
  const others = await Promise.all(
    (['plane-1', 'plane-2'] as const).map(async (n) => (await summaryOf(request, fleetCollector(n))).fabricStatus.word),
  );
  await expect(page.getByTestId('fleet-status')).toHaveAttribute(
    'data-status',
    worstFleetWord([...others, 'UNREACHABLE']),
  );
  await expect(tile(page, 'plane-2')).toHaveAttribute('data-status', 'DEGRADED');
  const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(overflow, 'the 4K fleet wall must not need scrolling').toBeLessThanOrEqual(0);
  await snap(page, 'fleet-wall-4k');

  const api = await request.get(`${fleet.baseURL}/api/fleet`);
  const reply = (await api.json()) as FleetReply;
  const f3 = reply.fabrics.find((f) => f.name === 'plane-3')!;
  expect(f3).toMatchObject({ word: 'UNREACHABLE', stale: true, url: p3.baseURL });
  expect(f3.lastOkAt).not.toBeNull();
  expect(f3.summary?.fabricStatus.word).toBe(before);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(tile(page, 'plane-3')).toBeVisible();
  await snap(page, 'fleet-wall-1280');
  await page.goto(`${fleet.baseURL}/fleet`);
  await expect(tile(page, 'plane-3')).toHaveAttribute('data-status', 'UNREACHABLE');
  await snap(page, 'fleet-1280');
});
