import { afterAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../scans/pipeline.ts';
import { pruneOnce } from '../scans/maintenance.ts';
import { testContext } from '../test-support.ts';
import { registry } from './registry.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());

/** The value of one sample of the registry's text, 0 when absent. */
async function sample(line: string): Promise<number> {
  const text = await registry.metrics();
  const hit = text.split('\n').find((l) => l.startsWith(`${line} `));
  return hit ? Number(hit.slice(line.length + 1)) : 0;
}

const failing = () =>
  runPipeline(
    ctx.db,
    'sm',
    'cli',
    async () => {
      throw new Error('saquery: no route to the SM');
    },
    () => ({}),
    () => Date.now() - 200 * 86_400_000,
  );

describe('in-process counters', () => {
  it('count every finished scan, failures included, with its duration', async () => {
    const failed = 'ibwatch_scans_total{kind="sm",status="failed"}';
    const durations = 'ibwatch_scan_duration_seconds_count{kind="sm"}';
    const before = [await sample(failed), await sample(durations)];
    const row = await failing();
    expect(row.status).toBe('failed');
    await failing();
    expect([await sample(failed), await sample(durations)]).toEqual([before[0]! + 2, before[1]! + 2]);
  });

  it('never go down when retention prunes the rows they were counted from', async () => {
    const failed = 'ibwatch_scans_total{kind="sm",status="failed"}';
    const n = await sample(failed);
    expect(n).toBeGreaterThan(0);
    // The failed scans above are dated 200 days back: past every retention.
    pruneOnce(ctx.db, ctx.config);
    expect(ctx.db.prepare("SELECT COUNT(*) FROM scans WHERE kind = 'sm'").pluck().get()).toBe(0);
    expect(await sample(failed)).toBe(n);
  });
});
