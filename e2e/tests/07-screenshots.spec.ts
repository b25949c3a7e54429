import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../state.ts';
import { expect, snap, test, type NcclRunRow, type WorklistEntry } from './fixtures.ts';

// Runs after the fault specs, so the views show the symbol-error link, the 2X link and the
// imported runs. Every view goes to e2e/output/<view>.png (a CI artifact). With
// E2E_UPDATE_DOCS=1 the overview and the topology are also copied to docs/screenshots/ for the
// README (not on every run: a committed image should change only when someone means it to).
const DOCS = resolve(REPO_ROOT, 'docs/screenshots');
const MAX_DOC_BYTES = 300 * 1024;

test.describe('screenshots of every view with faults present', () => {
  test('overview and topology (also for the README)', async ({ page }) => {
    mkdirSync(DOCS, { recursive: true });
    await page.goto('/');
    await expect(page.getByTestId('summary-degraded')).not.toHaveText('0');
    await expect(page.getByTestId('nccl-sparkline')).toBeVisible();
    const overview = await snap(page, 'overview');

    await page.goto('/topology');
    await page.waitForFunction(
      () => (window as unknown as { __ibwatchTopoStats?: object }).__ibwatchTopoStats !== undefined,
    );
    await expect(page.getByTestId('topology-details')).toContainText('DEGRADED');
    const topology = await snap(page, 'topology');

    for (const [src, name] of [
      [overview, 'overview.png'],
      [topology, 'topology.png'],
    ] as const) {
      expect(statSync(src).size, `${name} size`).toBeLessThan(MAX_DOC_BYTES);
      if (process.env.E2E_UPDATE_DOCS === '1') copyFileSync(src, resolve(DOCS, name));
    }
  });

  test('ports, port detail, worklist and findings', async ({ page, api }) => {
    await page.goto('/ports');
    await expect(page.getByTestId('port-row').first()).toBeVisible();
    await snap(page, 'ports');

    // The symbol-error link of 02 (it has counter history to chart; cleared by now, still listed).
    const first = (await api.get<WorklistEntry[]>('/api/worklist')).find((e) =>
      e.reasons.some((r) => r.includes('symbol errors')),
    );
    expect(first).toBeDefined();
    await page.goto('/worklist');
    await expect(page.getByTestId('worklist-row').first()).toBeVisible();
    await snap(page, 'worklist');

    const end = first!.b && first!.b.name.startsWith('leaf') ? first!.b : first!.a;
    await page.goto(`/ports/${end.guid}/${end.port}`);
    await expect(page.getByTestId('port-rate-chart').first()).toBeVisible();
    await snap(page, 'port-detail');

    await page.goto('/findings');
    await expect(page.getByTestId('finding-row').first()).toBeVisible();
    await snap(page, 'findings');
  });

  test('subnet managers, bandwidth, run detail and scans', async ({ page, api }) => {
    await page.goto('/sm');
    await expect(page.getByTestId('sm-row').first()).toBeVisible();
    await snap(page, 'sm');

    await page.goto('/bandwidth');
    await expect(page.getByTestId('nccl-run-row').first()).toBeVisible();
    await expect(page.getByTestId('bandwidth-chart')).toBeVisible();
    await snap(page, 'bandwidth');

    const fallback = (await api.get<NcclRunRow[]>('/api/nccl/runs')).find((r) => r.verdict === 'host-memory-fallback');
    expect(fallback).toBeDefined();
    await page.goto(`/bandwidth/runs/${fallback!.id}`);
    await expect(page.getByTestId('run-sizes')).toBeVisible();
    await snap(page, 'bandwidth-run');

    await page.goto('/scans');
    await expect(page.getByTestId('scan-row').first()).toBeVisible();
    await snap(page, 'scans');
  });
});
