/**
 * Integration: the early-warning watch list against a live 256-GPU lab. A host link's
 * SymbolErrorCounter ramps (60, 120, 180 ... errors per sweep, one sweep an hour: the clock of
 * the collector is moved an hour per sweep; ibsim's counters are real), and the port must be on
 * the watch list before the major symbol-errors finding fires, then leave it when the finding
 * fires. The timeline is printed for the issue's closing note.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FindingRow, WatchReply } from '@ibwatch/fabric';
import { addCounter } from '@ibwatch/lab';
import { startHarness, type Harness } from './lab-harness.ts';

const H = 3_600_000;
const STEP = 60;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ IBWATCH_WATCH_WINDOW_H: '24' });
}, 60_000);

afterAll(async () => {
  vi.useRealTimers();
  await h?.close();
}, 30_000);

interface Row {
  sweep: number;
  errors: number;
  onWatch: boolean;
  crossInH: number | null;
  finding: string | null;
}

describe('watch list on a live lab', () => {
  it('lists a ramping port before the major finding fires, and drops it when it does', async () => {
    const sw = h.port('leaf-r0-01', 1);
    expect((await h.scan('topology')).status).not.toBe('failed');
    // Only Date is faked: timers, child processes and ibsim run in real time.
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    expect((await h.scan('pm')).status).not.toBe('failed'); // the baseline sweep
    const rows: Row[] = [];
    let threshold = 0;
    for (let k = 1; k <= 14; k++) {
      vi.setSystemTime(t0 + k * H);
      await addCounter(h.lab, sw, 'SymbolErrorCounter', STEP * k);
      const pm = await h.scan('pm');
      expect(pm.status, pm.error ?? '').not.toBe('failed');
      const watch = await h.get<WatchReply>('/api/watch');
      const e = watch.entries.find((x) => x.portKey === sw.key && x.counter === 'SymbolErrorCounter');
      const f = (await h.linkFindings()).find((x) => x.kind === 'symbol-errors' && x.subjectKey === `port:${sw.key}`);
      if (e) threshold = e.thresholdPerHour;
      rows.push({
        sweep: k,
        errors: STEP * k,
        onWatch: e !== undefined,
        crossInH: e ? Math.round(((e.projectedCrossAt - Date.now()) / H) * 10) / 10 : null,
        finding: (f as FindingRow | undefined)?.severity ?? null,
      });
      // Nothing else in the healthy lab may be on the list.
      expect(watch.entries.every((x) => x.portKey === sw.key)).toBe(true);
    }
    console.log(
      `watch list timeline, ${sw.node} port ${sw.port} (sweeps 1 h apart; major = ` +
        `${threshold} symbol errors/h at the link's rate):\n` +
        rows
          .map(
            (r) =>
              `  sweep ${String(r.sweep).padStart(2)}: ${String(r.errors).padStart(4)} errors/h  ` +
              `${r.onWatch ? `ON WATCH (cross in ~${r.crossInH} h)` : 'not on watch'.padEnd(27)}  ` +
              `finding: ${r.finding ?? 'none'}`,
          )
          .join('\n'),
    );
    const watchAt = rows.find((r) => r.onWatch)?.sweep;
    const majorAt = rows.find((r) => r.finding === 'major' || r.finding === 'critical')?.sweep;
    console.log(`watch at sweep ${watchAt}, major finding at sweep ${majorAt}`);
    expect(watchAt).toBeDefined();
    expect(majorAt).toBeDefined();
    expect(watchAt!).toBeLessThan(majorAt!);
    // On the list from then until the finding: no flicker on a steady ramp.
    expect(rows.filter((r) => r.sweep >= watchAt! && r.sweep < majorAt!).every((r) => r.onWatch)).toBe(true);
    expect(rows.find((r) => r.sweep === majorAt)!.onWatch).toBe(false);
    // The first projection already named the hour of the crossing (a steady ramp: within 1.5 h).
    expect(Math.abs(rows.find((r) => r.sweep === watchAt)!.crossInH! - (majorAt! - watchAt!))).toBeLessThan(1.5);
  }, 240_000);
});
