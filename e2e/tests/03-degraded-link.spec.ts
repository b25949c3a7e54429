import { attachLab, degradeLink } from '@ibwatch/lab';
import { expect, test, type TopoLink } from './fixtures.ts';

// A leaf–spine cable trained down to 2X (ibportstate on both ends; HCA links do not hold a
// degraded width under ibsim, see packages/lab/README.md).
const UPLINK = { node: 'leaf-r0-01', port: 33 };

const isUplink = (l: TopoLink) => [l.a, l.b].some((e) => e.name === UPLINK.node && e.port === UPLINK.port);

test('a link degraded to 2X is listed and explained on the topology', async ({ page, api, env }) => {
  const lab = await attachLab(env.labDir);
  await degradeLink(lab, UPLINK, { width: '2X' });

  const link = await api.scanUntil(
    'topology',
    async () => (await api.topology()).links.find((l) => isUplink(l) && l.health === 'degraded'),
    `${UPLINK.node} port ${UPLINK.port} to be degraded`,
  );
  expect(link.tier).toBe('leaf-spine');
  expect(link.widthActive).toBe('2X');

  await page.goto('/topology');
  await expect(page.getByTestId('topology-canvas')).toBeVisible();
  const panel = page.getByTestId('topology-details');
  await expect(panel).toHaveAttribute('data-kind', 'none');
  // The leaf end is end A in every view (compareLinkEnds), whichever end the API lists first.
  const [leaf, spine] = link.a.name === UPLINK.node ? [link.a, link.b] : [link.b, link.a];
  const label = `${leaf.name} p${leaf.port} → ${spine.name} p${spine.port}`;
  const item = panel.getByRole('listitem').filter({ hasText: label });
  await expect(item).toContainText('DEGRADED');
  await expect(page.getByTestId('topology-legend')).toContainText('DEGRADED');

  await item.getByRole('button').click();
  await expect(panel).toHaveAttribute('data-kind', 'link');
  await expect(page).toHaveURL(new RegExp(`[?&]sel=l(:|%3A)${link.id}(&|$)`));
  await expect(page.getByTestId('topology-link-health')).toContainText('DEGRADED');
  await expect(page.getByTestId('topology-link-reason')).toContainText('2X');
  await expect(panel).toContainText(`Active: 2X ${link.speedActive}`);
  await expect(panel).toContainText(UPLINK.node);
});
