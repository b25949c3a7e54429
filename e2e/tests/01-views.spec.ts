import { expect, test, type FabricSummary, type PortsReply, type ScanRow, type SmReply } from './fixtures.ts';

// Runs first, on the healthy fabric global-setup brought up: every view loads with real data
// from the lab and shows its empty state where the fabric gives it nothing to say.

interface TopoStats {
  nodes: number;
  links: number;
  drawnNodes: number;
}

test.describe('every view loads with real lab data', () => {
  test('overview counts are those of /api/summary', async ({ page, api }) => {
    const s = await api.get<FabricSummary>('/api/summary');
    expect(s.switches).toBeGreaterThan(0);
    expect(s.hcas).toBeGreaterThan(0);
    await page.goto('/');
    await expect(page.getByTestId('overview')).toBeVisible();
    await expect(page.getByTestId('summary-switches')).toHaveText(s.switches.toLocaleString('en-US'));
    await expect(page.getByTestId('summary-hcas')).toHaveText(s.hcas.toLocaleString('en-US'));
    await expect(page.getByTestId('summary-links')).toHaveText(s.links.toLocaleString('en-US'));
    await expect(page.getByTestId('summary-degraded')).toHaveText('0');
    // A healthy fabric with fresh scans: one word, OK, and nothing listed as broken; zero tiles
    // neutral. (Right after start-up a kind may still wait for its first scan, or lag on a busy machine.)
    await expect
      .poll(async () => (await api.get<FabricSummary>('/api/summary')).fabricStatus, { timeout: 30_000 })
      .toEqual({
        word: 'OK',
        reasons: [],
      });
    await page.reload();
    await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', 'OK');
    await expect(page.getByTestId('broken-empty')).toBeVisible();
    await expect(page.locator('.tile', { has: page.getByTestId('summary-degraded') })).toHaveAttribute(
      'data-tone',
      'neutral',
    );
    await expect(page.getByTestId('sm-status')).toContainText('ONE MASTER');
    // The crons run every 3-10 s, so the latest scan of a kind may be the one running right now.
    for (const kind of ['topology', 'sm', 'pm']) {
      await expect(page.locator(`[data-testid="overview-scan"][data-kind="${kind}"]`)).toHaveAttribute(
        'data-status',
        /^(ok|running)$/,
      );
    }
  });

  test('topology draws every node of the fabric', async ({ page, api }) => {
    const topo = await api.topology();
    await page.goto('/topology');
    await expect(page.getByTestId('topology-canvas')).toBeVisible();
    const stats = await page.waitForFunction(
      () => (window as unknown as { __ibwatchTopoStats?: TopoStats }).__ibwatchTopoStats,
    );
    const st = (await stats.jsonValue()) as TopoStats;
    expect(st.nodes).toBe(topo.nodes.length);
    expect(st.links).toBe(topo.links.length);
    expect(st.nodes).toBeGreaterThan(0);
    await expect(page.getByTestId('topology-details')).toHaveAttribute('data-kind', 'none');
    await expect(page.getByTestId('topology-details')).toContainText('No problem links: no link has a finding now');
  });

  test('ports list shows the ports the collector stored', async ({ page, api }) => {
    const ports = await api.get<PortsReply>('/api/ports?limit=10');
    expect(ports.total).toBeGreaterThan(0);
    await page.goto('/ports');
    await expect(page.getByTestId('ports-page')).toBeVisible();
    const first = ports.items[0]!;
    await expect(
      page.locator(`[data-testid="port-row"][data-guid="${first.guid}"][data-port="${first.port}"]`),
    ).toBeVisible();
    await expect(page.getByTestId('ports-range')).toContainText(ports.total.toLocaleString('en-US'));
  });

  test('worklist is empty on a healthy fabric', async ({ page, api }) => {
    expect(await api.get<unknown[]>('/api/worklist')).toEqual([]);
    await page.goto('/worklist');
    await expect(page.getByTestId('worklist-page').getByTestId('empty-state')).toContainText('Nothing to reseat');
    await expect(page.getByTestId('worklist-row')).toHaveCount(0);
  });

  test('subnet managers: one MASTER with priority 15', async ({ page, api }) => {
    const sm = await api.get<SmReply>('/api/sms');
    const master = sm.sms.find((s) => s.state === 'MASTER');
    expect(master?.priority).toBe(15);
    await page.goto('/sm');
    await expect(page.getByTestId('sm-status')).toContainText('ONE MASTER');
    const masters = page.locator('[data-testid="sm-row"][data-state="MASTER"]');
    await expect(masters).toHaveCount(1);
    await expect(masters.locator('td.num')).toHaveText('15');
    await expect(page.getByTestId('sm-master')).toContainText(master!.guid);
  });

  test('bandwidth shows its empty state before any nccl-tests import', async ({ page }) => {
    await page.goto('/bandwidth');
    await expect(page.getByTestId('bandwidth-page').getByTestId('empty-state').first()).toBeVisible();
    await expect(page.getByTestId('nccl-run-row')).toHaveCount(0);
  });

  test('watch list: nothing rising on a healthy fabric, and the overview and worklist say so', async ({ page }) => {
    await page.goto('/watch');
    await expect(page.getByTestId('watch-page').getByTestId('empty-state').first()).toBeVisible();
    await expect(page.getByTestId('watch-count')).toContainText('0 ports on watch');
    await page.goto('/');
    await expect(page.getByTestId('watch-count-link')).toHaveText('0 ports on watch');
    await page.goto('/worklist');
    await expect(page.getByTestId('watch-count-link')).toHaveText('0 ports on watch');
  });

  test('topology validation says how to set the as-built before one is set', async ({ page }) => {
    await page.goto('/validation');
    await expect(page.getByTestId('validation-page').getByTestId('empty-state').first()).toContainText(
      'ibwatch baseline set',
    );
  });

  test('scans list shows the start-up and scheduled scans as ok', async ({ page, api }) => {
    const scans = await api.get<ScanRow[]>('/api/scans?limit=50');
    expect(new Set(scans.filter((s) => s.status === 'ok').map((s) => s.kind))).toEqual(
      new Set(['topology', 'sm', 'pm']),
    );
    await page.goto('/scans');
    for (const kind of ['topology', 'sm', 'pm']) {
      await expect(
        page.locator(`[data-testid="scan-row"][data-kind="${kind}"][data-status="ok"]`).first(),
      ).toBeVisible();
    }
    await expect(page.locator('[data-testid="scan-row"][data-status="failed"]')).toHaveCount(0);
    // The e2e collector pushes alerts nowhere: the Notifications card says so, with no failure rows.
    await expect(page.getByTestId('notifications').getByTestId('notify-none')).toBeVisible();
    await expect(page.getByTestId('notify-failure')).toHaveCount(0);
  });
});
