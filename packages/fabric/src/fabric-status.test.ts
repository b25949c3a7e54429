import { describe, expect, it } from 'vitest';
import type { LinkEnd, ScanFreshness, SmSummary } from './api.ts';
import {
  brokenNow,
  fabricStatusOf,
  formatAge,
  recentEvents,
  recentlyFixed,
  scanFreshness,
  STATUS_EXIT_CODE,
  type FreshnessInput,
  type StatusFinding,
} from './fabric-status.ts';
import type { FabricLink, PortRef } from './types.ts';

const MIN = 60_000;
const NOW = Date.UTC(2024, 5, 1, 12, 0);
const SW = '0x0000000000000001';
const SPINE = '0x0000000000000002';
const HCA = '0x0000000000000003';
const NAMES: Record<string, string> = { [SW]: 'leaf-01', [SPINE]: 'spine-01', [HCA]: 'dgx-001 mlx5_0' };
const links: FabricLink[] = [
  { a: { nodeGuid: SW, portNum: 33 }, b: { nodeGuid: SPINE, portNum: 5 } },
  { a: { nodeGuid: SW, portNum: 1 }, b: { nodeGuid: HCA, portNum: 1 } },
];
const linkOf = (p: PortRef) =>
  links.find((l) => [l.a, l.b].some((e) => e.nodeGuid === p.nodeGuid && e.portNum === p.portNum));
const end = (p: PortRef): LinkEnd => ({
  guid: p.nodeGuid,
  name: NAMES[p.nodeGuid]!,
  port: p.portNum,
  lid: null,
  rack: null,
});
const smOk: SmSummary = {
  status: 'ok',
  masterGuid: SW,
  masterName: 'leaf-01',
  masterCount: 1,
  standbyCount: 1,
  failoversLast24h: 0,
  lastChangeAt: null,
  missingCount: 0,
  rogueCount: 0,
  observedAt: null,
};

let nextId = 1;
function finding(over: Partial<StatusFinding> & Pick<StatusFinding, 'kind' | 'subject'>): StatusFinding {
  return {
    id: nextId++,
    severity: 'major',
    state: 'open',
    title: over.kind,
    short: over.kind,
    firstSeen: NOW - 10 * MIN,
    lastSeen: NOW - MIN,
    clearedAt: null,
    resolvedAt: null,
    acknowledgedAt: null,
    ...over,
  };
}
const uplink = { kind: 'link' as const, a: links[0]!.a, b: links[0]!.b };
const hcaPort = { kind: 'port' as const, port: { nodeGuid: HCA, portNum: 1 } };
const swPort = { kind: 'port' as const, port: { nodeGuid: SW, portNum: 1 } };

const fresh = (kind: ScanFreshness['kind'], over: Partial<FreshnessInput> = {}) =>
  scanFreshness(
    {
      kind,
      intervalMs: MIN,
      lastOkAt: NOW - 30_000,
      failuresInRow: 0,
      lastError: null,
      firstAttemptAt: NOW - 60 * MIN,
      upSince: null,
      ...over,
    },
    NOW,
  );

describe('scanFreshness()', () => {
  it('is fresh within three intervals of the last success and stale after', () => {
    expect(fresh('pm', { lastOkAt: NOW - 3 * MIN })).toMatchObject({
      state: 'fresh',
      reason: 'last success 3 min ago (every 60 s)',
    });
    expect(fresh('pm', { lastOkAt: NOW - 3 * MIN - 1 })).toMatchObject({ state: 'stale' });
    expect(fresh('topology', { intervalMs: 10 * MIN, lastOkAt: NOW - 40 * MIN })).toMatchObject({
      state: 'stale',
      reason: 'last success 40 min ago (every 10 min)',
    });
  });

  it('adds the schedule jitter to the three intervals', () => {
    expect(fresh('pm', { lastOkAt: NOW - 3 * MIN - 1000, slackMs: 2000 }).state).toBe('fresh');
  });

  it('is stale after three failures in a row however recent the last success, naming the error', () => {
    const f = fresh('sm', { failuresInRow: 3, lastError: 'saquery: timed out' });
    expect(f).toMatchObject({ state: 'stale', reason: 'failed 3 times in a row: saquery: timed out' });
    expect(fresh('sm', { failuresInRow: 2 }).state).toBe('fresh');
  });

  it('is pending before a first success while the collector is young, stale once it is not', () => {
    expect(fresh('ibdiagnet', { lastOkAt: null, upSince: NOW - 10 * MIN, intervalMs: 60 * MIN }).state).toBe('pending');
    expect(fresh('pm', { lastOkAt: null, upSince: NOW - 4 * MIN, firstAttemptAt: NOW - 4 * MIN })).toMatchObject({
      state: 'stale',
      reason: 'no successful scan yet',
    });
    // Nothing known about the collector (the CLI) and never attempted: no data is stale.
    expect(fresh('pm', { lastOkAt: null, upSince: null, firstAttemptAt: null }).state).toBe('stale');
  });
});

describe('brokenNow()', () => {
  const input = (findings: StatusFinding[], extra: Partial<Parameters<typeof brokenNow>[0]> = {}) =>
    brokenNow({ findings, linkOf, end, freshness: [], sm: smOk, now: NOW, ...extra });

  it('merges both ends and the link into one row per cable, worst severity and every reason', () => {
    const rows = input([
      finding({ kind: 'symbol-errors', subject: swPort, severity: 'minor', short: 'symbol errors 1e-13 BER' }),
      finding({
        kind: 'link-downed',
        subject: hcaPort,
        severity: 'major',
        short: 'link went down 1x',
        firstSeen: NOW - 60 * MIN,
      }),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'cable',
      severity: 'major',
      title: 'leaf-01 port 1 ↔ dgx-001 mlx5_0 port 1',
      reasons: ['link went down 1x', 'symbol errors 1e-13 BER'],
      since: NOW - 60 * MIN,
      worklistKey: rows[0]!.key,
    });
  });

  it('names the switch end first when the node types are known, whichever end the link lists first', () => {
    const [row] = input([finding({ kind: 'link-down', subject: hcaPort })], {
      linkOf: () => ({ a: { nodeGuid: HCA, portNum: 1 }, b: { nodeGuid: SW, portNum: 1 } }),
      endFacts: (p) => ({ type: p.nodeGuid === HCA ? 'ca' : 'switch' }),
    });
    expect(row!.title).toBe('leaf-01 port 1 ↔ dgx-001 mlx5_0 port 1');
  });

  it('leaves out cleared findings and info findings: a repaired link is not broken', () => {
    expect(
      input([
        finding({ kind: 'link-degraded-width', subject: uplink, clearedAt: NOW - MIN }),
        finding({ kind: 'symbol-errors', subject: swPort, severity: 'info' }),
      ]),
    ).toEqual([]);
  });

  it('keeps a finding marked fixed while the latest scan still observed it', () => {
    const rows = input([finding({ kind: 'link-degraded-width', subject: uplink, state: 'resolved', resolvedAt: NOW })]);
    expect(rows.map((r) => r.key)).toHaveLength(1);
  });

  it('has no worklist link for a cable whose only problem the worklist does not list (congestion)', () => {
    const [row] = input([finding({ kind: 'congestion', subject: swPort, severity: 'minor' })]);
    expect(row).toMatchObject({ kind: 'cable', worklistKey: null });
  });

  it('lists SM findings and stale scans, worst first, SM before scans before cables at one severity', () => {
    const rows = input(
      [
        finding({ kind: 'link-down', subject: uplink, firstSeen: NOW - MIN }),
        finding({ kind: 'sm-standby-lost', subject: { kind: 'sm', guid: SPINE }, short: 'SM stopped answering' }),
        finding({ kind: 'sm-no-master', subject: { kind: 'sm' }, severity: 'critical', short: 'no master SM' }),
      ],
      { freshness: [fresh('pm', { lastOkAt: NOW - 10 * MIN })] },
    );
    expect(rows.map((r) => [r.kind, r.severity, r.title])).toEqual([
      ['sm', 'critical', 'no master SM'],
      ['sm', 'major', 'SM stopped answering'],
      ['scan', 'major', 'pm scans stale'],
      ['cable', 'major', 'leaf-01 port 33 ↔ spine-01 port 5'],
    ]);
  });

  it('reports an SM status that is not ok when no SM finding says why (any status value)', () => {
    const rows = input([], { sm: { ...smOk, status: 'no-standby' } });
    expect(rows).toEqual([expect.objectContaining({ kind: 'sm', severity: 'major', title: 'SM status no-standby' })]);
    expect(input([], { sm: { ...smOk, status: 'split-brain' } })[0]!.severity).toBe('critical');
    expect(input([], { sm: { ...smOk, status: 'rogue' } })[0]!.severity).toBe('critical');
    expect(input([], { sm: { ...smOk, status: 'unknown' } })).toEqual([]);
  });
});

describe('recentlyFixed()', () => {
  it('lists cables whose every finding cleared in the window, newest first, with their state', () => {
    const rows = recentlyFixed({
      findings: [
        finding({ kind: 'link-degraded-width', subject: uplink, short: 'width 4X->2X', clearedAt: NOW - 5 * MIN }),
        finding({
          kind: 'symbol-errors',
          subject: hcaPort,
          clearedAt: NOW - 30 * MIN,
          state: 'resolved',
          resolvedAt: NOW - 2 * MIN,
        }),
        finding({
          kind: 'sm-not-seen',
          subject: { kind: 'sm', guid: SPINE },
          short: 'SM not seen',
          clearedAt: NOW - MIN,
        }),
      ],
      linkOf,
      end,
      now: NOW,
    });
    expect(rows.map((r) => [r.kind, r.title, r.state, r.clearedAt])).toEqual([
      ['sm', 'SM not seen', 'open', NOW - MIN],
      ['cable', 'leaf-01 port 33 ↔ spine-01 port 5', 'open', NOW - 5 * MIN],
      ['cable', 'leaf-01 port 1 ↔ dgx-001 mlx5_0 port 1', 'resolved', NOW - 30 * MIN],
    ]);
    expect(rows[1]!.reasons).toEqual(['width 4X->2X']);
    expect(rows[0]!.reasons).toEqual(['sm-not-seen']);
  });

  it('leaves out cables still broken on another finding, fixes older than the window, and info-only cables', () => {
    const rows = recentlyFixed({
      findings: [
        finding({ kind: 'link-degraded-width', subject: uplink, clearedAt: NOW - 5 * MIN }),
        finding({ kind: 'symbol-errors', subject: { kind: 'port', port: links[0]!.a } }),
        finding({ kind: 'symbol-errors', subject: hcaPort, clearedAt: NOW - 25 * 60 * MIN }),
        finding({ kind: 'symbol-errors', subject: swPort, severity: 'info', clearedAt: NOW - MIN }),
      ],
      linkOf,
      end,
      now: NOW,
    });
    expect(rows).toEqual([]);
  });

  it('calls nothing fixed when counts with no rate end (rates took over, or counters cleared)', () => {
    const rows = recentlyFixed({
      findings: [
        finding({ kind: 'errors-since-clear', subject: hcaPort, severity: 'minor', clearedAt: NOW - MIN }),
        finding({ kind: 'counter-saturated:SymbolErrorCounter', subject: swPort, clearedAt: NOW - MIN }),
        finding({ kind: 'symbol-errors', subject: uplink, clearedAt: NOW - MIN }),
      ],
      linkOf,
      end,
      now: NOW,
    });
    // Only the rated finding's cable (the uplink) was observed to stop erring.
    expect(rows.map((r) => r.title)).toEqual(['leaf-01 port 33 ↔ spine-01 port 5']);
  });
});

describe('events in the status lists', () => {
  const H = 60 * MIN;
  // A link that flapped 3 times: the sweep that saw the third flap judged it (lastSeen), and the
  // following sweeps saw no new down: the finding is still current (its window holds).
  const flap = (over: Partial<StatusFinding> = {}) =>
    finding({
      kind: 'link-flapping',
      subject: uplink,
      short: 'link flapped 3 times in 24 h',
      lastSeen: NOW - H,
      ...over,
    });
  const lists = (findings: StatusFinding[]) => ({
    broken: brokenNow({ findings, linkOf, end, freshness: [], sm: smOk, now: NOW }),
    fixed: recentlyFixed({ findings, linkOf, end, now: NOW }),
    events: recentEvents({ findings, linkOf, end, now: NOW }),
  });

  it('keeps a flap in its window in Broken now, and out of Recently fixed and Recent events', () => {
    // The sweep's single link-downed on an end already ended: the cable is one broken row, not an event too.
    const downed = finding({ kind: 'link-downed', subject: { kind: 'port', port: links[0]!.a }, clearedAt: NOW - H });
    const { broken, fixed, events } = lists([flap(), downed]);
    expect(broken.map((r) => [r.title, r.severity, r.reasons])).toEqual([
      ['leaf-01 port 33 ↔ spine-01 port 5', 'major', ['link flapped 3 times in 24 h']],
    ]);
    expect(fixed).toEqual([]);
    expect(events).toEqual([]);
  });

  it('moves a flap whose window ended to Recent events, never to Recently fixed', () => {
    const { broken, fixed, events } = lists([flap({ lastSeen: NOW - 25 * H, clearedAt: NOW - H })]);
    expect(broken).toEqual([]);
    expect(fixed).toEqual([]);
    expect(events.map((r) => [r.kind, r.title, r.how, r.at, r.endedAt, r.severity])).toEqual([
      ['cable', 'leaf-01 port 33 ↔ spine-01 port 5', 'window-ended', NOW - 25 * H, NOW - H, 'major'],
    ]);
  });

  it('takes an event acknowledged after it happened out of Broken now, but not one that happened again since', () => {
    const acked = lists([flap({ state: 'acknowledged', acknowledgedAt: NOW - 30 * MIN })]);
    expect(acked.broken).toEqual([]);
    expect(acked.events.map((r) => [r.how, r.endedAt])).toEqual([['acknowledged', NOW - 30 * MIN]]);
    const again = lists([flap({ state: 'acknowledged', acknowledgedAt: NOW - 2 * H })]);
    expect(again.broken.map((r) => r.acknowledged)).toEqual([false]);
    expect(again.events).toEqual([]);
  });

  it('says an event marked fixed was marked fixed, not repaired', () => {
    const { broken, fixed, events } = lists([flap({ state: 'resolved', resolvedAt: NOW - MIN, clearedAt: NOW - MIN })]);
    expect(broken).toEqual([]);
    expect(fixed).toEqual([]);
    expect(events.map((r) => r.how)).toEqual(['marked-fixed']);
  });

  it('keeps an ended failover in Recent events while the dead old master stays broken; fixes only repairs', () => {
    const { broken, fixed, events } = lists([
      finding({ kind: 'sm-failover', subject: { kind: 'sm', guid: HCA }, short: 'SM failover', clearedAt: NOW - MIN }),
      finding({ kind: 'sm-not-seen', subject: { kind: 'sm', guid: SPINE }, short: 'SM not seen' }),
      finding({ kind: 'sm-no-standby', subject: { kind: 'sm' }, short: 'no standby SM', clearedAt: NOW - 2 * MIN }),
    ]);
    expect(broken.map((r) => r.title)).toEqual(['SM not seen']);
    expect(events.map((r) => [r.kind, r.title])).toEqual([['sm', 'SM failover']]);
    expect(fixed.map((r) => r.title)).toEqual(['no standby SM']);
  });

  it('does not call a cable fixed when only an event on it ended and a condition was never seen to go', () => {
    const { fixed } = lists([
      finding({ kind: 'link-downed', subject: swPort, clearedAt: NOW - MIN }),
      finding({ kind: 'symbol-errors', subject: hcaPort, clearedAt: NOW - 2 * MIN }),
    ]);
    // Same cable (leaf-01 port 1 ↔ dgx-001): the symbol errors were seen to stop, that is the fix.
    expect(fixed.map((r) => [r.title, r.clearedAt, r.reasons])).toEqual([
      ['leaf-01 port 1 ↔ dgx-001 mlx5_0 port 1', NOW - 2 * MIN, ['symbol-errors']],
    ]);
  });
});

describe('fabricStatusOf()', () => {
  const row = (kind: 'cable' | 'sm' | 'scan', severity: 'critical' | 'major' | 'minor') => brokenRow(kind, severity);
  it('is OK with nothing broken, DEGRADED with any problem, STALE over DEGRADED, CRITICAL over all', () => {
    expect(fabricStatusOf([], { hasFabricData: true })).toEqual({ word: 'OK', reasons: [] });
    expect(fabricStatusOf([row('cable', 'minor')], { hasFabricData: true })).toEqual({
      word: 'DEGRADED',
      reasons: ['1 cable with a problem now'],
    });
    expect(fabricStatusOf([row('cable', 'major'), row('scan', 'major')], { hasFabricData: true }).word).toBe('STALE');
    expect(fabricStatusOf([row('scan', 'major'), row('sm', 'critical')], { hasFabricData: true }).word).toBe(
      'CRITICAL',
    );
  });

  it('is STALE without any fabric data, whatever else', () => {
    expect(fabricStatusOf([], { hasFabricData: false })).toMatchObject({ word: 'STALE' });
  });

  it('maps to Nagios-style exit codes', () => {
    expect(STATUS_EXIT_CODE).toEqual({ OK: 0, DEGRADED: 1, CRITICAL: 2, STALE: 3 });
  });
});

describe('formatAge()', () => {
  it('says seconds, minutes, hours or days', () => {
    expect([formatAge(45_000), formatAge(4 * MIN), formatAge(3 * 60 * MIN), formatAge(72 * 60 * MIN)]).toEqual([
      '45 s',
      '4 min',
      '3 h',
      '3 d',
    ]);
  });
});

function brokenRow(kind: 'cable' | 'sm' | 'scan', severity: 'critical' | 'major' | 'minor') {
  return {
    kind,
    key: `${kind}-${severity}`,
    severity,
    title: kind,
    reasons: ['why'],
    since: NOW,
    acknowledged: false,
    ends: [],
    worklistKey: null,
    findingIds: [],
  };
}
