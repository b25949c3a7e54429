/**
 * When each tool run started and ended, to split a scan's time into what the tools took and what
 * ibwatch added before their spawn and after their exit (the live-lab stage).
 */
import type { ToolRunner } from '../../apps/collector/src/sources/tool-runner.ts';
import { median } from './stats.ts';

export interface ToolSpan {
  tool: string;
  args: string[];
  /** performance.now() when the run was asked for and when its result came back. */
  start: number;
  end: number;
}

/** `inner` with every run's span appended to `spans` (the runner's own result unchanged). */
export function recordingRunner(inner: ToolRunner, spans: ToolSpan[]): ToolRunner {
  return {
    async run(tool, args, opts) {
      const start = performance.now();
      const r = await inner.run(tool, args, opts);
      spans.push({ tool, args, start, end: performance.now() });
      return r;
    },
  };
}

/** One scan split at its tools: scan start → first spawn, first spawn → last exit, last exit → scan end. */
export interface ScanSplit {
  beforeMs: number;
  toolsMs: number;
  afterMs: number;
}

/**
 * The split of a scan that ran from `start` to `end`, over the spans of `tools` inside it (a
 * version query, `-V`, is not a sweep's run). Undefined when no such run falls inside.
 */
export function splitScan(
  spans: readonly ToolSpan[],
  tools: readonly string[],
  start: number,
  end: number,
): ScanSplit | undefined {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of spans) {
    if (!tools.includes(s.tool) || s.args[0] === '-V' || s.start < start || s.end > end) continue;
    first = Math.min(first, s.start);
    last = Math.max(last, s.end);
  }
  if (!Number.isFinite(first)) return undefined;
  return { beforeMs: first - start, toolsMs: last - first, afterMs: end - last };
}

/** The median of the pairs' ratios (ibwatch / bare): each pair ran back to back, so fabric drift cancels. */
export function medianRatio(full: readonly number[], bare: readonly number[]): number {
  if (full.length !== bare.length || full.length === 0) throw new Error('pairs: one bare run per ibwatch run');
  return median(full.map((f, i) => f / bare[i]!));
}

/** Medians of each part of the splits, in ms. */
export function medianSplit(splits: readonly ScanSplit[]): ScanSplit {
  return {
    beforeMs: median(splits.map((s) => s.beforeMs)),
    toolsMs: median(splits.map((s) => s.toolsMs)),
    afterMs: median(splits.map((s) => s.afterMs)),
  };
}
