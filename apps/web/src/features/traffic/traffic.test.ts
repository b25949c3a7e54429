import { describe, expect, it } from 'vitest';
import type { HotLink } from '@ibwatch/fabric';
import { formatBitRate, formatTicks, hotRows, tierPath } from './traffic.ts';

const link = (name: string, port: number, tx: number, wait: number, max = tx): HotLink => ({
  guid: `0x${name}`,
  port,
  name,
  tier: 'leaf',
  remote: { guid: '0x9', port: 1, name: 'spine', tier: 'spine' },
  uplink: true,
  rate: '4X NDR',
  linkGbps: 400,
  txAvgPct: tx,
  txMaxPct: max,
  rxAvgPct: 0,
  rxMaxPct: 0,
  waitAvgTps: wait,
  waitMaxTps: wait,
});

describe('traffic units', () => {
  it('quotes bytes/s in bits like link rates, and XmitWait compactly', () => {
    expect(formatBitRate(25e9)).toBe('200 Gb/s');
    expect(formatBitRate(125_000)).toBe('1 Mb/s');
    expect(formatTicks(2_500_000)).toBe('2.5M/s');
    expect(formatTicks(12)).toBe('12/s');
  });
});

describe('hotRows', () => {
  const a = link('a', 1, 50, 0);
  const b = link('b', 2, 5, 9e6, 90);
  it('merges both lists once and sorts by utilisation, peak or XmitWait', () => {
    expect(hotRows([a, b], [b], 'util').map((l) => l.name)).toEqual(['a', 'b']);
    expect(hotRows([a, b], [b], 'peak').map((l) => l.name)).toEqual(['b', 'a']);
    expect(hotRows([a], [b], 'wait').map((l) => l.name)).toEqual(['b', 'a']);
    expect(hotRows([b, a], [], 'name').map((l) => l.name)).toEqual(['a', 'b']);
  });
  it('shows the tier of both ends', () => {
    expect(tierPath(a)).toBe('leaf → spine');
  });
});
