import { describe, expect, it } from 'vitest';
import type { WorklistEntry } from '@ibwatch/fabric';
import {
  describeFilters,
  hostList,
  impactSummary,
  parseWorklistFilters,
  racksOf,
  worklistApiPath,
  worklistCsvHref,
  worklistQuery,
} from './worklist.ts';

describe('worklist filters', () => {
  it('parse from the URL, dropping unknown severities and blanks', () => {
    expect(parseWorklistFilters({ switch: 'leaf-r3-07', rack: ' ', severity: 'urgent' })).toEqual({
      switch: 'leaf-r3-07',
    });
    expect(parseWorklistFilters({ severity: 'critical', rack: 'R03' })).toEqual({ severity: 'critical', rack: 'R03' });
    expect(parseWorklistFilters({ sort: 'rack' })).toEqual({ sort: 'rack' });
    expect(parseWorklistFilters({ sort: 'impact' })).toEqual({ sort: 'impact' });
    expect(parseWorklistFilters({ sort: 'random' })).toEqual({});
  });
  it('serialise to a stable query string for the API and the CSV link', () => {
    const f = { switch: 'leaf r3', rack: 'R03', severity: 'major' as const };
    expect(worklistQuery(f)).toBe('?rack=R03&severity=major&switch=leaf+r3');
    expect(worklistApiPath({})).toBe('/api/worklist');
    expect(worklistCsvHref(f)).toBe('/api/worklist.csv?rack=R03&severity=major&switch=leaf+r3');
    // The CSV comes in the order on screen: the walking order when chosen.
    expect(worklistCsvHref({ ...f, sort: 'rack' })).toBe(
      '/api/worklist.csv?rack=R03&severity=major&sort=rack&switch=leaf+r3',
    );
  });
  it('describe filters for the printed header', () => {
    expect(describeFilters({})).toBe('all links');
    expect(describeFilters({ rack: 'R03', severity: 'critical' })).toBe('rack R03, severity critical');
    expect(describeFilters({ sort: 'rack' })).toBe('all links, in rack order');
    expect(describeFilters({ sort: 'impact' })).toBe('all links, by impact (jobs, GPUs)');
  });
  it('lists both racks once', () => {
    const e = { a: { rack: 'R03' }, b: { rack: 'R03' } } as unknown as WorklistEntry;
    expect(racksOf(e)).toBe('R03');
    expect(racksOf({ a: { rack: 'R03' }, b: { rack: 'R09' } } as unknown as WorklistEntry)).toBe('R03 ↔ R09');
    expect(racksOf({ a: { rack: null }, b: null } as unknown as WorklistEntry)).toBe('—');
    expect(racksOf({ a: { rack: 'N01', u: 7 }, b: { rack: 'R01', u: null } } as unknown as WorklistEntry)).toBe(
      'N01 U7 ↔ R01',
    );
  });
});

describe('impact summary', () => {
  const base = { hosts: [], gpus: 0, rails: [], uplink: null, pods: [], jobs: [], drain: [], jobsAt: null };
  it('an HCA link: host, rail, GPUs', () => {
    expect(impactSummary({ ...base, kind: 'hca-link', hosts: ['dgx-0003'], rails: [2], gpus: 1 })).toBe(
      'dgx-0003, rail 2 · 1 GPU',
    );
  });
  it('a leaf uplink: hosts under the leaf, rail, GPUs, the uplink share lost', () => {
    const uplink = {
      switch: 'leaf-r2-01',
      uplinks: 32,
      totalGbps: 6400,
      lostGbps: 100,
      share: 100 / 6400,
      switchShare: 0,
    };
    expect(impactSummary({ ...base, kind: 'leaf-uplink', hosts: ['a', 'b'], rails: [2], gpus: 2, uplink })).toBe(
      '2 hosts under leaf-r2-01 · rail 2 · 2 GPUs · uplinks −1.6 % (100 of 6400 Gb/s)',
    );
  });
  it('a spine–core link names how many pods it joins; an empty radius says so', () => {
    expect(impactSummary({ ...base, kind: 'spine-core', pods: ['p1', 'p2', 'p3'] })).toBe('joins 3 pods');
    expect(impactSummary({ ...base, kind: 'unknown' })).toBe('no hosts behind it');
  });
  it('shortens long host lists', () => {
    expect(hostList(['a', 'b'])).toBe('a, b');
    expect(hostList(['a', 'b', 'c', 'd', 'e', 'f'])).toBe('a, b, c, d +2 more');
  });
});
