import { addCounter, attachLab, peerOf } from '@ibwatch/lab';
import { expect, snap, test, type FabricSummary, type ScanRow } from './fixtures.ts';

// A cable that flapped 3 times (LinkDownedCounter +3 on both ends, the link stays up) is a link
// that flapped 3 times today for the whole flap window (24 h): the sweeps after the one that saw
// the downs observe no new down, which is no repair. It stays in Broken now, never reads
// "Recently fixed", until someone marks it fixed; then it is a recent event, marked fixed.
// Its own host cable, not used by another spec; the counter stays raised (no further deltas).
const CABLE = { node: 'leaf-r3-01', port: 9 };
const FLAPPED = /^link flapped 3 times in 24 h$/;

test('a flap stays in Broken now for its window, until someone marks it fixed', async ({ page, api, env }) => {
  test.setTimeout(150_000);
  const lab = await attachLab(env.labDir);
  for (const end of [CABLE, peerOf(lab, CABLE)]) await addCounter(lab, end, 'LinkDownedCounter', 3);
  const summary = () => api.get<FabricSummary>('/api/summary');
  // The cron's PM sweeps (every 5 s), never one through the API: on a loaded machine a scan
  // request may outlast the request timeout. Resolves once a sweep that started after `t` is done.
  const sweepAfter = (t: number) =>
    expect
      .poll(
        async () =>
          (await api.get<ScanRow[]>('/api/scans?limit=50')).some(
            (r) => r.kind === 'pm' && r.startedAt > t && (r.status === 'ok' || r.status === 'partial'),
          ),
        { timeout: 60_000 },
      )
      .toBe(true);
  const flapRow = (s: FabricSummary) => s.brokenNow.find((r) => r.reasons.some((x) => FLAPPED.test(x)));
  // The cron's next PM sweep sees the downs.
  let first: FabricSummary['brokenNow'][number] | undefined;
  await expect
    .poll(async () => (first = flapRow(await summary())) !== undefined, { timeout: 60_000, message: 'the flap' })
    .toBe(true);
  if (!first) throw new Error('unreachable: polled until the flap row was there');
  expect(first).toMatchObject({ kind: 'cable', severity: 'major' });
  expect(first.title).toContain(`${CABLE.node} port ${CABLE.port}`);
  const key = first.key;

  // Longer than the ~35 s after which it used to leave, with PM sweeps every 5 s (cron): none of
  // them sees a new down.
  await page.waitForTimeout(40_000);
  await sweepAfter(Date.now());
  const later = await summary();
  expect(later.brokenNow.find((r) => r.key === key)?.reasons).toEqual(
    expect.arrayContaining(['link flapped 3 times in 24 h']),
  );
  expect(later.recentlyFixed.map((r) => r.key)).not.toContain(key);
  expect(later.recentEvents.map((r) => r.key)).not.toContain(key);

  await page.goto('/');
  const row = page.locator(`[data-testid="broken-row"][data-key="${key}"]`);
  await expect(row).toContainText('link flapped 3 times in 24 h');
  await expect(row).toHaveAttribute('data-severity', 'major');
  await expect(page.locator(`[data-testid="fixed-row"][data-key="${key}"]`)).toHaveCount(0);
  await snap(page, 'overview-flap-window');

  // Marked fixed (the worklist's "Mark fixed", as the technician does after a reseat).
  const ids = later.brokenNow.find((r) => r.key === key)!.findingIds;
  for (const id of ids) await api.post(`/api/findings/${id}/resolve`, { note: 'reseated (e2e 42)' });
  const fixed = await summary();
  expect(fixed.brokenNow.map((r) => r.key)).not.toContain(key);
  expect(fixed.recentlyFixed.map((r) => r.key)).not.toContain(key);
  expect(fixed.recentEvents.find((r) => r.key === key)).toMatchObject({ how: 'marked-fixed', severity: 'major' });
  await sweepAfter(Date.now());
  expect((await summary()).brokenNow.map((r) => r.key)).not.toContain(key);

  await page.goto('/');
  const event = page.locator(`[data-testid="event-row"][data-key="${key}"]`);
  await expect(event).toHaveAttribute('data-how', 'marked-fixed');
  await expect(event).toContainText('marked fixed');
  await expect(page.locator(`[data-testid="broken-row"][data-key="${key}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-testid="fixed-row"][data-key="${key}"]`)).toHaveCount(0);
  await snap(page, 'overview-flap-marked-fixed');
});
