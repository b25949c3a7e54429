import { attachLab, degradeLink, restoreLink } from '@ibwatch/lab';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, snap, test, type Api, type FabricSummary, type TopoLink } from './fixtures.ts';

// What the screen says is what the fabric is now: a leaf-spine cable trained down to 2X is red
// in every view at the first topology scan that sees it, and green in every view at the first
// scan after it is repaired (not after an auto-resolve count of scans). Its own cable (03 left
// leaf-r0-01 port 33 at 2X for the screenshots), restored at the end: the fabric is left as found.
const CABLE = { node: 'leaf-r1-01', port: 34 };

const onCable = (l: TopoLink) => [l.a, l.b].some((e) => e.name === CABLE.node && e.port === CABLE.port);

/** One topology scan through the API, finished when it returns (the same pipeline as the cron). */
async function topologyScan(api: Api): Promise<void> {
  const row = await api.scan('topology');
  expect(row.status, 'topology scan').not.toBe('failed');
}

async function metrics(request: APIRequestContext): Promise<string> {
  const r = await request.get('/metrics');
  expect(r.status()).toBe(200);
  return r.text();
}

const degradedCount = (m: string) => Number(/^ibwatch_links\{health="degraded"\} (\d+)$/m.exec(m)?.[1] ?? NaN);
const unhealthySeries = (m: string, guid: string) =>
  m.split('\n').filter((l) => l.startsWith('ibwatch_link_unhealthy{') && l.includes(`"${guid}"`));

/** The overview's verdict on this cable: its broken-now row (or none) and the degraded-links tile. */
async function overviewShows(page: Page, linkKey: string, broken: boolean, degradedTile: number) {
  await page.goto('/');
  const row = page.locator(`[data-testid="broken-row"][data-key="${linkKey}"]`);
  if (broken) {
    await expect(row).toBeVisible();
    await expect(row).toContainText('width 4X->2X');
    await expect(row.getByRole('link')).toHaveAttribute('href', `/worklist?${new URLSearchParams({ focus: linkKey })}`);
  } else {
    await expect(page.getByTestId('broken-now')).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.locator(`[data-testid="fixed-row"][data-key="${linkKey}"]`)).toBeVisible();
  }
  await expect(page.getByTestId('summary-degraded')).toHaveText(String(degradedTile));
}

test('a repaired cable is green in every view at the first scan after the repair', async ({
  page,
  api,
  env,
  request,
}) => {
  test.setTimeout(120_000);
  const lab = await attachLab(env.labDir);
  const before = await api.get<FabricSummary>('/api/summary');
  const link = (await api.topology()).links.find(onCable)!;
  expect(link.health).toBe('ok');
  const end = link.a.name === CABLE.node ? link.a : link.b;
  const portApi = `/api/ports/${end.guid}/${end.port}`;
  const linkKey = [`${link.a.guid}/${link.a.port}`, `${link.b.guid}/${link.b.port}`].sort().join('~');

  // degrade -> red at the next scan. degradeLink returns once both ends hold 2X.
  await degradeLink(lab, CABLE, { width: '2X' });
  await topologyScan(api);
  const red = await api.get<FabricSummary>('/api/summary');
  expect(red.brokenNow.find((r) => r.key === linkKey)).toMatchObject({ kind: 'cable', reasons: ['width 4X->2X'] });
  expect(red.degradedLinks).toBe(before.degradedLinks + 1);
  expect(red.fabricStatus.word).not.toBe('OK');
  expect((await api.topology()).links.find(onCable)).toMatchObject({ health: 'degraded' });
  expect((await api.get<{ health: string }>(portApi)).health).toBe('degraded');
  const m1 = await metrics(request);
  expect(degradedCount(m1)).toBe(before.degradedLinks + 1);
  expect(unhealthySeries(m1, end.guid).some((l) => l.includes('health="degraded"'))).toBe(true);

  await overviewShows(page, linkKey, true, before.degradedLinks + 1);
  await expect(page.getByTestId('fabric-status')).not.toHaveAttribute('data-status', 'OK');
  await snap(page, 'overview-degraded');
  await page.getByTestId('broken-row').filter({ hasText: 'width 4X->2X' }).getByRole('link').first().click();
  await expect(page.locator(`[data-testid="worklist-row"][data-link-key="${linkKey}"]`)).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.locator(`[data-testid="worklist-row"][data-link-key="${linkKey}"]`)).toHaveAttribute(
    'data-cleared',
    '0',
  );
  await page.goto(`/topology?sel=l:${link.id}`);
  await expect(page.getByTestId('topology-link-health')).toContainText('DEGRADED');
  await page.goto(`/ports/${end.guid}/${end.port}`);
  await expect(page.getByTestId('port-health')).toHaveAttribute('data-health', 'degraded');

  // restore -> green at the first scan after (restoreLink returns once both ends are back at 4X).
  await restoreLink(lab, CABLE);
  await topologyScan(api);
  const green = await api.get<FabricSummary>('/api/summary');
  expect(green.brokenNow.map((r) => r.key)).not.toContain(linkKey);
  expect(green.recentlyFixed.find((r) => r.key === linkKey)).toMatchObject({
    state: 'open',
    reasons: ['width 4X->2X'],
  });
  expect(green.degradedLinks).toBe(before.degradedLinks);
  // The fabric is as it was before the fault, and the status word says so (01 checks OK on the
  // healthy fabric; here 03's cable may still be at 2X).
  expect(green.fabricStatus).toEqual(before.fabricStatus);
  expect((await api.topology()).links.find(onCable)).toMatchObject({ health: 'ok' });
  expect(await api.get<{ health: string; healthReason: string | null }>(portApi)).toMatchObject({
    health: 'ok',
    healthReason: null,
  });
  const m2 = await metrics(request);
  expect(degradedCount(m2)).toBe(before.degradedLinks);
  expect(unhealthySeries(m2, end.guid)).toEqual([]);

  await overviewShows(page, linkKey, false, before.degradedLinks);
  await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', green.fabricStatus.word);
  await snap(page, 'overview-repaired');
  await page.goto(`/worklist?focus=${encodeURIComponent(linkKey)}`);
  const entry = page.locator(`[data-testid="worklist-row"][data-link-key="${linkKey}"]`);
  await expect(entry).toHaveAttribute('data-cleared', '1');
  await expect(entry).toContainText('CLEARED');
  await page.goto(`/topology?sel=l:${link.id}`);
  await expect(page.getByTestId('topology-link-health')).toContainText('OK');
  await page.goto(`/ports/${end.guid}/${end.port}`);
  await expect(page.getByTestId('port-health')).toHaveAttribute('data-health', 'ok');
});
