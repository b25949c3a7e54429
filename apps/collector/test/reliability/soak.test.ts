// The short soak for CI (the long one is scripts/soak.ts): a live lab, PM sweeps back to back
// with a random fault every 2 sweeps, retention on an accelerated clock. Loose bounds here;
// the long run holds them to 10%.
import { describe, expect, it } from 'vitest';
import { runSoak, secondHalfGrowth } from './soak-run.ts';
import { cleanupTemp, tempDir } from './support.ts';

describe('soak (short)', () => {
  it('40 sweeps with faults: scans keep succeeding, memory and database stay bounded', async () => {
    const lines: string[] = [];
    try {
      const r = await runSoak({
        sweeps: 40,
        gpus: 64,
        faultEvery: 2,
        reportEvery: 10,
        dir: tempDir('soak'),
        log: (l) => lines.push(l),
      });
      console.log(`soak (CI): ${r.seconds} s, faults ${JSON.stringify(r.faults)}\n${lines.join('\n')}`);
      expect(r.samples.length).toBe(4);
      expect(Object.values(r.faults).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(15);
      // A fault may make a sweep fail (a port vanishing mid-read); most must not.
      expect(r.failedScans).toBeLessThanOrEqual(4);
      expect(secondHalfGrowth(r.samples, 'rssMb')).toBeLessThan(0.25);
      expect(secondHalfGrowth(r.samples, 'pagesMb')).toBeLessThan(0.25);
      expect(Math.max(...r.samples.map((s) => s.p95Ms))).toBeLessThan(15_000);
    } finally {
      cleanupTemp();
    }
  }, 170_000);
});
