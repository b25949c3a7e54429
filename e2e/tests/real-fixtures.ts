import { test as base, expect, type Page } from '@playwright/test';
import { readRealState, type RealRun } from '../real-fabrics.ts';
import { Api } from './fixtures.ts';

export { expect };

/**
 * The real-fabric specs: `test.use({ run: 'a' })` points page and api at the collector that
 * imported that run. `failures` collects what must never happen on any view: an uncaught
 * exception, or a view that fell into its error boundary; `expectNoFailures` checks both.
 */
export const test = base.extend<{ run: RealRun; api: Api; failures: string[] }>({
  run: ['a', { option: true }],
  baseURL: async ({ run }, use) => {
    const c = readRealState().collectors.find((x) => x.run === run);
    if (!c) throw new Error(`no real-fabric collector for run ${run}`);
    await use(c.baseURL);
  },
  api: async ({ request }, use) => use(new Api(request, readRealState().token)),
  failures: async ({ page }, use) => {
    const seen: string[] = [];
    page.on('pageerror', (e) => seen.push(`uncaught: ${e.message}`));
    await use(seen);
  },
});

/** No uncaught exception so far and no view in its error boundary. */
export async function expectNoFailures(page: Page, failures: string[]): Promise<void> {
  await expect(page.getByTestId('view-error')).toHaveCount(0);
  const caught = await page.evaluate(() =>
    ((window as { __ibwatchViewErrors?: { view: string; message: string }[] }).__ibwatchViewErrors ?? []).map(
      (f) => `${f.view}: ${f.message}`,
    ),
  );
  expect([...failures, ...caught]).toEqual([]);
}
