import type { CounterName } from './types.ts';

/** Width and kind of every counter ibwatch reads (see counters.ts for why widths matter). */
export type CounterKind = 'error' | 'traffic';

export interface CounterSpec {
  /** Classic name as ibdiagnet's PM_INFO and perfquery spell it. */
  name: CounterName;
  /** Width of the classic counter. */
  widthBits: 4 | 8 | 16 | 32 | 64;
  kind: CounterKind;
  /** Names of the 64-bit twin, in order of preference. */
  extNames: CounterName[];
}

/**
 * Twin names as ibdiagnet's PM_INFO spells them: `PortXmitDataExtended` for data/packet
 * counters, `SymbolErrorCounterExt` for the rest. One exact name per counter keeps look-ups
 * per port low (a PM_INFO row has ~50 columns and a sweep ~60k ports).
 */
function spec(name: string, widthBits: CounterSpec['widthBits'], kind: CounterKind): CounterSpec {
  const ext = /Data$|Pkts$/.test(name) ? `${name}Extended` : `${name}Ext`;
  return { name, widthBits, kind, extNames: widthBits === 64 ? [] : [ext] };
}

/** Widths from the IBA PortCounters attribute (and PortRcvErrorDetails/PortXmitDiscardDetails). */
export const COUNTER_SPECS: ReadonlyMap<CounterName, CounterSpec> = new Map(
  [
    ...[
      'SymbolErrorCounter',
      'PortRcvErrors',
      'PortRcvRemotePhysicalErrors',
      'PortRcvSwitchRelayErrors',
      'PortXmitDiscards',
      'VL15Dropped',
      'QP1Dropped',
      'PortLocalPhysicalErrors',
      'PortMalformedPacketErrors',
      'PortBufferOverrunErrors',
      'PortDLIDMappingErrors',
      'PortVLMappingErrors',
      'PortLoopingErrors',
      'PortInactiveDiscards',
      'PortNeighborMTUDiscards',
      'PortSwLifetimeLimitDiscards',
      'PortSwHOQLifetimeLimitDiscards',
    ]
      .map((n) => spec(n, 16, 'error'))
      // PortRcvErrorDetails / PortXmitDiscardDetails counters have no 64-bit twin.
      .map((s) =>
        /^Port(LocalPhysical|Malformed|BufferOverrun|DLID|VLMapping|Looping|Inactive|Neighbor|Sw)/.test(s.name)
          ? { ...s, extNames: [] }
          : s,
      ),
    ...['LinkErrorRecoveryCounter', 'LinkDownedCounter', 'PortRcvConstraintErrors', 'PortXmitConstraintErrors'].map(
      (n) => spec(n, 8, 'error'),
    ),
    ...['LocalLinkIntegrityErrors', 'ExcessiveBufferOverrunErrors'].map((n) => spec(n, 4, 'error')),
    ...['PortXmitData', 'PortRcvData', 'PortXmitPkts', 'PortRcvPkts', 'PortXmitWait'].map((n) =>
      spec(n, 32, 'traffic'),
    ),
    // Only exist in PortCountersExtended; ibdiagnet spells them UniCast, perfquery Unicast.
    ...[
      'PortUniCastXmitPkts',
      'PortUniCastRcvPkts',
      'PortMultiCastXmitPkts',
      'PortMultiCastRcvPkts',
      'PortUnicastXmitPkts',
      'PortUnicastRcvPkts',
      'PortMulticastXmitPkts',
      'PortMulticastRcvPkts',
    ].map((n) => spec(n, 64, 'traffic')),
  ].map((s) => [s.name, s] as const),
);

/**
 * ibdiagnet's "unsupported 64-bit field" sentinel (`0xfffffffffffffffe`, e.g. retransmission_per_sec
 * in PM_DELTA; the parsers read it as absent). All ones is not a sentinel: it is a counter at its
 * maximum, saturated like any other.
 */
const UNSUPPORTED_64 = 0xfffffffffffffffen;

export const SIGNED_64 = 1n << 63n;

const MAX_BY_WIDTH = new Map<number, bigint>([4, 8, 16, 32, 64].map((w) => [w, (1n << BigInt(w)) - 1n]));

/** Largest value of an unsigned counter of this width. */
export function maxOfWidth(widthBits: number): bigint {
  return MAX_BY_WIDTH.get(widthBits) ?? (1n << BigInt(widthBits)) - 1n;
}

/** `-1` in PM_INFO means "not supported" (ibdiagnet 2.8.1 even wrote it into PortXmitWaitExt). */
export function usable(v: bigint | undefined): v is bigint {
  return v !== undefined && v >= 0n && v !== UNSUPPORTED_64;
}

/** The specs in one array, for the hot loops (no Map iteration per port). */
export const SPEC_LIST: readonly CounterSpec[] = [...COUNTER_SPECS.values()];
