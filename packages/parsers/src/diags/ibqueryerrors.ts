/**
 * `ibqueryerrors` -> per-port PM counters + the `## Summary` footer. Handles plain output,
 * `--data`, `--details`, `-r/--report-port` (`Link info:` lines), `--counters`, thresholds,
 * `-s` suppression and `-k/-K` (same output; counters are cleared *after* being read).
 *
 * ```
 * Errors for "dgx-0009 mlx5_0"
 *    GUID 0xb83fd20300002091 port 1: [PortRcvErrors == 7]
 * Errors for 0xfc6a1c0300001120 "leaf-r0-02"
 *    GUID 0xfc6a1c0300001120 port ALL: [SymbolErrorCounter == 120] [LinkErrorRecoveryCounter == 3] [LinkDownedCount ...
 *    GUID 0xfc6a1c0300001120 port 17: [SymbolErrorCounter == 120] [PortXmitData == 123552 (482.625KB)]
 *        Link info:      8  17[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  0xfc6a1c0300001010      4    3[ ...
 * Data Counters for 0xb83fd20300002200 "dgx-0032 mlx5_0"                               (--counters)
 *    GUID 0xb83fd20300002200 port 1: [PortXmitData == 47520 (185.625KB)] [PortRcvData == 47520 (185.625KB)] ...
 * ## Summary: 38 nodes checked, 5 bad nodes found
 * ##          248 ports checked, 5 ports have errors beyond threshold
 * ## Thresholds: [SymbolErrorCounter = 200][PortXmitWait = 1000000]
 * ## Suppressed: PortXmitWait VL15Dropped
 * ```
 *
 * What the GUID on a `GUID ... port N:` line is (rdma-core `ibqueryerrors.c`): in error mode
 * `node->ports[N]->guid`, the **port** GUID (for a switch the same as its node GUID); in
 * `--counters` mode `node->guid`, the **node** GUID. {@link IbqePort.guidKind} records which.
 * Data counters (`PortXmitData`/`PortRcvData`) are in **4-byte words**; the `(185.625KB)` human
 * suffix is ignored. When the PMA supports PortCountersExtended the printed data counters are
 * the 64-bit ones (same names).
 *
 * ## Collector: PM counters of all ports in one process
 * Measured on the lab (infiniband-diags 44, 38 nodes / 248 ports): no single invocation prints
 * error *and* data counters for *every* port:
 * - `ibqueryerrors --data --threshold-file /dev/null` (0.10 s) prints every port whose error
 *   counters or PortXmitWait exceed 0, with its non-zero data counters appended. `/dev/null`
 *   forces all thresholds to 0 (a site `/etc/infiniband-diags/error_thresholds` would hide
 *   counters); never pass `-s`/`-c`.
 * - `ibqueryerrors --counters` (0.10 s) prints the data/packet counters of **every** port
 *   (zeros included, down ports included), but no error counters; `--data` is ignored with it.
 * A collector therefore runs both (two processes, each one sweep) instead of one `perfquery`
 * per port (248 ports x ~27 ms = ~6.7 s). With `-k -K` the counters are reset after reading,
 * so the collector must then accumulate values itself.
 *
 * **Absence means zero**: with thresholds 0 and nothing suppressed, a port missing from the
 * error-mode output had all error counters and PortXmitWait equal to 0 — unless its PMA query
 * failed, which is reported as `##          N PMA query failures` here and `ibwarn: ... query
 * failed on ...` on stderr (see {@link IbqeSummary.pmaQueryFailures}). For switches that
 * support AllPortSelect the tool first reads the `port ALL` aggregate and skips the per-port
 * reads when it is clean, so ports of a clean switch never appear individually.
 *
 * The collector reads both outputs with `ibqueryerrorsTable` (ibqueryerrors-table.ts): the same
 * lines, straight into a CounterTable, without the per-port records built here.
 *
 * Unusable: empty output, binary data. Missing `## Summary` (cut output) is a warning; so is a
 * `[...]` item that does not parse (e.g. a line cut mid-item), and the port keeps what parsed.
 */
import type { Guid, NodeType, PortCounters } from '@ibwatch/fabric';
import { isBlank } from '../common/lines.ts';
import { GuidTable } from '../common/guids.ts';
import { SMALL_BIGINTS } from '../common/bytes.ts';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import {
  DATA_HDR,
  ERR_HDR,
  type IbqeSummary,
  LINK_INFO_RE,
  PORT_RE,
  portLineHead,
  regexItems,
  scanItems,
  scannedItem,
  scanPortHead,
  summaryLine,
} from './ibqueryerrors-grammar.ts';
import { type LinkLine, parseLinkLine } from './link-line.ts';

export type { IbqeSummary } from './ibqueryerrors-grammar.ts';

/** One `GUID ... port N:` line with what follows it. */
export interface IbqePort {
  /** Node description from the `Errors for` / `Data Counters for` header. */
  nodeDescription: string;
  /** Switches in error mode, every node in `--counters` mode (from the header). */
  nodeGuid?: Guid;
  /** `switch` when the header carries a GUID in error mode, `ca` when not; undefined in `--counters` mode. */
  nodeType?: NodeType;
  /** GUID from the line; see {@link guidKind}. */
  guid: Guid;
  guidKind: 'port' | 'node';
  /** Port number, or `ALL` for the switch aggregate (AllPortSelect, PortSelect 255). */
  port: number | 'ALL';
  /** Counter name as printed -> value. Error counters, XmitWait, data/packet counters, details. */
  counters: Record<string, bigint>;
  /** `-r`: the link of this port. */
  linkInfo?: LinkLine;
}

export interface IbqueryerrorsResult {
  /** `errors` (default, `--data`, `-r`, ...) or `counters` (`--counters`); `unknown` if no port line. */
  mode: 'errors' | 'counters' | 'unknown';
  ports: IbqePort[];
  summary?: IbqeSummary;
}

export interface IbqueryerrorsOptions extends ParseOptions {
  /**
   * Called for every port as soon as its lines are complete. With `keepPorts: false` the result's
   * `ports` stays empty, so a 60k-port output is parsed in constant memory.
   */
  onPort?: (port: IbqePort) => void;
  keepPorts?: boolean;
}

/** Line-at-a-time ibqueryerrors parser. */
export function createIbqueryerrorsParser(opts: IbqueryerrorsOptions = {}): LineParser<IbqueryerrorsResult> {
  const ctx = new LineContext('ibqueryerrors', opts.file);
  /** A port GUID recurs on every `GUID ... port N:` line of its node: normalise it once. */
  const guids = new GuidTable();
  /** Item names of the last port line, by position (see `scanItem`). */
  const itemNames: string[] = [];
  const keep = opts.keepPorts ?? true;
  const ports: IbqePort[] = [];
  let mode: IbqueryerrorsResult['mode'] = 'unknown';
  let node: { description: string; guid?: Guid; type?: NodeType; dataMode: boolean } | undefined;
  let pending: IbqePort | undefined;
  let summary: IbqeSummary | undefined;

  function flush(): void {
    if (!pending) return;
    // Headerless excerpt: a `port ALL` line carries the node's own GUID.
    if (pending.port === 'ALL' && pending.nodeGuid === undefined && node?.description === '')
      pending.nodeGuid = pending.guid;
    opts.onPort?.(pending);
    if (keep) ports.push(pending);
    pending = undefined;
  }

  function portLine(line: string, m: RegExpExecArray): void {
    if (!node) {
      // A pasted excerpt of port lines without their `Errors for "..."` header
      // (`   GUID 0x0002c90300a1b2c3 port ALL: [LinkDownedCounter == 1]`): the node is known only
      // by the GUID on the line, the node's own for `port ALL`, else a port GUID or a switch's.
      ctx.warn('no "Errors for" header: the node is known only by the GUID on its lines');
      node = { description: '', dataMode: false };
    }
    const counters = regexItems(m[3], line, ctx);
    const p: IbqePort = {
      nodeDescription: node.description,
      guid: guids.get(m[1]) ?? ctx.guid(m[1], line),
      guidKind: node.dataMode ? 'node' : 'port',
      port: m[2] === 'ALL' ? 'ALL' : Number(m[2]),
      counters,
    };
    if (node.guid !== undefined) p.nodeGuid = node.guid;
    if (node.type !== undefined) p.nodeType = node.type;
    pending = p;
  }

  /**
   * `   GUID 0x... port 17: [SymbolErrorCounter == 120] [PortXmitData == 111240 (434.531KB)]`
   * read by hand: ~60k of these lines make up a 10k-GPU output, and the regexes (PORT_RE,
   * ITEM_RE, a match array per item) cost 20× reading the line. Returns false, leaving the
   * line to the regex path, unless it is exactly in that form.
   */
  function fastPortLine(line: string): boolean {
    if (!node) return false;
    const colon = scanPortHead(line);
    if (colon === -1) return false;
    const { guidStart, guidEnd, port } = portLineHead;
    flush();
    const guidAt = guidEnd - guidStart === 18 ? guids.getAt(line, guidStart, guidEnd) : undefined;
    const guid = guidAt ?? ctx.guid(line.slice(guidStart, guidEnd), line);
    const counters: Record<string, bigint> = {};
    scanItems(ctx, line, colon, itemNames, () => {
      // Exact in a double up to 2^53; PortXmitData of a busy port goes beyond that.
      const { name, value: v } = scannedItem;
      counters[name] =
        v <= Number.MAX_SAFE_INTEGER
          ? v < 1024
            ? SMALL_BIGINTS[v]
            : BigInt(v)
          : BigInt(line.slice(scannedItem.digits, scannedItem.digitsEnd));
      return true;
    });
    const p: IbqePort = {
      nodeDescription: node.description,
      guid,
      guidKind: node.dataMode ? 'node' : 'port',
      port,
      counters,
    };
    if (node.guid !== undefined) p.nodeGuid = node.guid;
    if (node.type !== undefined) p.nodeType = node.type;
    pending = p;
    return true;
  }

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (isBlank(line)) return;
      if (line.charCodeAt(0) === 32 && fastPortLine(line)) return;
      let m: RegExpExecArray | null;
      if ((m = PORT_RE.exec(line))) {
        flush();
        portLine(line, m);
      } else if (LINK_INFO_RE.test(line)) {
        const l = parseLinkLine(line.replace(LINK_INFO_RE, ''));
        if (!pending || !l) ctx.unknown(line, 'Link info line not understood');
        else pending.linkInfo = l;
      } else if ((m = ERR_HDR.exec(line))) {
        flush();
        if (mode === 'unknown') mode = 'errors';
        node = { description: m[2], dataMode: false, type: m[1] ? 'switch' : 'ca' };
        if (m[1]) node.guid = ctx.guid(m[1], line);
      } else if ((m = DATA_HDR.exec(line))) {
        flush();
        if (mode === 'unknown') mode = 'counters';
        node = { description: m[2], dataMode: true, guid: ctx.guid(m[1], line) };
      } else if (line.startsWith('##')) {
        flush();
        summary = summaryLine(line, summary, ctx);
      } else {
        ctx.unknown(line);
      }
    },
    finish() {
      flush();
      ctx.requireContent();
      if (!summary && ports.length === 0 && !opts.onPort) {
        ctx.fail('neither port lines nor a "## Summary" footer', undefined, null);
      }
      if (!summary) ctx.warn('no "## Summary" footer: output may be truncated', null);
      const value: IbqueryerrorsResult = { mode, ports };
      if (summary) value.summary = summary;
      return ctx.result(value);
    },
  };
}

/** Parse ibqueryerrors output (text or lines). */
export function parseIbqueryerrors(input: LineSource, opts: IbqueryerrorsOptions = {}) {
  return runLineParser(createIbqueryerrorsParser(opts), input);
}

/**
 * Per-port records -> shared {@link PortCounters}. `port ALL` aggregates are dropped. The node
 * GUID comes from the header (switches; every node in `--counters` mode) or, for CA port GUIDs
 * in error mode, from `portToNode` (e.g. built from ibnetdiscover); ports it cannot place are
 * returned in `unresolved`.
 */
export function ibqePortCounters(
  ports: Iterable<IbqePort>,
  portToNode: ReadonlyMap<Guid, Guid> = new Map(),
): { counters: PortCounters[]; unresolved: IbqePort[] } {
  const counters: PortCounters[] = [];
  const unresolved: IbqePort[] = [];
  for (const p of ports) {
    if (p.port === 'ALL') continue;
    const nodeGuid = p.nodeGuid ?? portToNode.get(p.guid);
    if (nodeGuid === undefined) unresolved.push(p);
    else counters.push({ nodeGuid, portNum: p.port, counters: { ...p.counters } });
  }
  return { counters, unresolved };
}
