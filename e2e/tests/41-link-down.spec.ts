import { attachLab, linkDown, linkUp, peerOf } from '@ibwatch/lab';
import { expect, test, type PortDetailReply, type PortsReply, type WorklistEntry } from './fixtures.ts';

// A host cable flaps and stays dark (Unlink with LinkDownedCounter +1 on both ends): what every
// view says afterwards, where the review found them wrong (issue 13, item 6). The HCA is then
// unreachable, so ibnetdiscover no longer sees its port at all. The cable is relinked at the end.
const SWITCH_PORT = { node: 'leaf-r1-01', port: 7 };

const collator = new Intl.Collator('en', { numeric: true });

test('a cable that went dark: stale HCA port, last known remote end, one worklist reason', async ({
  page,
  api,
  env,
}) => {
  test.setTimeout(150_000);
  const lab = await attachLab(env.labDir);
  const hcaName = peerOf(lab, SWITCH_PORT).node;
  const sw = (await api.get<PortsReply>(`/api/ports?q=${SWITCH_PORT.node}&limit=100`)).items.find(
    (p) => p.port === SWITCH_PORT.port,
  )!;
  expect(sw.remote?.name).toBe(hcaName);
  const hca = sw.remote!;
  const switchPort = `/api/ports/${sw.guid}/${sw.port}`;

  await linkDown(lab, SWITCH_PORT, { countFlap: true });
  try {
    await api.scanUntil(
      'topology',
      async () => ((await api.get<PortDetailReply>(switchPort)).port.state === 'Down' ? true : undefined),
      `${SWITCH_PORT.node} port ${SWITCH_PORT.port} to be Down`,
      45_000,
    );
    // link-down (topology), link-downed (the switch port's counter) and link-flapping (history).
    const entry = await api.scanUntil(
      'pm',
      async () =>
        (await api.get<WorklistEntry[]>('/api/worklist')).find(
          (e) => [e.a.guid, e.b?.guid].includes(hca.guid) && e.findingIds.length >= 3,
        ),
      `three flap findings on the worklist entry of ${hcaName}`,
      60_000,
    );
    expect(entry.reasons).toHaveLength(1);
    expect(entry.reasons[0]).toMatch(/^link down \(\w+\); flapped 1 time in 24 h$/);
    expect(entry.a).toMatchObject({ name: SWITCH_PORT.node, port: SWITCH_PORT.port });

    // The HCA's port: Active as last seen, marked stale.
    await page.goto(`/ports/${hca.guid}/${hca.port}`);
    await expect(page.getByTestId('port-stale')).toContainText('STALE');
    await expect(page.getByTestId('port-state')).toHaveAttribute('data-stale', '1');
    await expect(page.getByTestId('port-state')).toContainText('Active');

    // The switch port: Down, and what was plugged in.
    await page.goto(`/ports/${sw.guid}/${sw.port}`);
    await expect(page.getByTestId('port-state')).toContainText('Down');
    await expect(page.getByTestId('port-remote')).toContainText(`last seen connected to ${hcaName} port ${hca.port}`);
    await expect(page.getByTestId('port-stale')).toHaveCount(0);

    // Down lists it; Unused lists the leaf's spare ports, not it.
    await page.goto(`/ports?q=${SWITCH_PORT.node}&state=Down`);
    const downRow = page.locator(`[data-testid="port-row"][data-guid="${sw.guid}"][data-port="${sw.port}"]`);
    await expect(downRow).toContainText(`was ${hcaName} port ${hca.port}`);
    const unused = await api.get<PortsReply>(`/api/ports?q=${SWITCH_PORT.node}&state=Unused&limit=100`);
    expect(unused.items.some((p) => p.port === sw.port)).toBe(false);
    expect(unused.items.every((p) => p.unused && p.remote === null)).toBe(true);
    if (unused.items.length > 0) {
      await page.goto(`/ports?q=${SWITCH_PORT.node}&state=Unused`);
      await expect(page.getByTestId('port-row-state').first()).toContainText('Unused');
    }

    // The topology's link panel: switch end A, and no "Active: ? ?".
    const link = (await api.topology()).links.find(
      (l) => [l.a.guid, l.b.guid].includes(hca.guid) && l.health === 'down',
    )!;
    expect(link).toBeDefined();
    await page.goto(`/topology?sel=l:${link.id}`);
    const panel = page.getByTestId('topology-details');
    await expect(panel).toHaveAttribute('data-kind', 'link');
    await expect(page.getByTestId('topology-link-rate')).toHaveText('Down: not trained (no active width or speed)');
    await expect(panel).not.toContainText('? ?');
    await expect(panel.locator('.link-end').first()).toContainText(SWITCH_PORT.node);

    // The worklist: switch end A, one reason, and the walking order in the page and the CSV.
    await page.goto('/worklist');
    const row = page.locator(`[data-testid="worklist-row"][data-link-key="${entry.linkKey}"]`);
    await expect(row.locator('td').nth(3)).toContainText(SWITCH_PORT.node);
    await expect(row.locator('.reasons li')).toHaveCount(1);
    await page.getByTestId('worklist-sort').selectOption('rack');
    await expect(page).toHaveURL(/[?&]sort=rack(&|$)/);
    const walk = await api.get<WorklistEntry[]>('/api/worklist?sort=rack');
    for (let i = 1; i < walk.length; i++) {
      const [x, y] = [walk[i - 1]!.a, walk[i]!.a];
      const order = collator.compare(x.rack ?? '~', y.rack ?? '~') || (x.u ?? 1e9) - (y.u ?? 1e9);
      expect(order, `${x.name} before ${y.name}`).toBeLessThanOrEqual(0);
    }
    await expect(page.getByTestId('worklist-row')).toHaveCount(walk.length);
    const keys = await page
      .getByTestId('worklist-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-link-key')));
    expect(keys).toEqual(walk.map((e) => e.linkKey));
    const csvHref = await page.getByTestId('worklist-csv').getAttribute('href');
    expect(csvHref).toContain('sort=rack');
    const csv = await page.request.get(csvHref!);
    const bytes = await csv.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const ranks = bytes
      .toString('utf8')
      .slice(1)
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    expect(ranks).toEqual(walk.map((e) => e.rank));
  } finally {
    await linkUp(lab, SWITCH_PORT);
    await api.scanUntil(
      'topology',
      async () => ((await api.get<PortDetailReply>(switchPort)).port.state === 'Active' ? true : undefined),
      `${SWITCH_PORT.node} port ${SWITCH_PORT.port} to be Active again`,
      60_000,
    );
  }
});
