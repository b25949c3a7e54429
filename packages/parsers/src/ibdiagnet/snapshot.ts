/**
 * Join the parsed files of one ibdiagnet run into a `FabricSnapshot`. Pure: takes parse
 * results, returns `{ value, warnings }`.
 *
 * Sources, best first: db_csv for nodes/ports/links/counters/SMs/findings; .net_dump adds the
 * DOWN ports db_csv omits and front-panel labels; .lst and .net_dump stand in for a missing
 * LINKS section; .pm for a missing PM_INFO; .sm adds the SM's LID; .cables adds cable data;
 * the .log adds the PM interval, findings db_csv does not carry, which checks ran, and stage
 * results (meta). Findings, checks and firmware are built in snapshot-checks.ts.
 */
import type {
  CableInfo,
  CounterTable,
  FabricLink,
  FabricNode,
  FabricPort,
  FabricSnapshot,
  Guid,
  ParseResult,
  ParseWarning,
  SmObservation,
} from '@ibwatch/fabric';
import { CounterTableBuilder, PortIndex, tableFromPortCounters } from '@ibwatch/fabric';
import type { CablesData } from './cables.ts';
import { toCableInfo } from './cables.ts';
import type { DbCsvData } from './db-csv-types.ts';
import type { IbdiagnetLog } from './log.ts';
import type { LstData } from './lst.ts';
import type { NetDumpData } from './net-dump.ts';
import type { PmData } from './pm.ts';
import { selectRun } from './runs.ts';
import { buildChecks, buildFindings, buildFirmware } from './snapshot-checks.ts';
import type { FileStamp } from './runs.ts';
import type { SmReport } from './sm.ts';
import { ibdiagTimestampToIso } from './values.ts';

/** Parse results of the files of one directory; each is optional. */
export interface IbdiagnetParsed {
  dbCsv?: ParseResult<DbCsvData>;
  log?: ParseResult<IbdiagnetLog>;
  netDump?: ParseResult<NetDumpData>;
  pm?: ParseResult<PmData>;
  sm?: ParseResult<SmReport>;
  lst?: ParseResult<LstData>;
  cables?: ParseResult<CablesData>;
}

/** File name of each input, for messages (defaults `ibdiagnet2.<ext>`). */
export const IBDIAGNET_FILES: Record<keyof IbdiagnetParsed, string> = {
  dbCsv: 'ibdiagnet2.db_csv',
  log: 'ibdiagnet2.log',
  netDump: 'ibdiagnet2.net_dump',
  pm: 'ibdiagnet2.pm',
  sm: 'ibdiagnet2.sm',
  lst: 'ibdiagnet2.lst',
  cables: 'ibdiagnet2.cables',
};

/** Order in which files define the run (see runs.ts). */
export const RUN_PRIORITY: (keyof IbdiagnetParsed)[] = ['dbCsv', 'log', 'netDump', 'lst', 'pm', 'sm', 'cables'];

export interface SnapshotOptions {
  /** Throw `ParseError` for files of another run instead of skipping them. */
  strict?: boolean;
  /**
   * Set by a caller that already chose the run (the directory reader does, to avoid parsing
   * files of another run): `parsed` then holds only files of that run.
   */
  preselected?: { run?: string; skipped: string[] };
}

const key = (g: Guid, p: number): string => `${g}:${p}`;

function timestampOf(k: keyof IbdiagnetParsed, p: IbdiagnetParsed): string | undefined {
  if (k === 'dbCsv') return p.dbCsv?.value.runTimestamp;
  return (p[k]?.value as { header?: { runningTimestamp?: string } } | undefined)?.header?.runningTimestamp;
}

/**
 * Build one snapshot from parsed files; files of another run are dropped first. The snapshot
 * takes over the parsed records (see `buildNodes`): parse again to build a second one.
 */
export function buildIbdiagnetSnapshot(
  parsed: IbdiagnetParsed,
  options: SnapshotOptions = {},
): ParseResult<FabricSnapshot> {
  const warnings: ParseWarning[] = [];
  const present = RUN_PRIORITY.filter((k) => parsed[k] !== undefined);
  const stamps: FileStamp[] = present.map((k) => ({ file: IBDIAGNET_FILES[k], timestamp: timestampOf(k, parsed) }));
  const sel = options.preselected
    ? {
        run: options.preselected.run,
        accepted: new Set(stamps.map((s) => s.file)),
        rejected: options.preselected.skipped.map((file) => ({ file })),
      }
    : selectRun(stamps, options.strict ?? false, warnings);
  const p: IbdiagnetParsed = {};
  for (const k of present) {
    if (!sel.accepted.has(IBDIAGNET_FILES[k])) continue;
    (p as Record<string, unknown>)[k] = parsed[k];
    warnings.push(...parsed[k]!.warnings);
  }
  const db = p.dbCsv?.value;
  const log = p.log?.value;

  const nodes = buildNodes(p);
  const nodeByGuid = new Map<Guid, FabricNode>();
  for (const n of nodes) nodeByGuid.set(n.guid, n);
  const ports = buildPorts(p);
  // Port GUID -> node, made on first use: only .pm and .cables name ports by port GUID.
  let portGuidToNode: Map<Guid, Guid> | undefined;
  const resolve = (g: Guid): Guid => {
    if (nodeByGuid.has(g)) return g;
    if (portGuidToNode === undefined) {
      portGuidToNode = new Map();
      for (const port of ports) if (port.portGuid) portGuidToNode.set(port.portGuid, port.nodeGuid);
    }
    return portGuidToNode.get(g) ?? g;
  };

  let counters: CounterTable = db?.pmInfo ?? new CounterTableBuilder().build();
  if (counters.rows === 0 && p.pm) {
    // .pm blocks are few (it is only read without PM_INFO) and already records.
    counters = tableFromPortCounters(
      p.pm.value.ports.map((b) => ({ nodeGuid: resolve(b.guid), portNum: b.portNum, counters: b.counters })),
    );
  }
  const snapshot: FabricSnapshot = {
    source: 'ibdiagnet',
    nodes,
    ports,
    links: buildLinks(p),
    counters,
    sms: buildSms(p, nodeByGuid),
    cables: buildCables(p, resolve),
    toolFindings: buildFindings(db, log),
    toolChecks: buildChecks(db, log),
    firmware: buildFirmware(db, nodeByGuid),
    meta: buildMeta(
      p,
      sel.run,
      sel.rejected.map((r) => r.file),
    ),
  };
  const takenAt = sel.run ? ibdiagTimestampToIso(sel.run) : undefined;
  if (takenAt) snapshot.takenAt = takenAt;
  if (db && db.pmDelta.rows > 0) {
    snapshot.counterDeltas = { ports: db.pmDelta };
    if (log?.pmIntervalSeconds !== undefined) snapshot.counterDeltas.intervalSeconds = log.pmIntervalSeconds;
  }
  return { value: snapshot, warnings };
}

/**
 * The parsed NODES records become the snapshot's nodes (LID and temperature filled in), as the
 * parsed PORTS records become its ports (labels filled in): not copied, so a parse result is
 * not to be used again after it went into a snapshot (the readers in this package drop theirs).
 */
function buildNodes(p: IbdiagnetParsed): FabricNode[] {
  const db = p.dbCsv?.value;
  const byGuid = new Map<Guid, FabricNode>();
  for (const n of db?.nodes ?? []) if (!byGuid.has(n.guid)) byGuid.set(n.guid, n);
  if (byGuid.size === 0) {
    // No NODES section: fall back on the link list's node records and the net_dump switches.
    for (const l of p.lst?.value.links ?? []) {
      for (const e of [l.a, l.b]) {
        if (byGuid.has(e.nodeGuid)) continue;
        byGuid.set(e.nodeGuid, {
          guid: e.nodeGuid,
          type: e.type,
          description: e.description ?? '',
          numPorts: e.numPorts,
          vendorId: e.vendorId,
          deviceId: e.deviceId,
          ...(e.systemImageGuid ? { systemImageGuid: e.systemImageGuid } : {}),
        });
      }
    }
    for (const s of p.netDump?.value.switches ?? []) {
      if (!byGuid.has(s.guid))
        byGuid.set(s.guid, { guid: s.guid, type: 'switch', description: s.description, numPorts: s.ports.length });
    }
  }
  for (const port of db?.ports ?? []) {
    // A switch's LID is its port 0's: the other 63k ports at 10k GPUs need no look-up.
    if (port.portNum !== 0 || port.lid === undefined) continue;
    const n = byGuid.get(port.nodeGuid);
    if (n && n.type === 'switch') n.lid = port.lid;
  }
  for (const s of p.netDump?.value.switches ?? []) {
    const n = byGuid.get(s.guid);
    if (n && n.lid === undefined && s.lid !== undefined) n.lid = s.lid;
  }
  for (const t of db?.temperatures ?? []) {
    const n = byGuid.get(t.nodeGuid);
    if (n) n.temperatureC = t.temperatureC;
  }
  return [...byGuid.values()];
}

/** Ports in insertion order, one per (node GUID, port number): the first added is kept. */
class PortMap {
  private readonly index = new PortIndex<FabricPort>();
  readonly list: FabricPort[] = [];

  get(g: Guid, p: number): FabricPort | undefined {
    return this.index.get(g, p);
  }

  /** Node `g`'s ports by port number, undefined when it has none yet. */
  of(g: Guid): (FabricPort | undefined)[] | undefined {
    return this.index.portsOf(g);
  }

  /** Adds `port` unless its (node, port) is already present. */
  add(port: FabricPort): void {
    const slots = this.index.slotsOf(port.nodeGuid);
    if (slots[port.portNum] !== undefined) return;
    slots[port.portNum] = port;
    this.list.push(port);
  }
}

function buildPorts(p: IbdiagnetParsed): FabricPort[] {
  const ports = new PortMap();
  for (const port of p.dbCsv?.value.ports ?? []) ports.add(port);
  // ibdiagnet 2.10 leaves DOWN ports out of PORTS; .net_dump lists every switch port:
  //   `1/17/1     : 33  : DOWN : POLL       : N/A : N/A ...`
  for (const sw of p.netDump?.value.switches ?? []) {
    // One look-up per switch, not per port (248k .net_dump ports at 45k GPUs).
    let known = ports.of(sw.guid);
    for (const np of sw.ports) {
      const existing = known?.[np.portNum];
      if (existing) {
        if (np.label && existing.label === undefined) existing.label = np.label;
        continue;
      }
      const port: FabricPort = { nodeGuid: sw.guid, portNum: np.portNum, state: np.state, physState: np.physState };
      if (np.label) port.label = np.label;
      if (np.width) port.widthActive = np.width;
      if (np.speed) port.speedActive = np.speed;
      ports.add(port);
      known ??= ports.of(sw.guid);
    }
  }
  if (!p.dbCsv?.value.ports.length) {
    // CA ports are known only from the link list then.
    for (const l of p.lst?.value.links ?? []) {
      for (const e of [l.a, l.b]) {
        if (ports.get(e.nodeGuid, e.portNum)) continue;
        const port: FabricPort = { nodeGuid: e.nodeGuid, portNum: e.portNum, lid: e.lid };
        if (e.portGuid) port.portGuid = e.portGuid;
        if (l.state === 'ACT') port.state = 'Active';
        if (l.width) port.widthActive = l.width;
        if (l.speed) port.speedActive = l.speed;
        ports.add(port);
      }
    }
  }
  return ports.list;
}

function ordered(a: { nodeGuid: Guid; portNum: number }, b: { nodeGuid: Guid; portNum: number }): FabricLink {
  const x = { nodeGuid: a.nodeGuid, portNum: a.portNum };
  const y = { nodeGuid: b.nodeGuid, portNum: b.portNum };
  return a.nodeGuid < b.nodeGuid || (a.nodeGuid === b.nodeGuid && a.portNum <= b.portNum)
    ? { a: x, b: y }
    : { a: y, b: x };
}

/**
 * Links without repeats, in first-seen order, found by their `a` end: the link itself, or a list
 * when one end has several (an array per link was 31k arrays at 10k GPUs, for a case that a
 * cabled fabric does not have).
 */
class LinkSet {
  private readonly byEnd = new PortIndex<FabricLink | FabricLink[]>();
  readonly list: FabricLink[] = [];

  add(l: FabricLink): void {
    const slots = this.byEnd.slotsOf(l.a.nodeGuid);
    const same = slots[l.a.portNum];
    if (same !== undefined) {
      const list = Array.isArray(same) ? same : [same];
      if (list.some((o) => o.b.nodeGuid === l.b.nodeGuid && o.b.portNum === l.b.portNum)) return;
      list.push(l);
      if (list !== same) slots[l.a.portNum] = list;
    } else slots[l.a.portNum] = l;
    this.list.push(l);
  }
}

function buildLinks(p: IbdiagnetParsed): FabricLink[] {
  const links = new LinkSet();
  for (const l of p.dbCsv?.value.links ?? []) links.add(l);
  if (links.list.length === 0) for (const l of p.lst?.value.links ?? []) links.add(ordered(l.a, l.b));
  if (links.list.length === 0) {
    // Only switch-side port numbers are known for CA neighbours (`N#` is a PCI label) — but a
    // CA port label ends with its port number: `B184D0F0/0/0/1`.
    for (const sw of p.netDump?.value.switches ?? []) {
      for (const np of sw.ports) {
        const peerPort = np.neighborLabel ? Number(np.neighborLabel.split('/').pop()) : NaN;
        if (np.neighborGuid && Number.isInteger(peerPort))
          links.add(
            ordered({ nodeGuid: sw.guid, portNum: np.portNum }, { nodeGuid: np.neighborGuid, portNum: peerPort }),
          );
      }
    }
  }
  return links.list;
}

function buildSms(p: IbdiagnetParsed, nodes: Map<Guid, FabricNode>): SmObservation[] {
  const report = p.sm?.value.sms ?? [];
  const lidOf = (g: Guid): number | undefined =>
    report.find((r) => r.guid === g)?.lid ?? (p.log?.value.masterSm?.guid === g ? p.log.value.masterSm.lid : undefined);
  const sms: SmObservation[] = (p.dbCsv?.value.sms ?? []).map((s) => {
    const o: SmObservation = { guid: s.guid, priority: s.priority, state: s.state };
    const lid = lidOf(s.guid);
    if (lid !== undefined) o.lid = lid;
    if (s.activityCount !== undefined) o.activityCount = s.activityCount;
    const desc = nodes.get(s.nodeGuid ?? s.guid)?.description;
    if (desc !== undefined) o.nodeDescription = desc;
    return o;
  });
  for (const r of report) {
    if (sms.some((s) => s.guid === r.guid)) continue;
    const o: SmObservation = { guid: r.guid, priority: r.priority ?? 0, state: r.state };
    if (r.lid !== undefined) o.lid = r.lid;
    const desc = nodes.get(r.guid)?.description;
    if (desc !== undefined) o.nodeDescription = desc;
    sms.push(o);
  }
  return sms;
}

function buildCables(p: IbdiagnetParsed, resolve: (g: Guid) => Guid): CableInfo[] {
  const out = new Map<string, CableInfo>();
  for (const c of p.dbCsv?.value.cables ?? []) out.set(key(c.nodeGuid, c.portNum), c);
  for (const b of p.cables?.value.cables ?? []) {
    const nodeGuid = resolve(b.guid);
    const k = key(nodeGuid, b.portNum);
    if (!out.has(k)) out.set(k, toCableInfo(b, nodeGuid));
  }
  return [...out.values()];
}

function buildMeta(p: IbdiagnetParsed, run: string | undefined, skipped: string[]): Record<string, string> {
  const meta: Record<string, string> = {};
  const db = p.dbCsv?.value;
  const log = p.log?.value;
  if (run) meta.runTimestamp = run;
  const version = db?.runInfo['IBDIAGNET_Version'] ?? log?.header.runningVersion;
  if (version) meta.ibdiagnetVersion = version.replace(/^"|"$/g, '').split('","')[0];
  const command = log?.header.runningCommand ?? p.netDump?.value.header.runningCommand;
  if (command) meta.command = command.trim();
  meta.filesUsed = RUN_PRIORITY.filter((k) => p[k])
    .map((k) => IBDIAGNET_FILES[k])
    .join(',');
  if (skipped.length) meta.filesSkipped = skipped.join(',');
  if (db) meta.dbCsvSections = db.sections.map((s) => s.name).join(',');
  for (const [k, v] of Object.entries(log?.fabricSummary ?? {})) if (v) meta[`summary.${k}`] = v;
  for (const s of log?.summary ?? []) {
    meta[`stage.${s.stage}.warnings`] = String(s.warnings);
    meta[`stage.${s.stage}.errors`] = String(s.errors);
  }
  for (const c of log?.checks ?? []) if (c.result !== 'ok') meta[`check.${c.name}`] = c.result;
  return meta;
}
