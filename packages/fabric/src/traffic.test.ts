import { describe, expect, it } from 'vitest';
import { tableFromPortCounters } from './counter-table.ts';
import { linkBytesPerSecond, trafficDeltas, utilPermyriad } from './traffic.ts';
import type { PortCounters } from './types.ts';

const port = (portNum: number, counters: Record<string, bigint>, extended?: boolean): PortCounters => ({
  nodeGuid: '0x1',
  portNum,
  counters,
  ...(extended ? { extended } : {}),
});

describe('trafficDeltas', () => {
  it('writes every cell of arrays it is given, the same as into new ones, sweep after sweep', () => {
    const sweeps = [
      [port(1, { PortXmitData: 100n, PortRcvData: 10n, PortXmitWait: 0n }), port(2, { PortXmitData: 0n })],
      [port(1, { PortXmitData: 1100n, PortRcvData: 30n, PortXmitWait: 9n }), port(2, { PortXmitData: 7n })],
      // Port 2 not read, port 3 new, port 1 cleared: cells the last sweep wrote must not stay.
      [port(3, { PortXmitData: 5n }), port(1, { PortXmitData: 50n, PortRcvData: 40n, PortXmitWait: 1n })],
      [port(3, { PortXmitData: 6n }), port(1, { PortXmitData: 60n, PortRcvData: 45n })],
    ].map((s) => tableFromPortCounters(s));
    const kept = { xmitWords: new Float64Array(2), rcvWords: new Float64Array(2), waitTicks: new Float64Array(2) };
    // Values a previous sweep could have left.
    for (const a of Object.values(kept)) a.fill(123);
    for (let i = 0; i < sweeps.length; i++) {
      const prev = i > 0 ? sweeps[i - 1] : undefined;
      const fresh = trafficDeltas(prev, sweeps[i]!);
      const reused = trafficDeltas(prev, sweeps[i]!, kept);
      expect(reused).toBe(kept);
      expect(reused).toEqual(fresh);
    }
    expect(Array.from(kept.xmitWords)).toEqual([1, 10]);
    expect(Number.isNaN(kept.waitTicks[1])).toBe(true);
    expect(() => trafficDeltas(sweeps[0], sweeps[1]!, { ...kept, rcvWords: new Float64Array(3) })).toThrow(
      /an array of 3 for 2 rows/,
    );
  });

  it('gives no delta without a previous sweep, and NaN for a port new in this one', () => {
    const cur = tableFromPortCounters([port(1, { PortXmitData: 5n })]);
    expect(Number.isNaN(trafficDeltas(undefined, cur).xmitWords[0])).toBe(true);
    const prev = tableFromPortCounters([port(2, { PortXmitData: 1n })]);
    expect(Number.isNaN(trafficDeltas(prev, cur).xmitWords[0])).toBe(true);
  });

  it('reads increases of data words and XmitWait ticks, matched by port', () => {
    const prev = tableFromPortCounters([
      port(1, { PortXmitData: 100n, PortRcvData: 10n, PortXmitWait: 0n }),
      port(2, { PortXmitData: 0n }),
    ]);
    const cur = tableFromPortCounters([
      port(2, { PortXmitData: 7n }),
      port(1, { PortXmitData: 1100n, PortRcvData: 30n, PortXmitWait: 9n }),
    ]);
    const d = trafficDeltas(prev, cur);
    expect([...d.xmitWords]).toEqual([7, 1000]);
    expect(d.rcvWords[1]).toBe(20);
    expect(d.waitTicks[1]).toBe(9);
    expect(Number.isNaN(d.waitTicks[0])).toBe(true); // not read on port 2
  });

  it('prefers the 64-bit twin and treats a twin that went down as cleared', () => {
    const prev = tableFromPortCounters([port(1, { PortXmitData: 4_294_967_295n, PortXmitDataExtended: 2n ** 40n })]);
    const cur = tableFromPortCounters([
      port(1, { PortXmitData: 4_294_967_295n, PortXmitDataExtended: 2n ** 40n + 5n }),
    ]);
    expect(trafficDeltas(prev, cur).xmitWords[0]).toBe(5);
    const cleared = tableFromPortCounters([port(1, { PortXmitDataExtended: 42n })]);
    expect(trafficDeltas(prev, cleared).xmitWords[0]).toBe(42);
  });

  it('handles 32-bit wraps, saturation and clears like the error counters', () => {
    const prev = tableFromPortCounters([
      port(1, { PortXmitData: 4_294_967_290n }),
      port(2, { PortXmitData: 1_000_000_000n }),
    ]);
    const cur = tableFromPortCounters([port(1, { PortXmitData: 10n }), port(2, { PortXmitData: 5n })]);
    const d = trafficDeltas(prev, cur);
    expect(d.xmitWords[0]).toBe(16); // wrapped past 2^32
    expect(d.xmitWords[1]).toBe(5); // went down by more than half the range: cleared
    const pegged = tableFromPortCounters([port(1, { PortXmitData: 4_294_967_295n }), port(2, { PortXmitData: 5n })]);
    expect(Number.isNaN(trafficDeltas(prev, pegged).xmitWords[0])).toBe(true);
  });

  it('reads extended rows (ibqueryerrors with PortCountersExtended) as 64-bit: no wrap guess', () => {
    const prev = tableFromPortCounters([port(1, { PortXmitData: 4_294_967_290n }, true)]);
    const cur = tableFromPortCounters([port(1, { PortXmitData: 2n ** 33n }, true)]);
    expect(trafficDeltas(prev, cur).xmitWords[0]).toBe(2 ** 33 - 4_294_967_290);
  });
});

describe('link rate and utilisation', () => {
  it('4X NDR is 400 Gb/s = 50e9 bytes/s; unknown rates give 0', () => {
    expect(linkBytesPerSecond('4X', 'NDR')).toBe(50e9);
    expect(linkBytesPerSecond('2X', 'HDR')).toBe(12.5e9);
    expect(linkBytesPerSecond(null, 'NDR')).toBe(0);
    expect(linkBytesPerSecond('3X', 'NDR')).toBe(0);
  });
  it('utilisation in 0.01 % steps, capped to 16 bits', () => {
    expect(utilPermyriad(25e9, 50e9)).toBe(5000);
    expect(utilPermyriad(1, 0)).toBe(0);
    expect(utilPermyriad(1e15, 1)).toBe(65_535);
  });
});
