import { describe, expect, it } from 'vitest';
import { computeDeltas } from './counters.ts';
import { evaluatePortHealth } from './port-health.ts';
import { symbolErrorsPerHourAtBer, resolveThresholds } from './thresholds.ts';
import type { FabricPort, PortCounters } from './types.ts';

const G = '0x0000000000000aaa';
const NOW = '2025-04-01T12:00:00Z';
const port: FabricPort = { nodeGuid: G, portNum: 1, state: 'Active', widthActive: '4X', speedActive: 'NDR' };
const rec = (c: Record<string, bigint>): PortCounters => ({ nodeGuid: G, portNum: 1, counters: c });
const run = (
  prev: Record<string, bigint>,
  cur: Record<string, bigint>,
  interval = 60,
  extra: Partial<Parameters<typeof evaluatePortHealth>[1]> = {},
) => evaluatePortHealth(computeDeltas([rec(prev)], [rec(cur)], interval).ports, { now: NOW, ports: [port], ...extra });

describe('evaluatePortHealth()', () => {
  it('says nothing about a clean port', () => {
    expect(
      run({ SymbolErrorCounter: 5n, LinkDownedCounter: 2n }, { SymbolErrorCounter: 5n, LinkDownedCounter: 2n }),
    ).toEqual([]);
  });

  it('gives no finding for a lifetime LinkDownedCounter on the first snapshot', () => {
    const d = computeDeltas(undefined, [rec({ LinkDownedCounter: 7n, SymbolErrorCounter: 60000n })], 60);
    expect(evaluatePortHealth(d.ports, { now: NOW })).toEqual([]);
  });

  it('flags any LinkDownedCounter increment as a flap with evidence', () => {
    const [v] = run({ LinkDownedCounter: 2n }, { LinkDownedCounter: 3n });
    expect(v).toMatchObject({
      kind: 'link-downed',
      severity: 'major',
      evidence: { counter: 'LinkDownedCounter', delta: '1', intervalSeconds: 60 },
    });
  });

  it('estimates symbol BER from the line rate and rates it against IBTA 1e-12', () => {
    // 400G x 60 s = 2.4e13 bits; 100 errors -> 4.2e-12
    const [v] = run({ SymbolErrorCounter: 0n }, { SymbolErrorCounter: 100n });
    expect(v!.kind).toBe('symbol-errors');
    expect(v!.severity).toBe('major');
    expect(v!.evidence.ber as number).toBeCloseTo(100 / 2.4e13, 20);
    expect(v!.evidence).toMatchObject({ bitsSource: 'line-rate', threshold: 1e-12, delta: '100' });
    expect(v!.short).toMatch(/^symbol errors 4\.2e-12 BER \(6000\/h\)$/);
  });

  it('rates NDR-window BER (1e-14..1e-12) as minor', () => {
    const [v] = run({ SymbolErrorCounter: 0n }, { SymbolErrorCounter: 5n });
    expect(v).toMatchObject({ kind: 'symbol-errors', severity: 'minor' });
  });

  it('keeps one or two symbol errors at info (not enough evidence)', () => {
    const [v] = run({ SymbolErrorCounter: 0n }, { SymbolErrorCounter: 2n });
    expect(v!.severity).toBe('info');
  });

  it('uses PortRcvData*32 when configured data-first', () => {
    const [v] = run(
      { SymbolErrorCounter: 0n, PortRcvDataExtended: 0n },
      { SymbolErrorCounter: 10n, PortRcvDataExtended: 1_000_000n },
      60,
      { thresholds: { berBits: 'data-first' } },
    );
    expect(v!.evidence).toMatchObject({ bitsSource: 'PortRcvData*32', bits: 32_000_000 });
    expect(v!.severity).toBe('critical');
  });

  it('flags more than 5 link error recoveries a minute as major, fewer as minor', () => {
    expect(run({ LinkErrorRecoveryCounter: 0n }, { LinkErrorRecoveryCounter: 6n })[0]).toMatchObject({
      kind: 'link-error-recovery',
      severity: 'major',
    });
    expect(run({ LinkErrorRecoveryCounter: 0n }, { LinkErrorRecoveryCounter: 5n })[0]).toMatchObject({
      severity: 'minor',
    });
  });

  it('words link error recoveries per hour, the unit of every other error rate', () => {
    // 6 in a 60 s sweep: 360 an hour (the worklist said "6/min" next to "PortRcvErrors 120/h").
    expect(run({ LinkErrorRecoveryCounter: 0n }, { LinkErrorRecoveryCounter: 6n })[0]).toMatchObject({
      short: '6 link error recoveries (360/h)',
      title: expect.stringMatching(/\(360\/h\)$/),
    });
  });

  it('rates PortRcvErrors and PortXmitDiscards per hour', () => {
    const v = run({ PortRcvErrors: 0n, PortXmitDiscards: 0n }, { PortRcvErrors: 2n, PortXmitDiscards: 1n });
    expect(v.find((x) => x.kind === 'counter-rate:PortRcvErrors')).toMatchObject({
      severity: 'major',
      evidence: { ratePerHour: 120, thresholdPerHour: 100 },
    });
    expect(v.find((x) => x.kind === 'counter-rate:PortXmitDiscards')).toMatchObject({ severity: 'info' });
  });

  it('flags LocalLinkIntegrityErrors and ExcessiveBufferOverrunErrors on any increase', () => {
    const v = run(
      { LocalLinkIntegrityErrors: 0n, ExcessiveBufferOverrunErrors: 0n },
      { LocalLinkIntegrityErrors: 1n, ExcessiveBufferOverrunErrors: 1n },
      3600,
    );
    expect(v.map((x) => [x.kind, x.severity]).sort()).toEqual([
      ['counter-rate:ExcessiveBufferOverrunErrors', 'minor'],
      ['counter-rate:LocalLinkIntegrityErrors', 'minor'],
    ]);
  });

  it('reports congestion from PortXmitWait per packet', () => {
    const [v] = run(
      { PortXmitWaitExt: 0n, PortXmitPktsExtended: 0n },
      { PortXmitWaitExt: 5000n, PortXmitPktsExtended: 100n },
    );
    expect(v).toMatchObject({ kind: 'congestion', severity: 'major', evidence: { waitPerPacket: 50 } });
  });

  it('says "rate unknown: clear the counters and measure again" for a saturated SymbolErrorCounter (major)', () => {
    const c = { SymbolErrorCounter: 65535n, SymbolErrorCounterExt: 0n };
    const [v] = run(c, c, 60, { lidOf: () => 17 });
    expect(v).toMatchObject({ kind: 'counter-saturated:SymbolErrorCounter', severity: 'major' });
    expect(v!.title).toMatch(/rate unknown, clear the counters \(`perfquery -R 17 1`/);
  });

  it('keeps a saturated PortXmitDiscards minor (congestion, not a cable)', () => {
    const c = { PortXmitDiscards: 65535n };
    const [v] = run(c, c);
    expect(v).toMatchObject({ kind: 'counter-saturated:PortXmitDiscards', severity: 'minor' });
  });

  it('grants grace to a link first seen in this very scan (after the previous snapshot)', () => {
    // Previous snapshot at 11:59 (60 s before NOW); the link appeared at 11:59:30.
    const firstSeen = new Map([[`${G}/1`, '2025-04-01T11:59:30Z']]);
    const v = run(
      { SymbolErrorCounter: 0n, LinkDownedCounter: 0n },
      { SymbolErrorCounter: 100n, LinkDownedCounter: 1n },
      60,
      { linkFirstSeen: firstSeen },
    );
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      kind: 'symbol-errors',
      severity: 'info',
      evidence: { gracePeriod: true, severityOutsideGrace: 'major' },
    });
  });

  it('grades a burst normally on a link already there at the previous snapshot, however recent', () => {
    // First seen 10 min ago, within the 30-min grace period, but before the 11:59 snapshot.
    const firstSeen = new Map([[`${G}/1`, '2025-04-01T11:50:00Z']]);
    const v = run({ SymbolErrorCounter: 0n }, { SymbolErrorCounter: 100n }, 60, { linkFirstSeen: firstSeen });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ kind: 'symbol-errors', severity: 'major' });
    expect(v[0]!.evidence.gracePeriod).toBeUndefined();
  });

  it('takes the previous snapshot time from previousAt when given', () => {
    // A 2-h interval, but the previous sweep finished at 11:40: a link seen at 11:45 is new in this scan.
    const firstSeen = new Map([[`${G}/1`, '2025-04-01T11:45:00Z']]);
    const at = (previousAt: string) =>
      run({ SymbolErrorCounter: 0n }, { SymbolErrorCounter: 100n }, 7200, { linkFirstSeen: firstSeen, previousAt })[0]!;
    expect(at('2025-04-01T11:40:00Z')).toMatchObject({ severity: 'info', evidence: { gracePeriod: true } });
    // 100 errors in 2 h at 400G: minor on its own merits, with no grace.
    expect(at('2025-04-01T11:50:00Z')).toMatchObject({ severity: 'minor', evidence: { bitsSource: 'line-rate' } });
    expect(at('2025-04-01T11:50:00Z').evidence.gracePeriod).toBeUndefined();
  });

  it('applies full severity once the grace period is over, even to a link new since a 2-h-old snapshot', () => {
    const firstSeen = new Map([[`${G}/1`, '2025-04-01T10:30:00Z']]);
    const v = run({ LinkDownedCounter: 0n }, { LinkDownedCounter: 1n }, 7200, { linkFirstSeen: firstSeen });
    expect(v[0]!.severity).toBe('major');
  });
});

describe('thresholds', () => {
  it('matches the NDR field windows: 1e-14 at 400G is 2.88 errors per 12 min', () => {
    expect(symbolErrorsPerHourAtBer(1e-14, 400) / 5).toBeCloseTo(2.88, 6);
    expect((symbolErrorsPerHourAtBer(1e-15, 400) * 125) / 60).toBeCloseTo(3, 6);
  });

  it('merges partial configuration over defaults', () => {
    const t = resolveThresholds({ symbolBer: { major: 1e-13 }, rates: { PortRcvErrors: { majorPerHour: 5 } } });
    expect(t.symbolBer.major).toBe(1e-13);
    expect(t.symbolBer.minor).toBe(1e-14);
    expect(t.rates.PortRcvErrors).toMatchObject({ majorPerHour: 5, minorPerHour: 10 });
  });
});
