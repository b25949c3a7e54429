import { describe, expect, it } from 'vitest';
import { enumParam, href, intParam, matchRoute, parseQuery, patchQuery, portHref, serializeQuery } from './router.ts';

describe('matchRoute()', () => {
  it.each([
    ['/', { name: 'overview' }],
    ['/topology', { name: 'topology' }],
    ['/topology/', { name: 'topology' }],
    ['/ports', { name: 'ports' }],
    ['/ports/0x0002c90300a1b2c3/17', { name: 'port', guid: '0x0002c90300a1b2c3', port: 17 }],
    ['/worklist', { name: 'worklist' }],
    ['/sm', { name: 'sm' }],
    ['/bandwidth', { name: 'bandwidth' }],
    ['/bandwidth/runs/42', { name: 'run', id: 42 }],
    ['/scans', { name: 'scans' }],
    ['/findings', { name: 'findings' }],
    ['/firmware', { name: 'firmware' }],
    ['/fleet', { name: 'fleet' }],
    ['/traffic', { name: 'traffic' }],
  ])('maps %s', (path, want) => {
    expect(matchRoute(path)).toEqual(want);
  });

  it('returns not-found for unknown paths and non-numeric ids', () => {
    expect(matchRoute('/nope').name).toBe('not-found');
    expect(matchRoute('/ports/0xabc/x').name).toBe('not-found');
    expect(matchRoute('/bandwidth/runs/abc').name).toBe('not-found');
  });

  it('decodes path segments and survives broken escapes', () => {
    expect(matchRoute('/ports/0x%41/1')).toEqual({ name: 'port', guid: '0xA', port: 1 });
    expect(matchRoute('/ports/%E0%A4%A/1')).toEqual({ name: 'port', guid: '%E0%A4%A', port: 1 });
  });
});

describe('query state', () => {
  it('round-trips through serialise and parse with sorted keys', () => {
    const s = serializeQuery({ state: 'Down', q: 'leaf r3', limit: 50, offset: 0, empty: '', none: undefined });
    expect(s).toBe('?limit=50&offset=0&q=leaf+r3&state=Down');
    expect(parseQuery(s)).toEqual({ limit: '50', offset: '0', q: 'leaf r3', state: 'Down' });
  });

  it('serialises true as 1 and drops false', () => {
    expect(serializeQuery({ kiosk: true, print: false })).toBe('?kiosk=1');
    expect(serializeQuery({})).toBe('');
  });

  it('patchQuery removes keys set to null or empty', () => {
    expect(patchQuery({ a: '1', b: '2' }, { a: null, b: '', c: 3 })).toEqual({ c: '3' });
  });

  it('href and portHref build links', () => {
    expect(href('/worklist', { rack: 'R03', severity: 'critical' })).toBe('/worklist?rack=R03&severity=critical');
    expect(portHref('0x0002c90300a1b2c3', 5, { range: '7d' })).toBe('/ports/0x0002c90300a1b2c3/5?range=7d');
  });

  it('intParam and enumParam fall back on garbage', () => {
    expect(intParam({ limit: 'abc' }, 'limit', 50)).toBe(50);
    expect(intParam({ limit: '-3' }, 'limit', 50, 1, 500)).toBe(1);
    expect(intParam({ limit: '9999' }, 'limit', 50, 1, 500)).toBe(500);
    expect(intParam({}, 'offset', 0)).toBe(0);
    expect(enumParam({ range: '7d' }, 'range', ['1h', '24h', '7d', '30d'] as const, '24h')).toBe('7d');
    expect(enumParam({ range: '2y' }, 'range', ['1h', '24h', '7d', '30d'] as const, '24h')).toBe('24h');
  });
});
