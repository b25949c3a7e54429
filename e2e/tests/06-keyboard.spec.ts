import { expect, test } from './fixtures.ts';

const NAV = [
  'overview',
  'topology',
  'ports',
  'traffic',
  'worklist',
  'watch',
  'validation',
  'findings',
  'firmware',
  'sm',
  'bandwidth',
  'scans',
];

const focusedTestId = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

test('Tab reaches every nav link in order and Enter follows it', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('overview')).toBeVisible();
  // Skip link and brand come first; the first nav link must follow within a few stops.
  let stops = 0;
  while ((await focusedTestId(page)) !== 'nav-overview') {
    expect(++stops, 'Tab stops before the first nav link').toBeLessThanOrEqual(4);
    await page.keyboard.press('Tab');
  }
  await expect(page.getByTestId('nav-overview')).toBeFocused();
  for (const id of NAV.slice(1)) {
    await page.keyboard.press('Tab');
    await expect(page.getByTestId(`nav-${id}`)).toBeFocused();
  }
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('nav-bandwidth')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/bandwidth$/);
  await expect(page.getByTestId('nav-bandwidth')).toHaveAttribute('aria-current', 'page');
});
