import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../state.ts';
import { expect, setTokenViaUi, test, type NcclRunDetailReply, type NcclRunRow } from './fixtures.ts';

// The real 2 x 8 H100 all_reduce_perf output with NCCL_DEBUG=INFO where every HCA logged
// "GPU Direct RDMA Disabled": NCCL staged through host memory, which must be flagged loudly.
const FIXTURE = resolve(REPO_ROOT, 'packages/parsers/fixtures/nccl/all_reduce_perf.gdr-disabled.multinode.good.txt');

test('an nccl-tests run with GDR disabled is flagged as host-memory fallback', async ({ page, api, env }) => {
  const text = readFileSync(FIXTURE, 'utf8');
  await page.goto('/scans');
  await expect(page.getByTestId('nccl-import-submit')).toBeDisabled();
  await setTokenViaUi(page, env.token);
  await page.getByTestId('nccl-import-text').fill(text);
  await page.getByTestId('nccl-label-cluster').fill('e2e-gdr');
  await page.getByTestId('nccl-label-nodes').fill('2');
  await page.getByTestId('nccl-import-submit').click();
  const result = page.getByTestId('nccl-import-result');
  await expect(result).toContainText('Imported');

  const run = (await api.get<NcclRunRow[]>('/api/nccl/runs')).find((r) => r.labels.cluster === 'e2e-gdr');
  expect(run?.verdict).toBe('host-memory-fallback');
  expect(run?.gdr).toBe('disabled');
  await expect(result.getByRole('link', { name: `Open run #${run!.id}` })).toBeVisible();

  await page.getByTestId('nav-bandwidth').click();
  await expect(page.getByTestId('host-memory-fallback')).toBeVisible();
  const row = page.locator('[data-testid="nccl-run-row"][data-verdict="host-memory-fallback"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('HOST-MEMORY FALLBACK');

  await row.getByRole('link', { name: `#${run!.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/bandwidth/runs/${run!.id}$`));
  await expect(page.getByTestId('nccl-run-summary')).toHaveAttribute('data-verdict', 'host-memory-fallback');
  await expect(page.getByTestId('host-memory-fallback')).toBeVisible();
  await expect(page.getByTestId('run-gdr')).toContainText('off');
  await expect(page.getByTestId('run-target')).toContainText('profile 8x H100, 8x400G');
  // The strongest evidence wins: inter-node channels "via NET/IB/n" without "/GDRDMA".
  const detail = await api.get<NcclRunDetailReply>(`/api/nccl/runs/${run!.id}`);
  expect(detail.gdrEvidence.length).toBeGreaterThan(0);
  expect(detail.gdrEvidence.some((l) => l.includes('GDRDMA'))).toBe(false);
  const evidence = page.getByTestId('run-gdr-evidence');
  await expect(evidence).toContainText(detail.gdrEvidence[0]!);
  await expect(evidence).toContainText('via NET/IB/');
});

test('the same band without NCCL_DEBUG lines says "GDR state unknown", never host-memory fallback', async ({
  page,
  api,
}) => {
  const text = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => !/NCCL (INFO|WARN)|^NCCL version/.test(l))
    .join('\n');
  const { id } = await api.post<{ id: number }>('/api/nccl-runs', {
    text,
    name: 'e2e-gdr-unknown.txt',
    labels: { cluster: 'e2e-gdr-unknown' },
  });
  const run = (await api.get<NcclRunRow[]>('/api/nccl/runs')).find((r) => r.id === id)!;
  expect(run).toMatchObject({ verdict: 'fail', gdr: 'unknown', flags: ['gdr-unknown'] });

  await page.goto(`/bandwidth/runs/${id}`);
  await expect(page.getByTestId('nccl-run-summary')).toHaveAttribute('data-verdict', 'fail');
  await expect(page.getByTestId('gdr-unknown')).toContainText(
    'In the host-staging band (50-100 GB/s); GDR state unknown: rerun with NCCL_DEBUG=INFO',
  );
  await expect(page.getByTestId('host-memory-fallback')).toHaveCount(0);
  await expect(page.getByTestId('run-gdr')).toContainText('unknown');
  await page.goto('/bandwidth');
  const row = page.locator('[data-testid="nccl-run-row"]', { has: page.getByRole('link', { name: `#${id}` }) });
  await expect(row).toHaveAttribute('data-verdict', 'fail');
  await expect(row.getByTestId('nccl-run-flag-gdr-unknown')).toContainText('HOST-STAGING BAND; GDR UNKNOWN');
});
