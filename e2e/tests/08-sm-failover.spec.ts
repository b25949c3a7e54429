import { attachLab, killMasterSm } from '@ibwatch/lab';
import { expect, snap, test, type SmReply } from './fixtures.ts';

// Last on purpose: after a link flap the lab cannot restart the priority-15 SM cleanly
// (packages/lab/README.md), so nothing runs after the master is gone.
test('killing the master SM shows the failover on the SM page', async ({ page, api, env }) => {
  const before = await api.get<SmReply>('/api/sms');
  const oldMaster = before.sms.find((s) => s.state === 'MASTER');
  expect(oldMaster?.priority).toBe(15);

  const lab = await attachLab(env.labDir);
  const { killed, master } = await killMasterSm(lab, { timeoutMs: 45_000 });
  expect(killed.portGuid).toBe(oldMaster!.guid);

  const after = await api.scanUntil(
    'sm',
    async () => {
      const r = await api.get<SmReply>('/api/sms');
      return r.summary.masterGuid === master.portGuid && r.events.some((e) => e.kind === 'failover') ? r : undefined;
    },
    `the standby ${master.portGuid} to be MASTER with a failover event`,
    45_000,
  );
  // Exactly one failover, even though cron and API SM scans ran side by side.
  const failovers = after.events.filter((e) => e.kind === 'failover');
  expect(failovers).toHaveLength(1);
  expect(after.summary.failoversLast24h).toBe(1);
  const failover = failovers[0]!;
  expect(failover.fromGuid).toBe(oldMaster!.guid);
  expect(failover.toGuid).toBe(master.portGuid);

  await page.goto('/sm');
  await expect(page.getByTestId('sm-status')).toContainText('ONE MASTER');
  await expect(page.getByTestId('sm-master')).toContainText(master.portGuid);
  const masters = page.locator('[data-testid="sm-row"][data-state="MASTER"]');
  await expect(masters).toHaveCount(1);
  await expect(masters).toContainText(master.portGuid);
  const event = page.locator('[data-testid="sm-event"][data-kind="failover"]');
  await expect(event).toHaveCount(1);
  await expect(event).toContainText(failover.detail);
  await snap(page, 'sm-failover');

  // The overview's badge says a failover happened in the last 24 h (▲ instead of ●).
  await page.goto('/');
  await expect(page.getByTestId('sm-status')).toContainText('▲ ONE MASTER');
});
