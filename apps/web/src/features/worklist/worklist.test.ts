import { describe, expect, it } from 'vitest';
import type { WorklistEntry } from '@ibwatch/fabric';
import {
  describeFilters,
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
