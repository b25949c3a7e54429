// The API contract, as fixtures.ts imports it (e2e/package.json does not declare @ibwatch/fabric).
import type { FindingRow, FirmwareReply } from '../../packages/fabric/src/api.ts';
import { expect, expectNoFailures, test } from './real-fixtures.ts';

// ibdiagnet's own verdicts on the real runs, as findings and in the firmware view. Run a's
// db_csv: 7 leaves on 31.2012.1024 while one runs 31.2012.1068 (FW_CHECK), 8 switches named
// "Quantum-2 Mellanox Technologies" (DUPLICATED_NODE_DESCRIPTION_DETECTION), 7 Aggregation
// Nodes that do not answer VSGeneralInfo, 2 ports without hierarchy info. Run b skipped the
// firmware and duplicate-name checks (--skip ...,nodes_info,dup_node_desc).

const DRIFT = 'ibdiagnet-firmware-drift';
const DUP = 'ibdiagnet-duplicate-node-description';

test.describe('real run a: ibdiagnet checks', () => {
  test.use({ run: 'a' });

  test('firmware drift: seven minor findings naming each leaf, its version and the latest', async ({
    page,
    api,
    failures,
  }) => {
    const drift = await api.get<FindingRow[]>(`/api/findings?kind=${DRIFT}`);
    expect(drift).toHaveLength(7);
    await page.goto(`/findings?kind=${DRIFT}`);
    const rows = page.getByTestId('finding-row');
    await expect(rows).toHaveCount(7);
    for (const f of drift) {
      const row = page.locator(`[data-testid="finding-row"][data-finding-id="${f.id}"]`);
      await expect(row).toHaveAttribute('data-severity', 'minor');
      await expect(row).toContainText(
        `Firmware 31.2012.1024 on Quantum-2 Mellanox Technologies (${f.subjectKey.slice(5)})`,
      );
      await expect(row).toContainText("the fabric's latest for MT_0000000579 is 31.2012.1068");
    }
    await expectNoFailures(page, failures);
  });

  test('duplicated node descriptions: one finding per switch sharing the name', async ({ page, failures }) => {
    await page.goto(`/findings?kind=${DUP}`);
    await expect(page.getByTestId('finding-row')).toHaveCount(8);
    await expect(page.getByTestId('finding-row').first()).toContainText(
      'shares its node description "Quantum-2 Mellanox Technologies" with 7 other nodes',
    );
    await expectNoFailures(page, failures);
  });

  test('the firmware view lists the same seven stragglers, and the image they should run', async ({
    page,
    api,
    failures,
  }) => {
    const drifted = (await api.get<FindingRow[]>(`/api/findings?kind=${DRIFT}`)).map((f) => f.subjectKey.slice(5));
    const fw = await api.get<FirmwareReply>('/api/firmware');
    await page.goto('/firmware');
    await expect(page.getByTestId('firmware-behind')).toHaveText('7');
    const group = page.locator('[data-testid="firmware-group"][data-psid="MT_0000000579"]');
    await expect(group).toHaveAttribute('data-stragglers', '7');
    await expect(group).toContainText('31.2012.1068 × 1');
    await expect(group).toContainText('31.2012.1024 × 7');
    const list = page.locator('[data-testid="firmware-stragglers"][data-psid="MT_0000000579"]');
    await expect(list.getByTestId('firmware-straggler')).toHaveCount(7);
    const shown = await list
      .getByTestId('firmware-straggler')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-guid')));
    expect(shown.sort()).toEqual(drifted.sort());
    // Every node with a version is in one group; the spine's PSID is an image of its own.
    expect(fw.groups.reduce((n, g) => n + g.nodes, 0)).toBe(272);
    await expect(page.locator('[data-testid="firmware-group"][data-psid="MT_0000000577"]')).toHaveAttribute(
      'data-stragglers',
      '0',
    );
    await expectNoFailures(page, failures);
  });
});

test.describe('real run b: checks it skipped leave no findings', () => {
  test.use({ run: 'b' });

  test('no drift or duplicate-name findings, versions without PSIDs', async ({ page, api, failures }) => {
    expect(await api.get<FindingRow[]>(`/api/findings?kind=${DRIFT}`)).toEqual([]);
    expect(await api.get<FindingRow[]>(`/api/findings?kind=${DUP}`)).toEqual([]);
    const all = await api.get<FindingRow[]>('/api/findings');
    expect(all.map((f) => f.kind).sort()).toEqual([
      ...Array(2).fill('ibdiagnet-port-hierarchy'),
      ...Array(7).fill('ibdiagnet-vs-capability-gmp'),
      // The run lists one SM: no standby to take over.
      'sm-no-standby',
    ]);
    await page.goto('/firmware');
    await expect(page.getByTestId('firmware-behind')).toHaveText('0');
    await expect(page.locator('[data-testid="firmware-group"][data-psid=""]').first()).toContainText('not reported');
    // Run b's HCAs run 28.40.1000 (255) and 28.41.1000 (1), which run a shows are two images:
    // without PSIDs none of them is listed as behind.
    await expect(page.locator('[data-testid="firmware-group"][data-device="4129"]')).toContainText('PSID unknown');
    await expect(page.getByTestId('firmware-stragglers')).toHaveCount(0);
    await expect(page.getByTestId('firmware-no-psid')).toBeVisible();
    await expectNoFailures(page, failures);
  });
});
