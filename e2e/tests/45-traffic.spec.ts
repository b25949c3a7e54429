import { addTraffic, attachLab } from '@ibwatch/lab';
import type { HotLink, TrafficHotReply } from '../../packages/fabric/src/api.ts';
import { expect, test } from './fixtures.ts';

// A leaf->spine uplink loaded through the lab's traffic fault (64-bit data counters and
// PortXmitWait via PerformanceSet) must top the Hot links view, marked as an uplink, and its
// port page must chart utilisation and XmitWait.
const PORT = { node: 'leaf-r1-01', port: 33 };

test('a loaded uplink tops the hot links and its port page charts traffic and XmitWait', async ({ page, api, env }) => {
  // Several PM sweeps of the lab on a shared 2-core machine.
  test.setTimeout(180_000);
  const lab = await attachLab(env.labDir);
  // The collector's own 5-s PM sweeps pick the traffic up (no scan requested: a POST waits behind
  // the scan queue, which on a loaded machine can outlast the request timeout).
  let last = Date.now();
  let hot: HotLink | undefined;
  const deadline = Date.now() + 120_000;
  while (!hot) {
    expect(Date.now(), `${PORT.node} port ${PORT.port} on top of /api/traffic/hot`).toBeLessThan(deadline);
    // Enough for the time since the previous round (a sweep's interval is about that long).
    await addTraffic(lab, PORT, { gbps: 150, waitTps: 20_000_000, seconds: (Date.now() - last) / 1000 + 5 });
    last = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    const top = (await api.get<TrafficHotReply>('/api/traffic/hot?hours=1&limit=5')).byUtilisation[0];
    if (top?.name === PORT.node && top.port === PORT.port && top.uplink) hot = top;
  }
  expect(hot.remote?.tier).toBe('spine');

  await page.goto('/');
  await page.getByTestId('nav-traffic').click();
  await expect(page.getByTestId('hot-links-page')).toBeVisible();
  const row = page.locator(`[data-testid="hot-link"][data-guid="${hot.guid}"][data-port="${PORT.port}"]`).first();
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-uplink', '1');
  await expect(row).toContainText('leaf → spine');

  await row.getByRole('link', { name: `${PORT.node} · port ${PORT.port}` }).click();
  await expect(page).toHaveURL(new RegExp(`/ports/${hot.guid}/${PORT.port}(\\?|$)`));
  // The last hour: at sweep resolution (the port is among the busiest), one dot per sweep.
  await page.getByTestId('range-1h').click();
  const traffic = page.getByTestId('port-traffic-chart');
  await expect(traffic).toBeVisible();
  await expect(traffic).toContainText('% of 200 Gb/s');
  await expect(traffic).toContainText('every sweep');
  await expect(traffic.locator('.recharts-line-dot').first()).toBeVisible();
  const wait = page.getByTestId('port-xmitwait-chart');
  await expect(wait).toBeVisible();
  await expect(wait).toContainText('ticks/s');
});
