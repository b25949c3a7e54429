import { describe, expect, it } from 'vitest';
import { sampleSummary, type FleetReply, type ScanFreshness } from '@ibwatch/fabric';
import {
  countsLine,
  dashboardHref,
  FLEET_LOOK,
  fleetScreen,
  freshnessLine,
  NO_SIGNAL,
  onFabric,
  tileRowHref,
  wordCounts,
} from './fleet.ts';

const NOW = Date.UTC(2026, 11, 1, 12, 0);
const peer = { url: 'http://ib-2:8080' };
const self = { url: null };

describe('links of a tile', () => {
  it("go to this dashboard for this collector's fabric and to the peer's for the others", () => {
    expect(dashboardHref(self)).toBe('/');
    expect(dashboardHref(peer)).toBe('http://ib-2:8080/');
    expect(dashboardHref(peer, true)).toBe('http://ib-2:8080/?kiosk=1');
    expect(onFabric(peer, '/worklist')).toBe('http://ib-2:8080/worklist');
  });

  it('send a broken cable to its worklist entry on its own fabric', () => {
    const row = sampleSummary('DEGRADED', 1, NOW).brokenNow[0]!;
    expect(tileRowHref(peer, row)).toBe('http://ib-2:8080/worklist?focus=link-1');
    expect(tileRowHref(self, { ...row, kind: 'sm' })).toBe('/sm');
  });
});

describe('FLEET_LOOK', () => {
  it('never draws a fabric that cannot be read in a colour of health', () => {
    for (const w of ['UNREACHABLE', 'ERROR', 'STALE'] as const) {
      expect(NO_SIGNAL.has(w)).toBe(true);
      expect(FLEET_LOOK[w].tone).toBe('muted');
      expect(FLEET_LOOK[w].label).toBe(w);
    }
    expect(FLEET_LOOK.OK.tone).toBe('ok');
    expect(NO_SIGNAL.has('CRITICAL')).toBe(false);
  });
});

describe('wordCounts()', () => {
  it('counts the fabrics by word, worst first', () => {
    expect(wordCounts([{ word: 'OK' }, { word: 'UNREACHABLE' }, { word: 'OK' }, { word: 'DEGRADED' }])).toBe(
      '4 fabrics: 1 UNREACHABLE, 1 DEGRADED, 2 OK',
    );
    expect(wordCounts([{ word: 'OK' }])).toBe('1 fabric: 1 OK');
  });
});

describe('countsLine()', () => {
  it('says the size and the unhealthy links', () => {
    expect(countsLine({ switches: 929, hcas: 10_002, links: 31_538, degradedLinks: 2, downLinks: 1 })).toBe(
      '929 switches · 10,002 HCAs · 31,538 links (2 degraded, 1 down)',
    );
  });
});

describe('freshnessLine()', () => {
  const f = (kind: ScanFreshness['kind'], state: ScanFreshness['state']): ScanFreshness => ({
    kind,
    state,
    intervalMs: 60_000,
    lastOkAt: null,
    failuresInRow: 0,
    lastError: null,
    reason: '',
  });
  it('names the stale kinds first, then the pending ones, else says all are fresh', () => {
    expect(freshnessLine([f('topology', 'fresh'), f('pm', 'stale'), f('sm', 'pending')])).toEqual({
      state: 'stale',
      text: 'pm scans stale',
    });
    expect(freshnessLine([f('topology', 'fresh'), f('sm', 'pending')]).text).toBe('waiting for the first sm scan');
    expect(freshnessLine([f('topology', 'fresh'), f('pm', 'fresh')])).toEqual({
      state: 'fresh',
      text: 'topology, pm scans fresh',
    });
    expect(freshnessLine([]).text).toBe('no scheduled scans (imports only)');
  });
  it('says nothing is fresh in what is only as of an old answer', () => {
    expect(freshnessLine([f('topology', 'fresh'), f('pm', 'fresh')], true)).toEqual({
      state: 'unknown',
      text: 'unknown now: no answer since the time above',
    });
    expect(freshnessLine([f('pm', 'stale')], true).state).toBe('stale');
  });
});

describe('fleetScreen()', () => {
  const reply: FleetReply = { generatedAt: NOW, word: 'OK', reasons: [], fabrics: [] };
  it("shows the fleet's word while polls answer", () => {
    expect(fleetScreen(reply, { error: undefined, updatedAt: NOW })).toEqual({ word: 'OK', unreachableSince: null });
  });
  it('says STALE, and since when, from the first failed poll', () => {
    expect(fleetScreen(reply, { error: new Error('x'), updatedAt: NOW })).toEqual({
      word: 'STALE',
      unreachableSince: NOW,
    });
  });
});
