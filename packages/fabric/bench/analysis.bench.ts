import { computeDeltas } from '../src/counters.ts';
import { evaluatePortHealth } from '../src/port-health.ts';
import { generateFatTree } from '../src/fat-tree/generate.ts';
import { fatTreeSnapshot } from '../src/fat-tree/snapshot.ts';
import { inferTopology, topologyAnomalies } from '../src/topology.ts';
import type { PortCounters } from '../src/types.ts';

/** The full ibdiagnet PM_INFO counter header (~50 columns), as parsers hand it over. */
const PM_INFO_COLUMNS = (
  'LinkDownedCounter,LinkErrorRecoveryCounter,SymbolErrorCounter,PortRcvRemotePhysicalErrors,PortRcvErrors,' +
  'PortXmitDiscards,PortRcvSwitchRelayErrors,ExcessiveBufferOverrunErrors,LocalLinkIntegrityErrors,' +
  'PortRcvConstraintErrors,' +
  'PortXmitConstraintErrors,VL15Dropped,PortXmitData,PortRcvData,PortXmitPkts,PortRcvPkts,PortXmitWait,' +
  'PortXmitDataExtended,' +
  'PortRcvDataExtended,PortXmitPktsExtended,PortRcvPktsExtended,PortUniCastXmitPkts,PortUniCastRcvPkts,' +
  'PortMultiCastXmitPkts,' +
  'PortMultiCastRcvPkts,SymbolErrorCounterExt,LinkErrorRecoveryCounterExt,LinkDownedCounterExt,PortRcvErrorsExt,' +
  'PortRcvRemotePhysicalErrorsExt,PortRcvSwitchRelayErrorsExt,PortXmitDiscardsExt,PortXmitConstraintErrorsExt,' +
  'PortRcvConstraintErrorsExt,LocalLinkIntegrityErrorsExt,ExcessiveBufferOverrunErrorsExt,' +
  'VL15DroppedExt,PortXmitWaitExt,' +
  'QP1DroppedExt,PortLocalPhysicalErrors,PortMalformedPacketErrors,PortBufferOverrunErrors,PortDLIDMappingErrors,' +
  'PortVLMappingErrors,PortLoopingErrors,PortInactiveDiscards,PortNeighborMTUDiscards,PortSwLifetimeLimitDiscards,' +
  'PortSwHOQLifetimeLimitDiscards'
).split(',');

function sweep(ports: number, columns: readonly string[], t: number): PortCounters[] {
  const out: PortCounters[] = [];
  for (let i = 0; i < ports; i++) {
    const c: Record<string, bigint> = {};
    for (const col of columns) {
      const traffic = /Data|Pkts|Wait/.test(col);
      // Traffic moves every sweep; 1 port in 100 has symbol errors.
      c[col] = col.includes('Wait')
        ? BigInt(i + t * 1000)
        : traffic
          ? BigInt(1_000_000_000 + i + t * 5_000_000)
          : col.startsWith('SymbolError') && i % 100 === 0
            ? BigInt(t * 7)
            : 0n;
    }
    out.push({ nodeGuid: '0x' + (i >> 6).toString(16).padStart(16, '0'), portNum: (i & 63) + 1, counters: c });
  }
  return out;
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

/**
 * Prints ms for 60k-port deltas + port rules (full PM_INFO width and the 12 rule counters) and 10k-GPU tier
 * inference.
 */
export function benchAnalysis(): Record<string, number> {
  const res: Record<string, number> = {};
  const narrow = [
    'SymbolErrorCounterExt',
    'LinkErrorRecoveryCounterExt',
    'LinkDownedCounterExt',
    'PortRcvErrorsExt',
    'PortRcvRemotePhysicalErrorsExt',
    'PortXmitDiscardsExt',
    'LocalLinkIntegrityErrorsExt',
    'ExcessiveBufferOverrunErrorsExt',
    'PortXmitWaitExt',
    'PortXmitPktsExtended',
    'PortRcvDataExtended',
    'PortXmitDataExtended',
  ];
  for (const [label, cols] of [
    ['full PM_INFO (49 cols)', PM_INFO_COLUMNS],
    ['rule counters (12 cols)', narrow],
  ] as const) {
    const a = sweep(60_000, cols, 1);
    const b = sweep(60_000, cols, 2);
    computeDeltas(a, b, 60); // warm-up
    const [d, dm] = time(() => computeDeltas(a, b, 60));
    const [v, rm] = time(() => evaluatePortHealth(d.ports, { now: '2025-04-01T00:00:00Z' }));
    res[`60k ports deltas, ${label}`] = dm;
    res[`60k ports rules, ${label}`] = rm;
    if (v.length !== 600) throw new Error(`expected 600 verdicts, got ${v.length}`);
  }
  // The fabric generator's 10k-GPU tree, the one `pnpm bench` and the lab use.
  const fabric = fatTreeSnapshot(generateFatTree({ gpus: 10_000, tiers: 3 }));
  inferTopology(fabric);
  const [m, tm] = time(() => inferTopology(fabric));
  const n = (x: number) => x.toLocaleString('en-US');
  const size = `${n(fabric.nodes.length)} nodes, ${n(fabric.links.length)} links`;
  res[`10k-GPU tier inference (${size})`] = tm;
  res['10k-GPU topology anomalies'] = time(() => topologyAnomalies(m, fabric, { baseline: fabric }))[1];
  for (const [k, ms] of Object.entries(res)) console.log(`${k.padEnd(55)} ${ms.toFixed(1)} ms`);
  return res;
}

if (process.argv[1]?.endsWith('analysis.bench.ts')) benchAnalysis();
