import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../state.ts';
import { expect, test } from './fixtures.ts';

// Labels are free text from whoever imports a run: markup in them must be stored and shown as
// text. The CSP would also stop an inline handler, so the test checks that no element was
// created from the label (not only that the handler did not run).
const FIXTURE = resolve(REPO_ROOT, 'packages/parsers/fixtures/nccl/all_reduce_perf.multinode.good.txt');
const CLUSTER = '<img src=x onerror=window.__pwned=1>';
const RUN_BY = '<script>window.__pwned=2</script>';

test('markup in nccl labels is rendered inert, as text', async ({ page, api }) => {
  const reply = await api.post<{ id: number }>('/api/nccl-runs', {
    text: readFileSync(FIXTURE, 'utf8'),
    labels: { cluster: CLUSTER, runBy: RUN_BY },
  });
  await page.goto(`/bandwidth/runs/${reply.id}`);
  const detail = page.getByTestId('nccl-run-detail');
  await expect(detail).toContainText(`cluster=${CLUSTER}`);
  await expect(detail).toContainText(`runBy=${RUN_BY}`);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.locator('script').evaluateAll((els) => els.some((e) => e.textContent?.includes('__pwned')))).toBe(
    false,
  );
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await page.goto('/bandwidth');
  await expect(page.getByTestId('nccl-run-row').first()).toBeVisible();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
