import type { FindingDetail } from '../../packages/fabric/src/api.ts';
import { expect, setTokenViaUi, snap, test } from './fixtures.ts';

// After the SM failover on purpose: it needs no fabric, only findings to act on, and it leaves
// one acknowledged and resolved (which no later spec depends on).
test('a finding acknowledged and resolved with notes shows who, when and why in its history', async ({
  page,
  api,
  env,
}) => {
  // All states: an acknowledged or resolved finding stays in the list with its history open.
  await page.goto('/findings');
  await setTokenViaUi(page, env.token);
  // The suite's collector has only IBWATCH_TOKEN, which acts under the name admin.
  await expect(page.getByTestId('token-name')).toHaveText('as admin');

  const row = page.locator('[data-testid="finding-row"][data-state="open"]').first();
  const id = Number(await row.getAttribute('data-finding-id'));
  await row.getByTestId('finding-history-toggle').click();
  const history = page.locator(`[data-testid="finding-history"][data-finding-id="${id}"]`);
  await expect(history.locator('[data-testid="finding-event"][data-event="opened"]')).toContainText('by ibwatch');

  await history.getByTestId('finding-note').fill('e2e: reseating the cable');
  await history.getByTestId('finding-note-ack').click();
  const acked = history.locator('[data-testid="finding-event"][data-event="acknowledged"]');
  await expect(acked).toContainText('by admin');
  await expect(acked).toContainText('“e2e: reseating the cable”');

  await history.getByTestId('finding-note').fill('e2e: transceiver swapped');
  await history.getByTestId('finding-note-resolve').click();
  await expect(history.locator('[data-testid="finding-event"][data-event="resolved"]')).toContainText(
    '“e2e: transceiver swapped”',
  );
  await snap(page, 'finding-history');

  const d = await api.get<FindingDetail>(`/api/findings/${id}`);
  expect(d.state).toBe('resolved');
  expect(d.history.filter((e) => e.by === 'admin').map((e) => [e.event, e.note])).toEqual([
    ['acknowledged', 'e2e: reseating the cable'],
    ['resolved', 'e2e: transceiver swapped'],
  ]);
});
