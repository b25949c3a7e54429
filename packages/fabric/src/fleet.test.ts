import { describe, expect, it } from 'vitest';
import type { FabricStatusWord, FleetFabric, FleetStatusWord } from './api.ts';
import { sampleSummary } from './summary-sample.ts';
import {
  EMPTY_MEMORY,
  fleetFabricOf,
  fleetReplyOf,
  fleetSummaryOf,
  versionCompatible,
  worstFleetWord,
  type FleetReading,
} from './fleet.ts';

const NOW = Date.UTC(2026, 11, 1, 12, 0);
const MIN = 60_000;

const summary = (word: FabricStatusWord, broken = 0) => sampleSummary(word, broken, NOW);

const ok = (word: FabricStatusWord, broken = 0): FleetReading => ({
  ok: true,
  summary: fleetSummaryOf(summary(word, broken)),
  version: '0.1.0',
});
const peer = { name: 'plane-2', self: false, url: 'http://ib-2:8080' };

describe('worstFleetWord()', () => {
  it.each<[FleetStatusWord[], FleetStatusWord]>([
    [[], 'OK'],
    [['OK', 'OK'], 'OK'],
    [['OK', 'DEGRADED'], 'DEGRADED'],
    [['DEGRADED', 'STALE'], 'STALE'],
    [['STALE', 'ERROR'], 'ERROR'],
    [['ERROR', 'UNREACHABLE', 'OK'], 'UNREACHABLE'],
    [['UNREACHABLE', 'CRITICAL', 'DEGRADED'], 'CRITICAL'],
  ])('of %j is %s', (words, worst) => {
    expect(worstFleetWord(words)).toBe(worst);
  });
});

describe('fleetSummaryOf()', () => {
  it('keeps the first five broken-now rows and counts them all', () => {
    const s = fleetSummaryOf(summary('DEGRADED', 8));
    expect(s.brokenNow.map((r) => r.key)).toEqual(['link-1', 'link-2', 'link-3', 'link-4', 'link-5']);
    expect(s.brokenNowTotal).toBe(8);
    expect(s).toMatchObject({ switches: 17, hcas: 34, links: 322, degradedLinks: 8, downLinks: 0 });
    expect(s.freshness).toHaveLength(1);
    expect(s).not.toHaveProperty('lastScans');
    expect(s).not.toHaveProperty('ncclTrend');
  });
});

describe('fleetFabricOf()', () => {
  it('shows what the collector said when it answered, and remembers it', () => {
    const { fabric, memory } = fleetFabricOf(peer, ok('DEGRADED', 1), EMPTY_MEMORY, NOW);
    expect(fabric).toMatchObject({
      name: 'plane-2',
      word: 'DEGRADED',
      reasons: ['1 cables with a problem now'],
      lastOkAt: NOW,
      checkedAt: NOW,
      version: '0.1.0',
      stale: false,
    });
    expect(fabric.summary?.brokenNow[0]?.title).toBe('leaf-r1-01 port 33 ↔ spine-01 port 1');
    expect(memory).toEqual({ lastGood: fabric.summary, lastOkAt: NOW, version: '0.1.0' });
  });

  it('never shows a fabric that stopped answering as green: UNREACHABLE with its last summary, stale', () => {
    const before = fleetFabricOf(peer, ok('OK'), EMPTY_MEMORY, NOW - 3 * MIN).memory;
    const { fabric, memory } = fleetFabricOf(
      peer,
      { ok: false, word: 'UNREACHABLE', problem: 'connection refused' },
      before,
      NOW,
    );
    expect(fabric).toMatchObject({
      word: 'UNREACHABLE',
      reasons: ['connection refused', 'last answer 3 min ago, when it said OK'],
      lastOkAt: NOW - 3 * MIN,
      checkedAt: NOW,
      stale: true,
    });
    expect(fabric.summary?.fabricStatus.word).toBe('OK');
    expect(memory).toBe(before);
  });

  it('says when a fabric never answered', () => {
    const { fabric } = fleetFabricOf(
      peer,
      { ok: false, word: 'ERROR', problem: 'HTTP 401: missing or wrong bearer token' },
      EMPTY_MEMORY,
      NOW,
    );
    expect(fabric).toMatchObject({
      word: 'ERROR',
      reasons: ['HTTP 401: missing or wrong bearer token', 'no answer since this collector started'],
      lastOkAt: null,
      summary: null,
      stale: true,
    });
  });
});

describe('fleetReplyOf()', () => {
  const tile = (name: string, word: FleetStatusWord, reasons: string[] = []): FleetFabric => ({
    name,
    self: false,
    url: null,
    word,
    reasons,
    lastOkAt: null,
    checkedAt: NOW,
    version: null,
    summary: null,
    stale: false,
  });

  it('sorts tiles by name with numbers in order, and says the worst word', () => {
    const r = fleetReplyOf(
      [tile('plane-10', 'OK'), tile('plane-2', 'DEGRADED', ['1 cable']), tile('plane-1', 'OK')],
      NOW,
    );
    expect(r.fabrics.map((f) => f.name)).toEqual(['plane-1', 'plane-2', 'plane-10']);
    expect(r.word).toBe('DEGRADED');
    expect(r.generatedAt).toBe(NOW);
  });

  it('gives one reason per fabric that is not OK, worst first', () => {
    const r = fleetReplyOf(
      [
        tile('a', 'DEGRADED', ['1 cable with a problem now']),
        tile('b', 'OK'),
        tile('c', 'UNREACHABLE', ['connection refused', 'no answer since this collector started']),
        tile('d', 'STALE'),
      ],
      NOW,
    );
    expect(r.word).toBe('UNREACHABLE');
    expect(r.reasons).toEqual([
      'c: UNREACHABLE - connection refused',
      'd: STALE',
      'a: DEGRADED - 1 cable with a problem now',
    ]);
  });

  it('is OK with no reasons when every fabric is', () => {
    expect(fleetReplyOf([tile('a', 'OK')], NOW)).toMatchObject({ word: 'OK', reasons: [] });
  });
});

describe('versionCompatible()', () => {
  it.each([
    ['0.1.0', '0.1.0', true],
    ['0.1.0', '0.1.7', true],
    ['0.1.0', '0.2.0', false],
    ['1.4.0', '1.9.2', true],
    ['1.4.0', '2.0.0', false],
    ['1.4.0', 'v1.0.0-rc.1', true],
    ['0.1.0', 'banana', false],
    ['0.1.0', '', false],
  ])('%s here and %s there: %s', (ours, theirs, yes) => {
    expect(versionCompatible(ours, theirs)).toBe(yes);
  });
});
