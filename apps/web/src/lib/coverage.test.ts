import { describe, expect, it } from 'vitest';
import type { CollectorSchedule, ScanKind } from '@ibwatch/fabric';
import { ANY_DATA, coverage, LINK_DATA, noDataAdvice } from './coverage.ts';

/** A collector's schedule as the summary carries it: `import-only` schedules nothing. */
const collector = (kinds: ScanKind[]): CollectorSchedule => ({
  source: kinds.length ? 'lab' : 'import-only',
  schedules: kinds.map((kind) => ({ kind, cron: '0 * * * * *', intervalMs: 60_000 })),
  text: kinds.length ? kinds.map((k) => `${k} every 60 s`).join(', ') : 'none (import-only)',
  startedAt: null,
  from: 'running',
});

describe('coverage()', () => {
  it('is "no data yet" on an empty database, and tells import-only (no schedule) from scheduled', () => {
    expect(coverage({ completedScans: [], collector: collector([]) }, ANY_DATA)).toEqual({
      state: 'no-data',
      importOnly: true,
      lastOkAt: null,
      kinds: [],
    });
    expect(coverage({ completedScans: [], collector: collector(['pm']) }, ANY_DATA).importOnly).toBe(false);
  });
  it('is "checked" once a scan that fills the view completed, newest first', () => {
    const c = coverage(
      {
        completedScans: [
          { kind: 'pm', lastOkAt: 100 },
          { kind: 'import-ibdiagnet', lastOkAt: 300 },
        ],
        collector: collector(['pm']),
      },
      LINK_DATA,
    );
    expect(c).toEqual({ state: 'checked', importOnly: false, lastOkAt: 300, kinds: ['import-ibdiagnet', 'pm'] });
  });
  it('does not count an SM scan or an nccl import as link data', () => {
    const s = {
      completedScans: [
        { kind: 'sm' as const, lastOkAt: 1 },
        { kind: 'import-nccl' as const, lastOkAt: 2 },
      ],
      collector: collector([]),
    };
    expect(coverage(s, LINK_DATA).state).toBe('no-data');
    expect(coverage(s, ANY_DATA).state).toBe('checked');
  });
});

describe('noDataAdvice()', () => {
  it('says to import when nothing is scheduled, and to wait for the named scans otherwise', () => {
    expect(noDataAdvice({ importOnly: true })).toMatch(/schedules no scans \(import-only\).*ibwatch import ibdiagnet/);
    expect(noDataAdvice({ importOnly: false }, ['pm', 'topology'])).toBe(
      'The first scheduled pm, topology scans run shortly after the collector starts.',
    );
  });
});
