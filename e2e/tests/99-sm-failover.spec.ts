import { attachLab, killMasterSm, restartSm } from '@ibwatch/lab';
import { expect, snap, test, type FabricSummary, type SmReply } from './fixtures.ts';

// Last (99): it kills the master, the one fault the lab undoes only with a cold fail-back (stop the
// standby that took over, start the priority-15 SM alone, join the other again; packages/lab
// README). The suite's collector has seen the SM specs before this one (their rogue SM's
// takeover and return are failovers too), so only what happens after the kill is counted.
test('killing the master SM shows one failover and the dead master, not seen, on the SM page', async ({
  page,
  api,
  env,
}) => {
  test.setTimeout(180_000);
  // The SM specs before this one end with the priority-15 master back; this collector's latest
  // SM scan may still be one from the takeover in between.
  const before = await api.scanUntil(
    'sm',
    async () => {
      const r = await api.get<SmReply>('/api/sms');
      return r.summary.status === 'ok' ? r : undefined;
    },
    'one master and a standby',
    45_000,
  );
  const oldMaster = before.sms.find((s) => s.answering && s.state === 'MASTER');
  expect(oldMaster?.priority).toBe(15);
  const failoversBefore = before.summary.failoversLast24h;

  const lab = await attachLab(env.labDir);
  const killedAt = Date.now();
  const { killed, master } = await killMasterSm(lab, { timeoutMs: 45_000 });
  expect(killed.portGuid).toBe(oldMaster!.guid);

  const after = await api.scanUntil(
    'sm',
    async () => {
      const r = await api.get<SmReply>('/api/sms');
      return r.summary.masterGuid === master.portGuid && r.events.some((e) => e.kind === 'failover' && e.at >= killedAt)
        ? r
        : undefined;
    },
    `the standby ${master.portGuid} to be MASTER with a failover event`,
    45_000,
  );
  // Exactly one failover row, even though cron and API SM scans ran side by side, and the
  // takeover's no-master / not-seen / state-change rows are folded into it.
  const since = after.events.filter((e) => e.at >= killedAt);
  expect(since.map((e) => e.kind)).toEqual(['failover']);
  expect(after.summary.failoversLast24h).toBe(failoversBefore + 1);
  const failover = since[0]!;
  expect(failover.fromGuid).toBe(oldMaster!.guid);
  expect(failover.toGuid).toBe(master.portGuid);
  expect(failover.detail).toBe(
    `master moved from ${killed.host.split(' ')[0]} to ${master.host.split(' ')[0]}; ` +
      `${killed.host.split(' ')[0]} stopped answering`,
  );
  // The dead master is missed, so there is no standby left.
  expect(after.summary).toMatchObject({ status: 'no-standby', missingCount: 1 });

  await page.goto('/sm');
  await expect(page.getByTestId('sm-status')).toContainText('NO STANDBY');
  await expect(page.getByTestId('sm-master')).toContainText(master.portGuid);
  const masters = page.locator('[data-testid="sm-row"][data-state="MASTER"][data-answering="1"]');
  await expect(masters).toHaveCount(1);
  await expect(masters).toContainText(master.portGuid);
  const deadRow = page.locator(`[data-testid="sm-row"][data-guid="${killed.portGuid}"]`);
  await expect(deadRow).toHaveAttribute('data-answering', '0');
  await expect(deadRow).toContainText('last MASTER');
  const event = page.locator('[data-testid="sm-event"][data-kind="failover"]').first();
  await expect(event).toContainText(failover.detail);
  await expect(event).toContainText('between');
  await snap(page, 'sm-failover');

  // The overview's badge says what is wrong now: no standby (▲).
  await page.goto('/');
  await expect(page.getByTestId('sm-status')).toContainText('▲ NO STANDBY');
  // The failover is an event: broken now, never "Recently fixed", while the old master is dead
  // (its not-seen condition stays broken as long as it is true).
  const failoverKey = `sm-failover|sm:${master.portGuid}`;
  const deadKey = `sm-not-seen|sm:${killed.portGuid}`;
  const s = await api.get<FabricSummary>('/api/summary');
  expect(s.brokenNow.map((r) => r.key)).toEqual(expect.arrayContaining([failoverKey, deadKey]));
  expect(s.recentlyFixed.map((r) => r.key)).not.toContain(failoverKey);
  await expect(page.locator(`[data-testid="broken-row"][data-key="${failoverKey}"]`)).toContainText('SM failover');
  await expect(page.locator(`[data-testid="broken-row"][data-key="${deadKey}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid="fixed-row"][data-key="${failoverKey}"]`)).toHaveCount(0);
  await snap(page, 'overview-after-failover');

  // Back to a priority-15 master and a standby: the dead master is no longer missed.
  await restartSm(lab, killed.id);
  const healed = await api.scanUntil(
    'sm',
    async () => {
      const r = await api.get<SmReply>('/api/sms');
      return r.summary.status === 'ok' && r.summary.masterGuid === killed.portGuid ? r : undefined;
    },
    `${killed.host} to be MASTER again with a standby`,
    60_000,
  );
  expect(healed.sms.filter((s) => s.designated && s.answering)).toHaveLength(2);
  await page.goto('/sm');
  await expect(page.getByTestId('sm-status')).toContainText('ONE MASTER');
  // Failed back to the designated master, its standby present: the designed state reads green on
  // the SM page and the overview; the failover of a moment ago is told in words, not in amber.
  expect(healed.summary.failoversLast24h).toBeGreaterThan(failoversBefore);
  await expect(page.getByTestId('sm-status')).toHaveClass(/tone-ok/);
  await page.goto('/');
  await expect(page.getByTestId('sm-status')).toHaveClass(/tone-ok/);
  await expect(page.getByRole('region', { name: 'Subnet manager' })).toContainText(/failovers? in the last 24 h/);
});
