// The scheduler's contract, not the scans': a stand-in ScanService records every call (with the
// fake clock's time) so the tests can count ticks, overlaps and calls after stop(). node-cron 4
// runs on vitest's fake timers, so seconds of schedule take milliseconds.
import cron from 'node-cron';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import type { ScanService } from './types.ts';
import { scheduledKinds, startScheduler, type ScheduledKind, type Scheduler } from './scheduler.ts';
import { tempDir, testConfig } from '../test-support.ts';

const tmp = tempDir('ibwatch-scheduler-');
afterAll(() => tmp.cleanup());

const EVERY_SECOND = '* * * * * *';
/** Every kind on a 1 s schedule; the source decides which kinds are scheduled at all. */
const config = (source: string, env: Record<string, string> = {}) =>
  testConfig(tmp.dir, {
    IBWATCH_SOURCE: source,
    IBWATCH_JITTER_MS: '0',
    IBWATCH_CRON_PM: EVERY_SECOND,
    IBWATCH_CRON_SM: EVERY_SECOND,
    IBWATCH_CRON_TOPOLOGY: EVERY_SECOND,
    IBWATCH_CRON_IBDIAGNET: EVERY_SECOND,
    ...env,
  });

type Behaviour = (kind: ScheduledKind) => Promise<ScanRow['status']>;

/** A ScanService that records calls and how many of each kind run at once. */
function standIn(behaviour: Behaviour = async () => 'ok') {
  const calls: { kind: ScheduledKind; trigger: string; at: number }[] = [];
  const active = new Map<string, number>();
  const maxActive = new Map<string, number>();
  let id = 0;
  const service: ScanService = {
    async run(kind, trigger) {
      calls.push({ kind, trigger, at: Date.now() });
      active.set(kind, (active.get(kind) ?? 0) + 1);
      maxActive.set(kind, Math.max(maxActive.get(kind) ?? 0, active.get(kind)!));
      const startedAt = Date.now();
      try {
        const status = await behaviour(kind);
        return {
          id: ++id,
          kind,
          trigger,
          status,
          startedAt,
          finishedAt: Date.now(),
          durationMs: Date.now() - startedAt,
          error: status === 'failed' ? `${kind}: exit 3` : null,
          warnings: [],
          toolVersions: {},
          summary: {},
        };
      } finally {
        active.set(kind, active.get(kind)! - 1);
      }
    },
    importIbdiagnet: () => Promise.reject(new Error('not used by the scheduler')),
    importNccl: () => Promise.reject(new Error('not used by the scheduler')),
    importDiags: () => Promise.reject(new Error('not used by the scheduler')),
    importOpensmLog: () => Promise.reject(new Error('not used by the scheduler')),
    isRunning: (kind) => (active.get(kind) ?? 0) > 0,
  };
  const count = (kind: ScheduledKind) => calls.filter((c) => c.kind === kind).length;
  return { service, calls, count, maxActive };
}

function recordingLog() {
  const warn: { obj: unknown; msg?: string }[] = [];
  const info: { obj: unknown; msg?: string }[] = [];
  return {
    warn,
    info,
    log: {
      warn: (obj: unknown, msg?: string) => void warn.push({ obj, msg }),
      info: (obj: unknown, msg?: string) => void info.push({ obj, msg }),
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduledKinds()', () => {
  it.each([
    ['lab', ['topology', 'pm', 'sm']],
    ['diags', ['topology', 'pm', 'sm']],
    ['ibdiagnet', ['ibdiagnet', 'sm']],
    ['import-only', []],
  ])('source %s schedules %j', (source, kinds) => {
    expect(scheduledKinds(config(source))).toEqual(kinds);
  });
});

describe('startScheduler() on fake timers', () => {
  let scheduler: Scheduler | null = null;

  beforeEach(() => {
    vi.useFakeTimers();
    // Half past a second: the ticks come at +500 ms, +1500 ms, ...
    vi.setSystemTime(new Date('2026-11-29T12:00:00.500Z'));
  });
  afterEach(() => {
    scheduler?.stop();
    scheduler = null;
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('creates one task per scheduled kind with its configured expression, and none for import-only', () => {
    const { service, calls } = standIn();
    const { log, info } = recordingLog();
    scheduler = startScheduler(config('diags', { IBWATCH_CRON_PM: '0 * * * * *' }), service, log);
    expect(scheduler.tasks).toEqual([
      { kind: 'topology', expression: EVERY_SECOND },
      { kind: 'pm', expression: '0 * * * * *' },
      { kind: 'sm', expression: EVERY_SECOND },
    ]);
    expect(info[0]!.msg).toBe('scheduler started');
    scheduler.stop();

    scheduler = startScheduler(config('import-only'), service, log);
    expect(scheduler.tasks).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('runs every kind of the source once per tick with trigger "schedule"', async () => {
    const { service, calls, count } = standIn();
    scheduler = startScheduler(config('lab'), service, recordingLog().log);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.kind).sort()).toEqual(['pm', 'sm', 'topology']);
    expect(calls.every((c) => c.trigger === 'schedule')).toBe(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect([count('topology'), count('pm'), count('sm')]).toEqual([4, 4, 4]);
    expect(count('ibdiagnet')).toBe(0);
  });

  it('runs ibdiagnet and sm for the ibdiagnet source', async () => {
    const { service, count } = standIn();
    scheduler = startScheduler(config('ibdiagnet'), service, recordingLog().log);
    await vi.advanceTimersByTimeAsync(2000);
    expect([count('ibdiagnet'), count('sm'), count('pm'), count('topology')]).toEqual([2, 2, 0, 0]);
  });

  it('noOverlap: a scan slower than the period is not started again while it runs', async () => {
    // pm takes 2.5 s on a 1 s schedule; sm is quick and keeps its pace.
    const { service, count, maxActive, calls } = standIn(async (kind) => {
      if (kind === 'pm') await sleep(2500);
      return 'ok';
    });
    scheduler = startScheduler(config('diags'), service, recordingLog().log);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(maxActive.get('pm')).toBe(1);
    expect(maxActive.get('sm')).toBe(1);
    // Started at +0.5, +3.5, +6.5, +9.5 s: the ticks in between were skipped, not queued.
    expect(count('pm')).toBe(4);
    const pmStarts = calls.filter((c) => c.kind === 'pm').map((c) => c.at);
    for (let i = 1; i < pmStarts.length; i++) expect(pmStarts[i]! - pmStarts[i - 1]!).toBeGreaterThanOrEqual(2500);
    expect(count('sm')).toBe(10);
  });

  it('logs a scan that throws or fails and keeps calling it on the next ticks', async () => {
    const { service, count } = standIn(async (kind) => {
      if (kind === 'pm') throw new Error('database is locked');
      return kind === 'sm' ? 'failed' : 'ok';
    });
    const { log, warn } = recordingLog();
    scheduler = startScheduler(config('lab'), service, log);
    await vi.advanceTimersByTimeAsync(3000);
    expect([count('pm'), count('sm'), count('topology')]).toEqual([3, 3, 3]);
    const threw = warn.filter((w) => w.msg === 'scheduled scan threw');
    expect(threw).toHaveLength(3);
    expect(threw[0]!.obj).toMatchObject({
      kind: 'pm',
      err: expect.objectContaining({ message: 'database is locked' }),
    });
    const failed = warn.filter((w) => w.msg === 'scheduled scan failed');
    expect(failed).toHaveLength(3);
    expect(failed[0]!.obj).toMatchObject({ kind: 'sm', error: 'sm: exit 3', scan: expect.any(Number) });
    expect(warn).toHaveLength(6);
  });

  it('stop() ends all calls and removes its node-cron tasks', async () => {
    const { service, calls } = standIn();
    scheduler = startScheduler(config('lab'), service, recordingLog().log);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(6);
    const ours = () => [...cron.getTasks().values()].filter((t) => t.name?.startsWith('ibwatch-'));
    expect(ours()).toHaveLength(3);
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(6);
    expect(ours()).toHaveLength(0);
  });

  it('jitter delays each scheduled scan by a random part of IBWATCH_JITTER_MS, and it still runs', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { service, calls, count } = standIn();
    scheduler = startScheduler(config('ibdiagnet', { IBWATCH_JITTER_MS: '800' }), service, recordingLog().log);
    // Tick at +500 ms, then 0.5 * 800 = 400 ms of jitter.
    await vi.advanceTimersByTimeAsync(899);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.kind).sort()).toEqual(['ibdiagnet', 'sm']);
    await vi.advanceTimersByTimeAsync(3000);
    expect([count('ibdiagnet'), count('sm')]).toEqual([4, 4]);
    // Every call came 400 ms after a second boundary.
    expect(new Set(calls.map((c) => c.at % 1000))).toEqual(new Set([400]));
  });

  it('a scan still waiting out its jitter when stop() is called does not start', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { service, calls } = standIn();
    scheduler = startScheduler(config('ibdiagnet', { IBWATCH_JITTER_MS: '800' }), service, recordingLog().log);
    await vi.advanceTimersByTimeAsync(700); // ticked at +500, waiting until +900
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual([]);
  });
});
