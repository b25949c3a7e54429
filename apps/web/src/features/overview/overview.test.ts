import { describe, expect, it } from 'vitest';
import type { BrokenRow, FabricSummary, ScanFreshness, ScanRow, SmSummary } from '@ibwatch/fabric';
import { brokenRowHref, countTone, freshnessBadge, latestScansByKind, screenStatus, smVerdict } from './overview.ts';

const sm: SmSummary = {
  status: 'ok',
  masterGuid: '0x0000000000000001',
  masterName: 'ufm-01',
  masterCount: 1,
  standbyCount: 1,
  failoversLast24h: 0,
  lastChangeAt: null,
  missingCount: 0,
  rogueCount: 0,
  observedAt: 1,
};

function scan(id: number, kind: ScanRow['kind'], status: ScanRow['status'], startedAt: number): ScanRow {
  return {
    id,
    kind,
    status,
    startedAt,
    trigger: 'schedule',
    finishedAt: startedAt + 1,
    durationMs: 1,
    error: null,
    warnings: [],
    toolVersions: {},
    summary: {},
  };
}

describe('smVerdict()', () => {
  it('says one master and no failover when healthy', () => {
    const v = smVerdict(sm);
    expect(v.look.label).toBe('ONE MASTER');
    expect(v.look.tone).toBe('ok');
    expect(v.detail).toContain('no failover in the last 24 h');
  });
  it('is green after a failback (one master, its standby): the failover is told as an event, not a colour', () => {
    const back = smVerdict({ ...sm, failoversLast24h: 2, lastChangeAt: 5 });
    expect(back.look).toEqual({ icon: '●', label: 'ONE MASTER', tone: 'ok' });
    expect(back.detail).toContain('2 failovers in the last 24 h');
  });
  it('alarms on split brain / no master', () => {
    expect(smVerdict({ ...sm, status: 'split-brain', masterCount: 2 }).look.label).toContain('SPLIT BRAIN (2');
    expect(smVerdict({ ...sm, status: 'no-master', masterCount: 0 }).look.tone).toBe('crit');
  });
  it('alarms on a rogue SM, and says when no standby is left or an SM is not seen', () => {
    expect(smVerdict({ ...sm, status: 'rogue', rogueCount: 1 }).look).toMatchObject({
      label: 'ROGUE SM (1)',
      tone: 'crit',
    });
    const noStandby = smVerdict({ ...sm, status: 'no-standby', standbyCount: 0, missingCount: 1 });
    expect(noStandby.look).toMatchObject({ label: 'NO STANDBY', tone: 'bad' });
    expect(noStandby.detail).toContain('1 not answering');
    expect(smVerdict({ ...sm, status: 'sm-missing', missingCount: 1 }).look.label).toBe('SM NOT SEEN (1)');
  });
});

describe('latestScansByKind()', () => {
  it('lists every scheduled kind, the latest run and the latest good run', () => {
    const rows = latestScansByKind([
      scan(1, 'pm', 'ok', 10),
      scan(2, 'pm', 'failed', 20),
      scan(3, 'import-nccl', 'ok', 5),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['pm', 'sm', 'topology', 'ibdiagnet', 'import-nccl']);
    expect(rows[0].latest?.id).toBe(2);
    expect(rows[0].lastOk?.id).toBe(1);
    expect(rows[1].latest).toBeNull();
  });
});

describe('screenStatus()', () => {
  const summary = {
    generatedAt: 1_000_000,
    fabricStatus: { word: 'DEGRADED', reasons: ['1 cable with a problem now'] },
  };
  const s = summary as unknown as FabricSummary;
  it("shows the collector's word while polls succeed", () => {
    expect(screenStatus(s, { error: undefined, updatedAt: 1_000_000 })).toEqual({
      word: 'DEGRADED',
      reasons: ['1 cable with a problem now'],
      unreachableSince: null,
    });
  });
  it('says STALE from the first failed poll, whatever the collector said last', () => {
    const r = screenStatus(s, { error: new Error('x'), updatedAt: 1_000_000 });
    expect(r.word).toBe('STALE');
    expect(r.unreachableSince).toBe(1_000_000);
    expect(r.reasons[0]).toMatch(/no answer from the collector since .*; it said DEGRADED then/);
    const ok = { ...summary, fabricStatus: { word: 'OK', reasons: [] } } as unknown as FabricSummary;
    expect(screenStatus(ok, { error: new Error('x'), updatedAt: undefined })).toMatchObject({
      word: 'STALE',
      unreachableSince: 1_000_000,
    });
  });
});

describe('freshnessBadge()', () => {
  const f = (state: ScanFreshness['state']): ScanFreshness => ({
    kind: 'pm',
    state,
    intervalMs: 60_000,
    lastOkAt: 1,
    failuresInRow: 0,
    lastError: null,
    reason: '',
  });
  const live = { word: 'OK' as const, unreachableSince: null };
  it('shows FRESH in green while the screen has its collector and the fabric is not STALE', () => {
    expect(freshnessBadge(f('fresh'), live)).toEqual({
      state: 'fresh',
      look: { icon: '●', label: 'FRESH', tone: 'ok' },
    });
    expect(freshnessBadge(f('stale'), live).look.label).toBe('STALE');
  });
  it('shows no FRESH once the screen lost its collector: what was fresh then is UNKNOWN now', () => {
    const lost = { word: 'STALE' as const, unreachableSince: 5 };
    expect(freshnessBadge(f('fresh'), lost)).toMatchObject({
      state: 'unknown',
      look: { label: 'UNKNOWN', tone: 'muted' },
    });
    expect(freshnessBadge(f('stale'), lost).state).toBe('stale');
  });
  it('keeps no green under a STALE fabric word', () => {
    expect(freshnessBadge(f('fresh'), { word: 'STALE', unreachableSince: null }).look.tone).toBe('muted');
  });
});

describe('brokenRowHref()', () => {
  const row = (over: Partial<BrokenRow>): BrokenRow => ({
    kind: 'cable',
    key: 'k',
    severity: 'major',
    title: 't',
    reasons: [],
    since: 0,
    acknowledged: false,
    ends: [{ guid: '0x0000000000000001', name: 'leaf-01', port: 3, lid: 1, rack: null }],
    worklistKey: null,
    findingIds: [],
    ...over,
  });
  it('leads a cable to its worklist entry, else to its first port; SM rows to /sm, scans to /scans', () => {
    expect(brokenRowHref(row({ worklistKey: '0x1/3~0x2/1' }))).toBe('/worklist?focus=0x1%2F3%7E0x2%2F1');
    expect(brokenRowHref(row({}))).toBe('/ports/0x0000000000000001/3');
    expect(brokenRowHref(row({ kind: 'sm', ends: [] }))).toBe('/sm');
    expect(brokenRowHref(row({ kind: 'scan', ends: [] }))).toBe('/scans');
  });
});

describe('countTone()', () => {
  it('is neutral at zero', () => {
    expect(countTone(0, 'crit')).toBeUndefined();
    expect(countTone(2, 'crit')).toBe('crit');
  });
});
