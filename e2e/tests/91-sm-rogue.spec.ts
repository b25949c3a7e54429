import { attachLab, currentMaster, startRogueSm, stopRogueSms } from '@ibwatch/lab';
import { expect, snap, test, until, type FindingRow, type SmReply } from './sm-fixtures.ts';

// The issue: a priority-15 OpenSM started on a compute node's HCA (OFED's opensmd left enabled)
// took mastership; ibwatch reported a failover and an equal-priority standby, but never said "an
// SM is running where none should". `pnpm lab fault rogue-sm 'dgx-0003'` is that incident.
const HOST = 'dgx-0003';

test('a priority-15 OpenSM on a compute HCA is a critical finding naming the host, cleared when it stops', async ({
  page,
  sm,
  env,
}) => {
  test.setTimeout(180_000);
  await until('one designated master', async () => {
    const r = await sm.api.get<SmReply>('/api/sms');
    return r.summary.status === 'ok' && r.designation.source === 'learned' ? r : undefined;
  });
  const lab = await attachLab(env.labDir);
  const { sm: rogue, state } = await startRogueSm(lab, HOST);
  expect(rogue.host).toBe(`${HOST} mlx5_0`);
  let stopped = false;
  try {
    // Priority 15 like the master, lower port GUID: the rogue takes the subnet.
    expect(state).toBe('MASTER');
    const isRogue = (f: FindingRow) => f.kind === 'sm-rogue' && f.subjectKey === `sm:${rogue.portGuid}`;
    const finding = await until('a critical sm-rogue finding', async () =>
      (await sm.api.get<FindingRow[]>('/api/findings?state=active&kind=sm-rogue')).find(isRogue),
    );
    expect(finding.severity).toBe('critical');
    expect(finding.title).toContain(`${HOST} mlx5_0 port 1`);
    expect(finding.title).toContain('MASTER, priority 15');
    const r = await until('the rogue SM as master in the SM summary', async () => {
      const x = await sm.api.get<SmReply>('/api/sms');
      return x.summary.masterGuid === rogue.portGuid ? x : undefined;
    });
    expect(r.summary).toMatchObject({ status: 'rogue', rogueCount: 1 });
    expect(r.sms.find((s) => s.guid === rogue.portGuid)).toMatchObject({
      answering: true,
      designated: false,
      host: HOST,
      state: 'MASTER',
      priority: 15,
    });
    // The real SMs are still there and not blamed for their priority against a rogue master.
    expect(await sm.api.get<FindingRow[]>('/api/findings?state=active&kind=sm-priority')).toEqual([]);
    const failover = r.events.find((e) => e.kind === 'failover' && e.toGuid === rogue.portGuid);
    expect(failover?.detail).toContain(`to ${HOST}`);
    expect(failover?.detail).toContain('is not a designated SM');

    await page.goto(`${sm.baseURL}/sm`);
    const alarm = page.locator('[data-testid="sm-alarm"][data-kind="rogue"]');
    await expect(alarm).toContainText(`ROGUE SM on ${HOST}`);
    await expect(alarm).toContainText(`${HOST} mlx5_0 port 1`);
    await expect(page.getByTestId('sm-status')).toContainText('ROGUE SM');
    const row = page.locator(`[data-testid="sm-row"][data-guid="${rogue.portGuid}"]`);
    await expect(row).toHaveAttribute('data-designated', '0');
    await expect(row).toContainText('ROGUE');
    await expect(page.getByTestId('sm-designation')).toHaveAttribute('data-source', 'learned');
    await expect(page.getByTestId('sm-designated-list')).not.toContainText(rogue.portGuid);
    await snap(page, 'sm-rogue');

    await page.goto(`${sm.baseURL}/findings?state=active&severity=critical`);
    await expect(page.locator(`[data-testid="finding-row"][data-finding-id="${finding.id}"]`)).toContainText(HOST);
    await page.goto(`${sm.baseURL}/`);
    await expect(page.getByTestId('sm-status')).toContainText('ROGUE SM');

    await stopRogueSms(lab);
    stopped = true;
    const master = await currentMaster(lab);
    expect(master, 'a lab SM is master again').toBeDefined();
    await until('the rogue finding resolved and one designated master', async () => {
      const x = await sm.api.get<SmReply>('/api/sms');
      const open = await sm.api.get<FindingRow[]>('/api/findings?state=active&kind=sm-rogue');
      return x.summary.status === 'ok' && x.summary.masterGuid === master!.portGuid && !open.some(isRogue)
        ? true
        : undefined;
    });
    await page.goto(`${sm.baseURL}/sm`);
    await expect(page.getByTestId('sm-alarm')).toHaveCount(0);
    await expect(row).toHaveAttribute('data-answering', '0');
    const back = page.locator('[data-testid="sm-event"][data-kind="failover"]').first();
    await expect(back).toContainText(`master moved from ${HOST}`);
    await expect(back).toContainText('between');
  } finally {
    if (!stopped) await stopRogueSms(lab);
  }
});
