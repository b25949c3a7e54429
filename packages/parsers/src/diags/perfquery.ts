/**
 * `perfquery` (PortCounters), `perfquery -x` (PortCountersExtended), `-a` (all ports: port 255),
 * multi-port runs and the detail attributes (`-E`, `-D`, ...) -> one block per header:
 *
 * ```
 * # Port counters: Lid 8 port 17 (CapMask: 0x1300)
 * PortSelect:......................17
 * SymbolErrorCounter:..............120
 * PortXmitData:....................167832
 * # Port extended counters: Lid 5 port 18 (CapMask: 0x1300 CapMask2: 0x0000000)
 * PortXmitData:....................9876543212427
 * # PortRcvErrorDetails counters: Lid 1719 port 1
 * ```
 * Values are decimal or `0x` hex, kept as bigint. PortXmitData/PortRcvData count **4-byte
 * words** (bytes = value x 4) in both attributes; the extended ones are 64-bit and never saturate,
 * the basic ones stop at 2^32-1. Legacy OFED 1.4 names (`XmtData`, `SymbolErrors`, ...) are
 * mapped to the modern ones. `PortSelect`, `CounterSelect`, `CounterSelect2` are selectors, not
 * counters: they go to `selectors`. Port 255 means all ports summed (`allPorts: true`).
 *
 * Unusable: empty output, binary data, no header. Value lines before any header and lines of
 * unknown shape are warnings; a block cut before its first value is kept empty with a warning.
 */
import type { PortCounters } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import { parseCounter } from './values.ts';

export interface PerfqueryBlock {
  /** `PortCounters`, `PortCountersExtended`, or the attribute name printed (`PortRcvErrorDetails`). */
  attribute: string;
  lid: number;
  port: number;
  /** Port 255 = AllPortSelect sum (`perfquery -a`). */
  allPorts: boolean;
  capMask?: number;
  capMask2?: number;
  selectors: Record<string, bigint>;
  counters: Record<string, bigint>;
  /** 1-based line of the header. */
  line: number;
}

const HEADER_RE = /^# (Port counters|Port extended counters|(\w+) counters): Lid (\d+) port (\d+)(?: \((.*)\))?\s*$/;
const VALUE_RE = /^(\w+):\.*(.*)$/;
const SELECTORS = new Set(['PortSelect', 'CounterSelect', 'CounterSelect2']);
const LEGACY: Record<string, string> = {
  SymbolErrors: 'SymbolErrorCounter',
  LinkRecovers: 'LinkErrorRecoveryCounter',
  LinkDowned: 'LinkDownedCounter',
  RcvErrors: 'PortRcvErrors',
  RcvRemotePhysErrors: 'PortRcvRemotePhysicalErrors',
  RcvSwRelayErrors: 'PortRcvSwitchRelayErrors',
  XmtDiscards: 'PortXmitDiscards',
  XmtConstraintErrors: 'PortXmitConstraintErrors',
  RcvConstraintErrors: 'PortRcvConstraintErrors',
  LinkIntegrityErrors: 'LocalLinkIntegrityErrors',
  ExcBufOverrunErrors: 'ExcessiveBufferOverrunErrors',
  XmtData: 'PortXmitData',
  RcvData: 'PortRcvData',
  XmtPkts: 'PortXmitPkts',
  RcvPkts: 'PortRcvPkts',
  XmtWait: 'PortXmitWait',
};

/** Line-at-a-time perfquery parser. */
export function createPerfqueryParser(opts: ParseOptions = {}): LineParser<PerfqueryBlock[]> {
  const ctx = new LineContext('perfquery', opts.file);
  const blocks: PerfqueryBlock[] = [];
  let cur: PerfqueryBlock | undefined;

  const checkEmpty = (): void => {
    if (cur && Object.keys(cur.counters).length === 0 && Object.keys(cur.selectors).length === 0) {
      ctx.warn('counter block without values (output cut?)', cur.line);
    }
  };

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      const h = HEADER_RE.exec(line);
      if (h) {
        checkEmpty();
        const attribute =
          h[1] === 'Port counters' ? 'PortCounters' : h[1] === 'Port extended counters' ? 'PortCountersExtended' : h[2];
        cur = {
          attribute,
          lid: Number(h[3]),
          port: Number(h[4]),
          allPorts: h[4] === '255',
          selectors: {},
          counters: {},
          line: ctx.lineNo,
        };
        const cm = /CapMask: (0x[0-9a-fA-F]+)/.exec(h[5] ?? '');
        const cm2 = /CapMask2: (0x[0-9a-fA-F]+)/.exec(h[5] ?? '');
        if (cm) cur.capMask = Number(cm[1]);
        if (cm2) cur.capMask2 = Number(cm2[1]);
        blocks.push(cur);
        return;
      }
      const v = VALUE_RE.exec(line);
      if (!v || !cur) {
        ctx.unknown(line, cur ? 'unrecognised line' : 'line before any "# Port counters" header');
        return;
      }
      const value = parseCounter(v[2]);
      if (value === undefined) {
        ctx.unknown(line, 'counter value is not a number');
        return;
      }
      const name = LEGACY[v[1]] ?? v[1];
      if (SELECTORS.has(name)) cur.selectors[name] = value;
      else cur.counters[name] = value;
    },
    finish() {
      checkEmpty();
      ctx.requireContent();
      if (blocks.length === 0) ctx.fail('no "# Port counters" header found', undefined, null);
      return ctx.result(blocks);
    },
  };
}

/** Parse perfquery output (text or lines). */
export function parsePerfquery(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createPerfqueryParser(opts), input);
}

/**
 * Merge PortCounters and PortCountersExtended blocks of the same (LID, port) into shared
 * {@link PortCounters}. perfquery identifies ports by LID only, so `lidToNode` (from ibnetdiscover)
 * supplies the node GUID; unknown LIDs and port-255 sums are skipped.
 * Where both attributes print a counter (PortXmitData, ...), the 64-bit extended value wins.
 */
export function perfqueryPortCounters(
  blocks: Iterable<PerfqueryBlock>,
  lidToNode: ReadonlyMap<number, string>,
): PortCounters[] {
  const byKey = new Map<string, PortCounters>();
  const sorted = [...blocks].sort(
    (a, b) => Number(a.attribute === 'PortCountersExtended') - Number(b.attribute === 'PortCountersExtended'),
  );
  for (const b of sorted) {
    if (b.allPorts || (b.attribute !== 'PortCounters' && b.attribute !== 'PortCountersExtended')) continue;
    const nodeGuid = lidToNode.get(b.lid);
    if (nodeGuid === undefined) continue;
    const key = `${nodeGuid}/${b.port}`;
    const pc = byKey.get(key) ?? { nodeGuid, portNum: b.port, counters: {} };
    Object.assign(pc.counters, b.counters);
    byKey.set(key, pc);
  }
  return [...byKey.values()];
}
