import { describe, expect, it } from 'vitest';
import type { CounterPoint } from '@ibwatch/fabric';
import {
  counterSeries,
  nextSort,
  pageInfo,
  parsePortsQuery,
  portStateText,
  portsApiPath,
  rateCheck,
  sortDirection,
  stateMarkers,
} from './ports.ts';

const pt = (at: number, counter: string, rate: number): CounterPoint => ({ at, counter, rate, delta: rate * 60 });

describe('ports list state', () => {
  it('parses the URL with defaults and clamps garbage', () => {
    expect(parsePortsQuery({})).toEqual({ q: '', state: '', sort: '', limit: 50, offset: 0 });
    expect(parsePortsQuery({ limit: '100000', offset: '-5', q: 'leaf' })).toMatchObject({
      limit: 500,
      offset: 0,
      q: 'leaf',
    });
  });
  it('builds the API path and the next sort', () => {
    expect(portsApiPath({ q: 'dgx', state: 'Down', sort: '-name', limit: 50, offset: 100 })).toBe(
      '/api/ports?limit=50&offset=100&q=dgx&sort=-name&state=Down',
    );
    expect(nextSort('', 'name')).toBe('name');
    expect(nextSort('name', 'name')).toBe('-name');
    expect(nextSort('-name', 'name')).toBe('name');
  });
  it('sorts open findings and last seen descending on the first click, and says so', () => {
    expect(nextSort('name', 'findings')).toBe('-findings');
    expect(nextSort('-findings', 'findings')).toBe('findings');
    expect(nextSort('findings', 'findings')).toBe('-findings');
    expect(nextSort('', 'lastSeen')).toBe('-lastSeen');
    // The header's arrow and aria-sort follow the request the API gets (▼ = most first).
    expect(sortDirection('-findings', 'findings')).toBe('descending');
    expect(sortDirection('findings', 'findings')).toBe('ascending');
    expect(sortDirection('-findings', 'name')).toBe('none');
  });
  it('words a never-cabled port Unused, not Down', () => {
    expect(portStateText({ state: 'Down', unused: true })).toBe('○ Unused');
    expect(portStateText({ state: 'Down', unused: false })).toBe('✖ Down');
    expect(portStateText({ state: 'Active' })).toBe('● Active');
    expect(portStateText({ state: 'Initialize' })).toBe('◆ Initialize');
    expect(portStateText({ state: null })).toBe('—');
  });
  it('computes pages', () => {
    expect(pageInfo(120, 50, 0, 50)).toEqual({ from: 1, to: 50, total: 120, prevOffset: null, nextOffset: 50 });
    expect(pageInfo(120, 50, 100, 20)).toEqual({ from: 101, to: 120, total: 120, prevOffset: 50, nextOffset: null });
    expect(pageInfo(0, 50, 0, 0).from).toBe(0);
  });
});

describe('counterSeries()', () => {
  it('groups rates per counter, per hour, sorted by time, over-threshold first, flat counters apart', () => {
    const { series, flat } = counterSeries(
      [
        pt(2, 'SymbolErrorCounter', 3),
        pt(1, 'SymbolErrorCounter', 0.5),
        pt(1, 'PortRcvErrors', 0.1),
        pt(1, 'VL15Dropped', 0),
        pt(1, 'LinkDownedCounter', 0),
      ],
      { SymbolErrorCounter: 1, LinkDownedCounter: 0.001 },
    );
    expect(series.map((s) => s.counter)).toEqual(['SymbolErrorCounter', 'LinkDownedCounter', 'PortRcvErrors']);
    // The API's rates are per second; the charts (like the worklist) speak per hour.
    expect(series[0]).toMatchObject({
      threshold: 3600,
      max: 10800,
      overThreshold: true,
      rows: [
        { at: 1, rate: 1800 },
        { at: 2, rate: 10800 },
      ],
    });
    expect(series[1].overThreshold).toBe(false);
    expect(flat).toEqual(['VL15Dropped']);
  });
});

describe('stateMarkers()', () => {
  it('marks downs and ups in time order and counts flaps', () => {
    const { markers, flaps } = stateMarkers([
      { at: 3, state: 'Active', physState: 'LinkUp', widthActive: '1X', speedActive: 'NDR' },
      { at: 1, state: 'Down', physState: 'Polling', widthActive: null, speedActive: null },
      { at: 5, state: 'Down', physState: 'Disabled', widthActive: null, speedActive: null },
    ]);
    expect(markers.map((m) => m.kind)).toEqual(['down', 'up', 'down']);
    expect(markers[1].label).toBe('● Active/LinkUp 1X NDR');
    expect(flaps).toBe(2);
  });
});

describe('rateCheck()', () => {
  it('flags width and speed below the expected rate', () => {
    expect(rateCheck('1X', 'NDR', { width: '4X', speed: 'NDR' })).toEqual({
      widthDegraded: true,
      speedDegraded: false,
      text: 'width 1X instead of 4X',
    });
    expect(rateCheck('4X', 'HDR', { width: '4X', speed: 'NDR' }).text).toBe('speed HDR instead of NDR');
    expect(rateCheck('4X', 'NDR', { width: '4X', speed: 'NDR' }).text).toBeNull();
    expect(rateCheck(null, null, { width: '4X', speed: 'NDR' }).text).toBeNull();
  });
});
