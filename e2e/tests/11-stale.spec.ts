import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { attachLab } from '@ibwatch/lab';
import { REPO_ROOT } from '../state.ts';
import { expect, snap, test, type Api, type FabricSummary } from './fixtures.ts';

// When scans stop, the screen must not stay green over old data. ibsim is paused (SIGSTOP):
// every diags tool then hangs, scans stay running, nothing new is stored — the "tool hanging"
// case. Each scan kind must be reported stale within three of its intervals (the cron here:
// SM 3 s, PM 5 s, topology 10 s), the overview must say STALE with a banner per kind, and
// `ibwatch status` must exit 3. ibsim is resumed before the collector's 60 s tool timeout, and the
// spec waits until the status is what it was before.

const summary = (api: Api) => api.get<FabricSummary>('/api/summary');

async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('scans stopped: STALE within three intervals on the overview and in `ibwatch status`, fresh again after', async ({
  page,
  api,
  env,
}) => {
  test.setTimeout(180_000);
  const lab = await attachLab(env.labDir);
  const before = await until(
    'every scan kind to be fresh',
    async () => {
      const s = await summary(api);
      return s.freshness.every((f) => f.state === 'fresh') ? s : undefined;
    },
    30_000,
  );
  expect(before.freshness.map((f) => f.kind).sort()).toEqual(['pm', 'sm', 'topology']);
  await page.goto('/?kiosk=1');
  await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', before.fabricStatus.word);

  const ibsim = lab.state.ibsim.pid;
  process.kill(ibsim, 'SIGSTOP');
  let resumed = false;
  const resume = () => {
    if (!resumed) process.kill(ibsim, 'SIGCONT');
    resumed = true;
  };
  try {
    // Each kind goes stale once its last success is three intervals old; polled every 250 ms.
    const staleAt = new Map<string, number>();
    const all = await until(
      'every scan kind to be stale',
      async () => {
        const s = await summary(api);
        for (const f of s.freshness) if (f.state === 'stale' && !staleAt.has(f.kind)) staleAt.set(f.kind, Date.now());
        return staleAt.size === s.freshness.length ? s : undefined;
      },
      60_000,
    );
    for (const f of all.freshness) {
      const limit = 3 * f.intervalMs;
      // Stale no earlier than three intervals after its last success, and no later than that plus
      // the summary's 2 s cache and the poll.
      expect(staleAt.get(f.kind)! - f.lastOkAt!, `${f.kind}: ${f.reason}`).toBeGreaterThan(limit);
      expect(staleAt.get(f.kind)! - f.lastOkAt!, `${f.kind}: ${f.reason}`).toBeLessThan(limit + 4000);
    }
    expect(all.fabricStatus.word).toMatch(/^(STALE|CRITICAL)$/);
    expect(
      all.brokenNow
        .filter((r) => r.kind === 'scan')
        .map((r) => r.key)
        .sort(),
    ).toEqual(['pm', 'sm', 'topology']);

    // The kiosk refreshes itself (every 10 s): no reload.
    await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', 'STALE', { timeout: 25_000 });
    for (const kind of ['pm', 'sm', 'topology'])
      await expect(page.locator(`[data-testid="stale-banner"][data-kind="${kind}"]`)).toBeVisible();
    await expect(page.locator('[data-testid="broken-row"][data-kind="scan"]')).toHaveCount(3);
    await expect(page.locator('[data-testid="stale-note"][data-kind="sm"]')).toBeVisible();
    await snap(page, 'overview-stale');

    // The CLI reads the same database read-only, with the collector's settings.
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'apps/collector/src/cli.ts', 'status', '--json', '--db', env.dbFile],
      { cwd: REPO_ROOT, env: { ...process.env, ...env.collectorEnv }, timeout: 30_000 },
    ).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code?: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
    expect(cli.code, JSON.stringify(cli)).toBe(3);
    expect(JSON.parse(cli.stdout)).toMatchObject({ exitCode: 3, fabricStatus: { word: 'STALE' } });
  } finally {
    resume();
  }

  // Resumed: the hung tools finish, the next scans succeed, the status is what it was.
  const after = await until(
    'the status to be back to what it was',
    async () => {
      const s = await summary(api);
      return s.freshness.every((f) => f.state === 'fresh') && s.fabricStatus.word === before.fabricStatus.word
        ? s
        : undefined;
    },
    90_000,
  );
  expect(after.brokenNow.filter((r) => r.kind === 'scan')).toEqual([]);
  await expect(page.getByTestId('fabric-status')).toHaveAttribute('data-status', before.fabricStatus.word, {
    timeout: 25_000,
  });
  await expect(page.getByTestId('stale-banner')).toHaveCount(0);
});
