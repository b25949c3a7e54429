/**
 * db_csv PORTS and LINKS: the sections that become most of a snapshot's records (63k ports and
 * 30k links at 10k GPUs). Their rows are read with {@link PlannedCells}, one pass that keeps only
 * the cells a record takes; a row with a quoted field takes the `CsvRow` path, to the same record.
 */
import type { FabricPort } from '@ibwatch/fabric';
import type { DbCsvData } from './db-csv-types.ts';
import { guidCell, indexer, intCell, missing, show } from './db-csv-cells.ts';
import type { SectionContext, SectionReader } from './db-csv-cells.ts';
import { PlannedCells } from './planned-cells.ts';
import { decodeSpeedActive, decodeSpeedSet, decodeWidthActive, decodeWidthSet } from './speed-bits.ts';
import { MAX_LID, MAX_PORT_NUM, OutOfRange, physStateFromCode, portStateFromCode } from './values.ts';

/**
 * Enabled/supported lists decoded once per distinct mask and shared by every port with that
 * mask (40k ports hold only a handful of masks; 4 arrays per port were 11 MB at 10k GPUs).
 * Frozen, so a caller that tried to edit one port's list would fail loudly instead of editing all.
 */
function sharedDecoder<T>(decode: (mask: number) => T[]): (mask: number) => T[] {
  const cache = new Map<number, T[]>();
  return lastOf((mask) => {
    let list = cache.get(mask);
    if (list === undefined) cache.set(mask, (list = Object.freeze(decode(mask)) as T[]));
    return list;
  });
}

/**
 * `decode` that answers a repeat of the last argument without calling it: port after port of
 * a switch prints the same widths and speeds (63k PORTS rows at 10k GPUs, 6 decodes each).
 */
function lastOf<T>(decode: (n: number) => T): (n: number) => T {
  let last = Number.NaN;
  let value: T;
  return (n) => (n === last ? value : (value = decode((last = n))));
}

// PORTS slots: the columns a port record takes.
const P_NODE = 0,
  P_PORT = 1,
  P_PGUID = 2,
  P_LID = 3,
  P_STATE = 4,
  P_PHYS = 5,
  P_WA = 6,
  P_WE = 7,
  P_WS = 8,
  P_SA = 9,
  P_SE = 10,
  P_SS = 11;

export function portsReader(data: DbCsvData, ctx: SectionContext): SectionReader {
  const guids = ctx.guids;
  const lids = new OutOfRange('PORTS column LID', MAX_LID);
  const widthSet = sharedDecoder(decodeWidthSet);
  const speedSet = sharedDecoder(decodeSpeedSet);
  const widthActive = lastOf(decodeWidthActive);
  const speedActive = lastOf(decodeSpeedActive);
  // Header index of each slot's column.
  let cols: number[] = [];
  let sets = false;
  let planned: PlannedCells | undefined;
  /** The port record of a row whose node and port number are good; both paths end here. */
  const add = (
    line: number,
    nodeGuid: string,
    portNum: number,
    pguid: string | undefined,
    lidCell: number | undefined,
    st: number | undefined,
    ph: number | undefined,
    waBits: number | undefined,
    we: number | undefined,
    ws: number | undefined,
    saBits: number | undefined,
    se: number | undefined,
    ss: number | undefined,
  ): string | undefined => {
    if (portNum < 0 || portNum > MAX_PORT_NUM) return `bad PortNum ${portNum}`;
    const lid = lids.check(lidCell, line);
    const wa = widthActive(waBits ?? 0);
    const sa = speedActive(saBits ?? 0);
    if (pguid && lid !== undefined && st !== undefined && ph !== undefined && wa && sa && sets) {
      // Every field there (any port of a healthy fabric): one literal, so the object is
      // allocated once with its fields inside it, not grown a field at a time.
      data.ports.push({
        nodeGuid,
        portNum,
        portGuid: pguid,
        lid,
        state: portStateFromCode(st),
        physState: physStateFromCode(ph),
        widthActive: wa,
        speedActive: sa,
        widthEnabled: widthSet(we ?? 0),
        widthSupported: widthSet(ws ?? 0),
        speedEnabled: speedSet(se ?? 0),
        speedSupported: speedSet(ss ?? 0),
      });
      return undefined;
    }
    const p: FabricPort = { nodeGuid, portNum };
    if (pguid) p.portGuid = pguid;
    if (lid !== undefined) p.lid = lid;
    if (st !== undefined) p.state = portStateFromCode(st);
    if (ph !== undefined) p.physState = physStateFromCode(ph);
    if (wa) p.widthActive = wa;
    if (sa) p.speedActive = sa;
    if (cols[P_WE]! >= 0) p.widthEnabled = widthSet(we ?? 0);
    if (cols[P_WS]! >= 0) p.widthSupported = widthSet(ws ?? 0);
    if (cols[P_SE]! >= 0) p.speedEnabled = speedSet(se ?? 0);
    if (cols[P_SS]! >= 0) p.speedSupported = speedSet(ss ?? 0);
    data.ports.push(p);
    return undefined;
  };
  return {
    header(names) {
      const ix = indexer(names);
      cols = [
        ix('NodeGuid'),
        ix('PortNum', 'PortNumber'),
        ix('PortGuid'),
        ix('LID'),
        ix('PortState'),
        ix('PortPhyState'),
        ix('LinkWidthActv'),
        ix('LinkWidthEn'),
        ix('LinkWidthSup'),
        ix('LinkSpeedActv'),
        ix('LinkSpeedEn'),
        ix('LinkSpeedSup'),
      ];
      sets = cols[P_WE]! >= 0 && cols[P_WS]! >= 0 && cols[P_SE]! >= 0 && cols[P_SS]! >= 0;
      planned = new PlannedCells(cols);
      return missing({ NodeGuid: cols[P_NODE]!, PortNum: cols[P_PORT]! });
    },
    row(r, line) {
      const nodeGuid = guidCell(r, cols[P_NODE]!, guids);
      if (!nodeGuid) return `bad NodeGuid ${show(r, cols[P_NODE]!)}`;
      const portNum = intCell(r, cols[P_PORT]!);
      if (portNum === undefined) return `bad PortNum ${show(r, cols[P_PORT]!)}`;
      const int = (slot: number): number | undefined => intCell(r, cols[slot]!);
      return add(
        line,
        nodeGuid,
        portNum,
        guidCell(r, cols[P_PGUID]!, guids),
        int(P_LID),
        int(P_STATE),
        int(P_PHYS),
        int(P_WA),
        int(P_WE),
        int(P_WS),
        int(P_SA),
        int(P_SE),
        int(P_SS),
      );
    },
    rawRow(bytes, from, to, line, expected) {
      const p = planned!;
      const n = p.scan(bytes, from, to);
      if (n < 0) return false;
      if (n !== expected) return `row has ${n} fields, header has ${expected}`;
      const nodeGuid = p.guid(P_NODE, guids);
      if (!nodeGuid) return `bad NodeGuid ${JSON.stringify(p.text(P_NODE))}`;
      const portNum = p.int(P_PORT);
      if (portNum === undefined) return `bad PortNum ${JSON.stringify(p.text(P_PORT))}`;
      return add(
        line,
        nodeGuid,
        portNum,
        p.guid(P_PGUID, guids),
        p.int(P_LID),
        p.int(P_STATE),
        p.int(P_PHYS),
        p.int(P_WA),
        p.int(P_WE),
        p.int(P_WS),
        p.int(P_SA),
        p.int(P_SE),
        p.int(P_SS),
      );
    },
    end: () => lids.report(ctx.warn),
  };
}

// LINKS slots.
const L_G1 = 0,
  L_P1 = 1,
  L_G2 = 2,
  L_P2 = 3;

export function linksReader(data: DbCsvData, ctx: SectionContext): SectionReader {
  const guids = ctx.guids;
  let c = { g1: -1, p1: -1, g2: -1, p2: -1 };
  let planned: PlannedCells | undefined;
  const add = (
    g1: string | undefined,
    p1: number | undefined,
    g2: string | undefined,
    p2: number | undefined,
  ): string | undefined => {
    if (!g1 || !g2 || p1 === undefined || p2 === undefined) return 'bad GUID or port number';
    if (p1 < 0 || p1 > MAX_PORT_NUM || p2 < 0 || p2 > MAX_PORT_NUM) return `bad port number ${p1} or ${p2}`;
    const first = g1 < g2 || (g1 === g2 && p1 <= p2);
    const a = { nodeGuid: g1, portNum: p1 };
    const b = { nodeGuid: g2, portNum: p2 };
    data.links.push(first ? { a, b } : { a: b, b: a });
    return undefined;
  };
  return {
    header(names) {
      const ix = indexer(names);
      c = { g1: ix('NodeGuid1'), p1: ix('PortNum1'), g2: ix('NodeGuid2'), p2: ix('PortNum2') };
      planned = new PlannedCells([c.g1, c.p1, c.g2, c.p2]);
      return missing({ NodeGuid1: c.g1, PortNum1: c.p1, NodeGuid2: c.g2, PortNum2: c.p2 });
    },
    row(r) {
      return add(guidCell(r, c.g1, guids), intCell(r, c.p1), guidCell(r, c.g2, guids), intCell(r, c.p2));
    },
    rawRow(bytes, from, to, _line, expected) {
      const p = planned!;
      const n = p.scan(bytes, from, to);
      if (n < 0) return false;
      if (n !== expected) return `row has ${n} fields, header has ${expected}`;
      return add(p.guid(L_G1, guids), p.int(L_P1), p.guid(L_G2, guids), p.int(L_P2));
    },
  };
}
