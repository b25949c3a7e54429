import { describe, expect, it } from 'vitest';
import type { ToolRun, ToolRunner } from '../../apps/collector/src/sources/tool-runner.ts';
import { medianRatio, medianSplit, recordingRunner, splitScan, type ToolSpan } from './tool-spans.ts';

const span = (tool: string, args: string[], start: number, end: number): ToolSpan => ({ tool, args, start, end });

describe('live-lab split of a scan at its tool runs', () => {
  it('splits at the first spawn and the last exit of the sweep tools inside the scan', () => {
    const spans = [
      span('ibqueryerrors', ['--counters'], 5, 900), // an earlier scan's run
      span('ibnetdiscover', ['--cache', 'f', '/dev/null'], 1010, 1500),
      span('ibqueryerrors', ['--data'], 1520, 3000),
      span('ibqueryerrors', ['--counters'], 1530, 3400),
      span('ibqueryerrors', ['-V'], 3401, 3410), // a version query is not a sweep's run
      span('saquery', ['SMIR'], 3410, 3500),
    ];
    const sweep = ['ibnetdiscover', 'ibqueryerrors'];
    expect(splitScan(spans, sweep, 1000, 3600)).toEqual({ beforeMs: 10, toolsMs: 2390, afterMs: 200 });
    expect(splitScan(spans, ['ibqueryerrors'], 1000, 3600)).toEqual({ beforeMs: 520, toolsMs: 1880, afterMs: 200 });
    expect(splitScan(spans, sweep, 3405, 3600)).toBeUndefined();
  });

  it('takes the median of the pairs’ ratios, not the ratio of the medians', () => {
    // Ratios 2, 0.5, 1.5: median 1.5; medians of the times would give 400 / 300.
    expect(medianRatio([200, 100, 450], [100, 200, 300])).toBe(1.5);
    expect(() => medianRatio([1, 2], [1])).toThrow(/one bare run per ibwatch run/);
  });

  it('medians each part of the splits on its own', () => {
    const s = medianSplit([
      { beforeMs: 1, toolsMs: 10, afterMs: 300 },
      { beforeMs: 3, toolsMs: 30, afterMs: 100 },
      { beforeMs: 2, toolsMs: 20, afterMs: 200 },
    ]);
    expect(s).toEqual({ beforeMs: 2, toolsMs: 20, afterMs: 200 });
  });

  it('records each run of the wrapped runner and passes its result through', async () => {
    const result = { tool: 'x', exitCode: 0 } as ToolRun;
    const seen: unknown[] = [];
    const inner: ToolRunner = {
      run: async (tool, args, opts) => {
        seen.push([tool, args, opts]);
        await new Promise((r) => setTimeout(r, 5));
        return result;
      },
    };
    const spans: ToolSpan[] = [];
    const before = performance.now();
    const r = await recordingRunner(inner, spans).run('ibqueryerrors', ['--counters'], { bytes: true });
    expect(r).toBe(result);
    expect(seen).toEqual([['ibqueryerrors', ['--counters'], { bytes: true }]]);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.tool).toBe('ibqueryerrors');
    expect(spans[0]!.start).toBeGreaterThanOrEqual(before);
    expect(spans[0]!.end - spans[0]!.start).toBeGreaterThanOrEqual(4);
  });
});
