import { describe, expect, it } from 'vitest';
import type { ScanFreshness } from '@ibwatch/fabric';
import { ANY_DATA, coverage, LINK_DATA, noDataAdvice } from './coverage.ts';

const scheduled = (kind: ScanFreshness['kind']): ScanFreshness => ({
  kind,
  state: 'pending',
  intervalMs: 60_000,
  lastOkAt: null,
  failuresInRow: 0,
  lastError: null,
  reason: '',
});

describe('coverage()', () => {
  it('is "no data yet" on an empty database, and tells import-only from scheduled', () => {
    expect(coverage({ completedScans: [], freshness: [] }, ANY_DATA)).toEqual({
      state: 'no-data',
      importOnly: true,
      lastOkAt: null,
      kinds: [],
    });
    expect(coverage({ completedScans: [], freshness: [scheduled('pm')] }, ANY_DATA).importOnly).toBe(false);
  });
  it('is "checked" once a scan that fills the view completed, newest first', () => {
    const c = coverage(
      {
        completedScans: [
          { kind: 'pm', lastOkAt: 100 },
          { kind: 'import-ibdiagnet', lastOkAt: 300 },
        ],
        freshness: [scheduled('pm')],
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
      freshness: [],
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
