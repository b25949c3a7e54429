import { snap } from './fixtures.ts';
import type { FabricSummary, PortsReply, ScanRow } from './fixtures.ts';
import { expect, expectNoFailures, test } from './real-fixtures.ts';

// Every view on the two real NDR fabrics (ndr-fat-tree-a, and -b: the same fabric run with
// --skip ..., no PM data, no firmware PSIDs), each imported with `ibwatch import ibdiagnet DIR`
// into a collector of its own. Real data the lab never makes: SHARP Aggregation Nodes, eight
// switches with one name, a master SM of priority 12, ibdiagnet's own warnings.

interface TopoStats {
  nodes: number;
  links: number;
}

/** The SHARP Aggregation Node inside leaf 0xb0cf0e0300e5b940 (port 65 <-> its port 1). */
const AN = '0xb0cf0e0300e5b948';
const SPINE = '0xb0cf0e0300d33fc0';

for (const run of ['a', 'b'] as const) {
  test.describe(`every view renders real run ${run}`, () => {
    test.use({ run });

    test('overview: 9 switches, 256 HCAs and the 7 Aggregation Nodes apart, one master', async ({
      page,
      api,
      failures,
    }) => {
      const s = await api.get<FabricSummary>('/api/summary');
      expect([s.switches, s.hcas, s.aggregationNodes, s.links]).toEqual([9, 256, 7, 271]);
      await page.goto('/');
      await expect(page.getByTestId('summary-switches')).toHaveText('9');
      await expect(page.getByTestId('summary-hcas')).toHaveText('256');
      await expect(page.getByTestId('overview')).toContainText('+ 7 SHARP Aggregation Nodes');
      // The run's SM_INFO lists one SM: one master, and no standby to take over (a minor finding).
      await expect(page.getByTestId('sm-status')).toContainText('NO STANDBY');
      await expect(page.getByTestId('sm-master')).toContainText(s.sm.masterName!);
      for (const sev of ['major', 'minor', 'info'] as const)
        await expect(page.getByTestId(`findings-${sev}`)).toContainText(String(s.findingsBySeverity[sev]));
      await snap(page, `real-${run}-overview`);
      await expectNoFailures(page, failures);
    });

    test('topology draws all 272 nodes, the Aggregation Nodes among them', async ({ page, api, failures }) => {
      const topo = await api.topology();
      expect(topo.nodes.filter((n) => n.tier === 'aggregation')).toHaveLength(7);
      await page.goto('/topology');
      await expect(page.getByTestId('topology-canvas')).toBeVisible();
      const stats = (await (
        await page.waitForFunction(() => (window as { __ibwatchTopoStats?: TopoStats }).__ibwatchTopoStats)
      ).jsonValue()) as TopoStats;
      expect([stats.nodes, stats.links]).toEqual([272, 271]);
      await expect(page.getByTestId('nav-firmware')).toBeVisible();
      await snap(page, `real-${run}-topology`);
      // Found by GUID and shown for what it is.
      await page.getByTestId('topology-search').fill(AN);
      await page.getByTestId('topology-search').press('Enter');
      await expect(page.getByTestId('topology-details')).toHaveAttribute('data-kind', 'node');
      await expect(page.getByTestId('topology-node-type')).toContainText('SHARP Aggregation Node');
      await expect(page.getByTestId('topology-details')).toContainText('p1 → Quantum-2 Mellanox Technologies p65');
      await expectNoFailures(page, failures);
    });

    test('ports list the Aggregation Nodes, and a port opens', async ({ page, api, failures }) => {
      const ans = await api.get<PortsReply>('/api/ports?q=Aggregation');
      expect(ans.total).toBe(7);
      await page.goto('/ports?q=Aggregation');
      await expect(page.getByTestId('port-row')).toHaveCount(7);
      await expect(page.locator(`[data-testid="port-row"][data-guid="${AN}"]`)).toContainText('port 1');
      await page.goto(`/ports/${SPINE}/1`);
      await expect(page.getByTestId('port-detail')).toBeVisible();
      await expect(page.getByTestId('port-state')).toContainText('Active');
      await snap(page, `real-${run}-port`);
      await expectNoFailures(page, failures);
    });

    test('worklist, subnet managers, bandwidth and scans', async ({ page, api, failures }) => {
      await page.goto('/worklist');
      if (run === 'a') {
        // One snapshot is evidence: the saturated and erroring ports (52-real-single-snapshot).
        await expect(page.getByTestId('worklist-row').first()).toBeVisible();
      } else {
        await expect(page.getByTestId('worklist-page').getByTestId('empty-state')).toBeVisible();
      }
      await page.goto('/sm');
      await expect(page.locator('[data-testid="sm-row"][data-state="MASTER"] td.num')).toHaveText('12');
      await page.goto('/bandwidth');
      await expect(page.getByTestId('bandwidth-page').getByTestId('empty-state').first()).toBeVisible();
      const [scan] = await api.get<ScanRow[]>('/api/scans?limit=1');
      expect(scan).toMatchObject({ kind: 'import-ibdiagnet', status: run === 'a' ? 'partial' : 'ok' });
      await page.goto('/scans');
      await expect(
        page.locator(`[data-testid="scan-row"][data-kind="import-ibdiagnet"][data-status="${scan!.status}"]`),
      ).toBeVisible();
      await snap(page, `real-${run}-scans`);
      await expectNoFailures(page, failures);
    });

    test('findings and firmware render', async ({ page, failures }) => {
      await page.goto('/findings');
      await expect(page.getByTestId('finding-row').first()).toBeVisible();
      await snap(page, `real-${run}-findings`);
      await page.goto('/firmware');
      await expect(page.getByTestId('firmware-group').first()).toBeVisible();
      // The runs are from March 2025: older than a day, and the view says so.
      await expect(page.getByTestId('firmware-stale')).toContainText('Stale');
      await snap(page, `real-${run}-firmware`);
      await expectNoFailures(page, failures);
    });
  });
}
