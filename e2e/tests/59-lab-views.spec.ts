import { expect, test } from './fixtures.ts';

// On the lab (after the fault specs): every view of the navigation renders without an uncaught
// exception or a view in its error boundary, the firmware view says where firmware comes from,
// and a view that does throw fails alone.

/** Nav test id -> the root of the view it opens. */
const VIEWS: [string, string][] = [
  ['overview', 'overview'],
  ['topology', 'topology-page'],
  ['ports', 'ports-page'],
  ['traffic', 'hot-links-page'],
  ['worklist', 'worklist-page'],
  ['findings', 'findings-page'],
  ['firmware', 'firmware-page'],
  ['sm', 'sm-page'],
  ['bandwidth', 'bandwidth-page'],
  ['scans', 'scans-page'],
];
const viewErrors = () =>
  ((window as { __ibwatchViewErrors?: { view: string; message: string }[] }).__ibwatchViewErrors ?? []).map(
    (f) => `${f.view}: ${f.message}`,
  );

test.describe('every view renders on the lab', () => {
  test('through the navigation, without failures', async ({ page }) => {
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    await page.goto('/');
    for (const [view, root] of VIEWS) {
      await page.getByTestId(`nav-${view}`).click();
      await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
      await expect(page.getByTestId(root)).toBeVisible();
      await expect(page.getByTestId('loading-state')).toHaveCount(0);
      await expect(page.getByTestId('view-error')).toHaveCount(0);
    }
    expect([...uncaught, ...(await page.evaluate(viewErrors))]).toEqual([]);
  });

  test('firmware: empty state naming ibdiagnet as the source (the lab runs infiniband-diags)', async ({ page }) => {
    await page.goto('/firmware');
    await expect(page.getByTestId('firmware-page').getByTestId('empty-state')).toContainText(
      'ibwatch import ibdiagnet DIR',
    );
  });

  test('a view that throws fails alone: its error and report shown, navigation kept', async ({ page }) => {
    // A reply the topology view cannot use (nodes missing), as a broken or newer collector
    // might send: the view throws while rendering.
    await page.route('**/api/topology', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ generatedAt: 0, links: [] }) }),
    );
    await page.goto('/topology');
    const failed = page.getByTestId('view-error');
    await expect(failed).toContainText('The Topology view failed');
    // Inside a closed <details>: its text is there to copy, not shown until opened.
    await expect(page.getByTestId('view-error-report')).toContainText('URL: /topology');
    expect(await page.evaluate(viewErrors)).toHaveLength(1);
    // The header still works, and the next view renders.
    await page.getByTestId('nav-overview').click();
    await expect(page.getByTestId('overview')).toBeVisible();
    await expect(page.getByTestId('view-error')).toHaveCount(0);
  });
});
