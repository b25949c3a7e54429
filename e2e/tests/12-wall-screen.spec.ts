import { expect, snap, test, type FabricSummary } from './fixtures.ts';

// The overview as a wall screen: kiosk mode on a 4K panel and on a 1280x800 one. The screenshots
// go to e2e/output (overview-wall-4k.png, overview-wall-1280.png, overview-1280.png) for people to
// look at; the assertions are what makes it a wall screen: one status word readable across a
// room, no navigation, everything on one screen at 4K, the broken-now list first.

test.describe('the overview as a wall screen', () => {
  test('kiosk on a 3840x2160 panel: the status word is huge and everything fits on one screen', async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width: 3840, height: 2160 });
    const s = await api.get<FabricSummary>('/api/summary');
    await page.goto('/?kiosk=1');
    const status = page.getByTestId('fabric-status');
    await expect(status).toHaveAttribute('data-status', /^(OK|DEGRADED|STALE|CRITICAL)$/);
    await expect(page.locator('nav[aria-label="Main"]')).toHaveCount(0);
    await expect(page.getByTestId('kiosk-toggle')).toContainText('Exit kiosk');
    await expect(page.getByTestId('updated-at')).toContainText('refreshes every 10 s');
    // Readable across a room: the word's glyphs are over 100 px tall on a 4K panel.
    const wordPx = await page
      .getByTestId('fabric-status-word')
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(wordPx).toBeGreaterThan(100);
    await expect(page.getByTestId('broken-now')).toBeVisible();
    await expect(page.locator('[data-testid="overview-scan"]').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(overflow, 'the 4K wall screen must not need scrolling').toBeLessThanOrEqual(0);
    // The same rows the API lists, worst first.
    const rows = page.getByTestId('broken-row');
    await expect(rows).toHaveCount(Math.min(s.brokenNow.length, 24));
    if (s.brokenNow.length) await expect(rows.first()).toHaveAttribute('data-key', s.brokenNow[0]!.key);
    await snap(page, 'overview-wall-4k');
  });

  test('kiosk on a 1280x800 screen keeps the status, the broken-now list and the tiles in view', async ({ page }) => {
    await page.goto('/?kiosk=1');
    await expect(page.getByTestId('fabric-status')).toBeInViewport();
    await expect(page.getByTestId('broken-now')).toBeInViewport();
    await expect(page.getByTestId('summary-links')).toBeInViewport();
    // What a glance does not need is left out on a small wall screen (stale banners say when scans matter).
    await expect(page.locator('[data-testid="overview-scan"]').first()).toBeHidden();
    await snap(page, 'overview-wall-1280');
  });

  test('the desktop overview: zero counts are neutral, the scans table says how fresh each kind is', async ({
    page,
    api,
  }) => {
    const s = await api.get<FabricSummary>('/api/summary');
    await page.goto('/');
    for (const sev of ['critical', 'major', 'minor', 'info'] as const) {
      const n = s.findingsBySeverity[sev];
      const tile = page.locator('.sev-counts li', { has: page.getByTestId(`findings-${sev}`) });
      if (n === 0) await expect(tile).toHaveClass(/tone-muted/);
      else await expect(tile).not.toHaveClass(/tone-muted/);
    }
    await expect(page.locator('.tile', { has: page.getByTestId('summary-down') })).toHaveAttribute(
      'data-tone',
      s.downLinks ? 'crit' : 'neutral',
    );
    for (const f of s.freshness)
      await expect(page.locator(`[data-testid="overview-scan"][data-kind="${f.kind}"]`)).toHaveAttribute(
        'data-freshness',
        /^(fresh|pending|stale)$/,
      );
    if (s.ncclTrend.length) await expect(page.getByTestId('nccl-sparkline')).toBeVisible();
    await snap(page, 'overview-1280');
  });
});
