import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.ts';
import { DEFAULT_TREND_RULES, theilSen, watchVerdict, type RatePoint } from './watch.ts';

const H = 3_600_000;
const NOW = Date.UTC(2026, 11, 1, 12);

/** `n` hourly points ending an hour before NOW, rate `f(i)` per hour. */
function series(n: number, f: (i: number) => number): RatePoint[] {
  return Array.from({ length: n }, (_, i) => ({ at: NOW - (n - i) * H, perHour: f(i) }));
}

describe('theilSen', () => {
  it('recovers the slope and the value now of an exact line', () => {
    const t = theilSen(
      series(10, (i) => 5 + 2 * i),
      NOW,
    )!;
    expect(t.slopePerHourPerHour).toBeCloseTo(2, 9);
    // The last point (i = 9, 23/h) is an hour before NOW: the line is at 25/h now.
    expect(t.fitNowPerHour).toBeCloseTo(25, 9);
    expect(t.rateNowPerHour).toBe(23);
    expect(t.tau).toBe(1);
  });

  it('ignores one burst that would drag a least-squares line', () => {
    const pts = series(12, (i) => 10 + i);
    pts[3] = { ...pts[3]!, perHour: 5000 };
    const t = theilSen(pts, NOW)!;
    expect(t.slopePerHourPerHour).toBeCloseTo(1, 1);
  });

  it('has no fit without two distinct times', () => {
    expect(theilSen([{ at: NOW, perHour: 3 }], NOW)).toBeNull();
  });
});

describe('watchVerdict', () => {
  it('projects when a rising rate below the threshold crosses it', () => {
    const v = watchVerdict(
      series(8, (i) => 100 + 50 * i),
      1440,
      NOW,
    )!;
    // Now the line is at 100 + 50 * 8 = 500/h; 940 more at 50/h per hour is 18.8 h away.
    expect(v.fitNowPerHour).toBeCloseTo(500, 6);
    expect((v.crossAt! - NOW) / H).toBeCloseTo(18.8, 6);
  });

  it('keeps a flat noisy rate off the list (no trend in noise)', () => {
    const rnd = seededRandom(7);
    let listed = 0;
    for (let k = 0; k < 200; k++) {
      if (
        watchVerdict(
          series(24, () => Math.floor(rnd() * 20)),
          1440,
          NOW,
        )
      )
        listed++;
    }
    // A random series has |tau| >= 0.5 very rarely and, when it does, its crossing is beyond the horizon.
    expect(listed).toBe(0);
  });

  it('needs enough points, non-zero points and span', () => {
    expect(
      watchVerdict(
        series(3, (i) => 10 * (i + 1)),
        1440,
        NOW,
      ),
    ).toBeNull();
    expect(
      watchVerdict(
        series(6, (i) => (i === 5 ? 30 : i === 4 ? 10 : 0)),
        1440,
        NOW,
      ),
    ).toBeNull();
    const dense = Array.from({ length: 10 }, (_, i) => ({ at: NOW - (10 - i) * 60_000, perHour: 10 + i }));
    expect(watchVerdict(dense, 1440, NOW)).toBeNull();
    expect(watchVerdict(dense, 1440, NOW, { ...DEFAULT_TREND_RULES, minSpanHours: 0.1 })).not.toBeNull();
  });

  it('leaves a falling rate and one already over the threshold to others', () => {
    expect(
      watchVerdict(
        series(8, (i) => 800 - 50 * i),
        1440,
        NOW,
      ),
    ).toBeNull();
    expect(
      watchVerdict(
        series(8, (i) => 1000 + 100 * i),
        1440,
        NOW,
      ),
    ).toBeNull();
  });

  it('drops a crossing beyond the horizon', () => {
    const slow = series(10, (i) => 1 + 0.01 * i);
    expect(watchVerdict(slow, 1440, NOW)).toBeNull();
    expect(watchVerdict(slow, 1440, NOW, { ...DEFAULT_TREND_RULES, horizonHours: 1e9 })).not.toBeNull();
  });
});
