import { describe, expect, it } from 'vitest';
import {
  decodeSpeedActive,
  decodeSpeedSet,
  decodeWidthActive,
  decodeWidthSet,
  laneSpeedFromGbps,
} from './speed-bits.ts';

describe('speed bits', () => {
  it('decodeSpeedActive() lets the extended byte win over a stale classic byte (2052 = 0x804 is NDR)', () => {
    expect(decodeSpeedActive(2052)).toBe('NDR');
    expect(decodeSpeedActive(2048)).toBe('NDR');
    expect(decodeSpeedActive(0x400)).toBe('HDR');
    expect(decodeSpeedActive(0x200)).toBe('EDR');
    expect(decodeSpeedActive(0x100)).toBe('FDR');
    expect(decodeSpeedActive(0x1000)).toBe('XDR');
    expect(decodeSpeedActive(0x10004)).toBe('FDR10');
    expect(decodeSpeedActive(4)).toBe('QDR');
    expect(decodeSpeedActive(1)).toBe('SDR');
    expect(decodeSpeedActive(0)).toBeUndefined();
    expect(decodeSpeedActive(NaN)).toBeUndefined();
  });

  it('decodeSpeedSet() lists every enabled speed of the packed field (3845 = SDR, QDR, FDR..NDR)', () => {
    expect(decodeSpeedSet(3845)).toEqual(['SDR', 'QDR', 'FDR', 'EDR', 'HDR', 'NDR']);
    expect(decodeSpeedSet(0x10007)).toEqual(['SDR', 'DDR', 'QDR', 'FDR10']);
    expect(decodeSpeedSet(0)).toEqual([]);
  });

  it('decodeWidth*() reads PortInfo width bits including 2X = 16', () => {
    expect(decodeWidthActive(2)).toBe('4X');
    expect(decodeWidthActive(16)).toBe('2X');
    expect(decodeWidthActive(8)).toBe('12X');
    expect(decodeWidthActive(0)).toBeUndefined();
    expect(decodeWidthSet(19)).toEqual(['1X', '2X', '4X']);
    expect(decodeWidthSet(3)).toEqual(['1X', '4X']);
  });

  it('laneSpeedFromGbps() maps net_dump LSA values, FDR10 of old files included', () => {
    expect(laneSpeedFromGbps('100')).toBe('NDR');
    expect(laneSpeedFromGbps('50')).toBe('HDR');
    expect(laneSpeedFromGbps('FDR10')).toBe('FDR10');
    expect(laneSpeedFromGbps('N/A')).toBeUndefined();
  });
});
