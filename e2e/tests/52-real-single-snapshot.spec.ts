import { snap } from './fixtures.ts';
import type { FabricSummary, FindingRow, WorklistEntry } from './fixtures.ts';
import { expect, expectNoFailures, test } from './real-fixtures.ts';

// Issue 33: one ibdiagnet run is evidence. Run a, imported once with `ibwatch import ibdiagnet`,
// has HCA ports whose SymbolErrorCounter is pegged at 65535 and more with symbol errors since
// their last clear. Before, the overview said "0 ports over threshold" and nothing was broken,
// because rates need two snapshots. Run b was taken with `--skip pm`: no counters at all.

test.describe('one snapshot of real run a', () => {
  test.use({ run: 'a' });

  test('the overview shows the saturated and erroring ports, and that rates wait for the next snapshot', async ({
    page,
    api,
    failures,
  }) => {
    const s = await api.get<FabricSummary>('/api/summary');
    const saturated = await api.get<FindingRow[]>(
      '/api/findings?state=current&kind=counter-saturated:SymbolErrorCounter',
    );
    expect(saturated.length).toBe(5);
    expect(s).toMatchObject({ counterRates: 'first-snapshot', portsOverThreshold: 0 });
    expect(s.portsSaturated).toBeGreaterThanOrEqual(saturated.length);
    expect(s.portsErrorsSinceClear).toBeGreaterThanOrEqual(14);
    await page.goto('/');
    await expect(page.getByTestId('summary-since-clear')).toHaveText(String(s.portsErrorsSinceClear));
    const tile = page.locator('.tile', { has: page.getByTestId('summary-since-clear') });
    await expect(tile).toContainText('Error counts since last clear');
    await expect(tile).toContainText(
      `${s.portsSaturated} saturated: clear counters and measure again; no rate yet: one snapshot`,
    );
    const over = page.locator('.tile', { has: page.getByTestId('summary-over-threshold') });
    await expect(over).toContainText('rates from the next snapshot');
    // Not an all-clear: the saturated cables are broken now, and the status word says so.
    await expect(page.getByTestId('fabric-status-word')).not.toHaveText('OK');
    await expect(page.getByTestId('broken-empty')).toHaveCount(0);
    await expect(page.getByTestId('broken-now')).toContainText(
      'SymbolErrorCounter saturated: clear counters and measure again',
    );
    await expect(page.getByTestId('overview')).not.toContainText(/every link is healthy/i);
    await snap(page, 'real-a-single-snapshot-overview');
    await expectNoFailures(page, failures);
  });

  test('the worklist lists every saturated port with "clear the counters and measure again" first', async ({
    page,
    api,
    failures,
  }) => {
    const saturated = await api.get<FindingRow[]>(
      '/api/findings?state=current&kind=counter-saturated:SymbolErrorCounter',
    );
    const worklist = await api.get<WorklistEntry[]>('/api/worklist');
    const keys = saturated.map((f) => f.subjectKey.replace(/^port:/, ''));
    const entries = keys.map((k) => worklist.find((e) => [e.a, e.b].some((x) => x && `${x.guid}/${x.port}` === k))!);
    expect(entries.every((e) => e !== undefined)).toBe(true);
    await page.goto('/worklist');
    for (const e of entries) {
      const row = page.locator(`[data-testid="worklist-row"][data-link-key="${e.linkKey}"]`);
      await expect(row).toHaveAttribute('data-severity', 'major');
      await expect(row).toContainText('SymbolErrorCounter saturated: clear counters and measure again');
      await expect(row).toContainText(
        'clear the counters and measure again (perfquery -R <LID> <port>, or ibdiagnet --pc)',
      );
    }
    await snap(page, 'real-a-single-snapshot-worklist');
    await expectNoFailures(page, failures);
  });
});

test.describe('run b, taken without PM', () => {
  test.use({ run: 'b' });

  test('says the counters were never read instead of an all-clear', async ({ page, api, failures }) => {
    const s = await api.get<FabricSummary>('/api/summary');
    expect(s).toMatchObject({ counterRates: 'none', portsErrorsSinceClear: 0 });
    await page.goto('/');
    await expect(page.getByTestId('summary-since-clear')).toHaveCount(0);
    await expect(page.getByTestId('overview')).not.toContainText(/every link is healthy/i);
    const empty = page.getByTestId('broken-empty');
    if (await empty.count()) await expect(empty).toContainText('Error counters not read yet: no counter snapshot.');
    await expectNoFailures(page, failures);
  });
});
