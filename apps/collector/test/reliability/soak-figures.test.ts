// The figures the soak reports: the least-squares slope of a sample series, and what grew
// between two heap snapshots (scripts/soak.ts, scripts/heap-diff.ts).
import { writeHeapSnapshot } from 'node:v8';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffHeaps, heapTotal, summarizeHeapSnapshot } from './heap-summary.ts';
import { slopePerHour, type SoakSample } from './soak-run.ts';
import { cleanupTemp, tempDir } from './support.ts';

const sample = (atS: number, rssMb: number): SoakSample => ({
  sweep: 0,
  atS,
  rssMb,
  heapMb: 0,
  dbMb: 0,
  walMb: 0,
  pagesMb: 0,
  p50Ms: 0,
  p95Ms: 0,
  findingsOpen: 0,
  failed: 0,
});

describe('slopePerHour()', () => {
  it('is the least-squares slope in units per hour, from a given second on', () => {
    // 2 MB/h plus noise that averages out; a warm-up jump in the first 10 minutes.
    const xs = Array.from({ length: 121 }, (_, i) => {
      const atS = i * 60;
      return sample(atS, (atS < 600 ? 100 : 150) + (2 * atS) / 3600 + (i % 2 ? 0.5 : -0.5));
    });
    expect(slopePerHour(xs, 'rssMb', 600)).toBeCloseTo(2, 1);
    expect(slopePerHour(xs, 'rssMb')).toBeGreaterThan(10); // the jump, read as growth
    expect(slopePerHour([sample(0, 1)], 'rssMb')).toBeNaN();
    expect(slopePerHour([sample(5, 1), sample(5, 2)], 'rssMb')).toBeNaN();
  });
});

describe('summarizeHeapSnapshot() / diffHeaps()', () => {
  it('finds a group of objects that grew between two snapshots of this process', () => {
    const dir = tempDir('heap');
    try {
      class LeakyThing {
        payload = new Array(64).fill(1);
      }
      const kept: LeakyThing[] = [];
      const a = summarizeHeapSnapshot(readFileSync(writeHeapSnapshot(join(dir, 'a.heapsnapshot')), 'utf8'));
      for (let i = 0; i < 20_000; i++) kept.push(new LeakyThing());
      const b = summarizeHeapSnapshot(readFileSync(writeHeapSnapshot(join(dir, 'b.heapsnapshot')), 'utf8'));
      expect(kept.length).toBe(20_000);
      expect(b.get('LeakyThing (object)')!.count - (a.get('LeakyThing (object)')?.count ?? 0)).toBe(20_000);
      const grown = diffHeaps(a, b).find((d) => d.key === 'LeakyThing (object)');
      expect(grown!.countDelta).toBe(20_000);
      expect(grown!.bytesDelta).toBeGreaterThan(20_000 * 12);
      expect(heapTotal(b).count).toBeGreaterThan(heapTotal(a).count + 20_000);
    } finally {
      cleanupTemp();
    }
  }, 60_000);
});
