/**
 * Readers for the db_csv sections the dashboard uses. Each reader gets the header row once and
 * then every data row already split; it looks columns up by NAME (ibdiagnet adds columns between
 * versions: PM_INFO grew `*Ext`, `retransmission_*`, `PortLocalPhysicalErrors`...) and copies
 * only the cells it needs.
 */
import type { FabricNode, FabricPort } from '@ibwatch/fabric';
import type { DbCsvData } from './db-csv-types.ts';
import { pmReader } from './db-csv-pm.ts';
import { decodeSpeedActive, decodeSpeedSet, decodeWidthActive, decodeWidthSet } from './speed-bits.ts';
import {
  nodeTypeFromCode, parseCounter, parseGuidField, parseIntField, physStateFromCode, portStateFromCode,
  smStateFromCode,
} from './values.ts';

/** What a reader reports back to the db_csv state machine. */
export interface SectionContext {
  warn(line: number, message: string): void;
}

/** Interprets one section. */
export interface SectionReader {
  /** Returns the reason the section cannot be used (a key column is missing), or undefined. */
  header(names: string[]): string | undefined;
  /** Returns a warning message when the row is rejected, undefined when taken. */
  row(f: string[], line: number): string | undefined;
  /**
   * Optional fast path for a row without any `"`: the reader walks the commas itself and must
   * reject a row whose field count differs from `expected`, as the split path does.
   */
  rawRow?(line: string, lineNo: number, expected: number): string | undefined;
  /** Called at END_<NAME>. */
  end?(): void;
}

/** Column lookup, case-insensitive (PORTS says `NodeGuid`, PM_INFO `NodeGUID`). */
export function indexer(names: string[]): (...candidates: string[]) => number {
  const map = new Map<string, number>();
  names.forEach((n, i) => map.set(n.toLowerCase(), i));
  return (...candidates) => {
    for (const c of candidates) {
      const i = map.get(c.toLowerCase());
      if (i !== undefined) return i;
    }
    return -1;
  };
}

export function missing(cols: Record<string, number>): string | undefined {
  const absent = Object.entries(cols).filter(([, i]) => i < 0).map(([n]) => n);
  return absent.length ? `missing column ${absent.join(', ')}` : undefined;
}

const cell = (f: string[], i: number): string | undefined => (i >= 0 ? f[i] : undefined);

function runInfoReader(data: DbCsvData): SectionReader {
  let names: string[] = [];
  return {
    header(n) { names = n; return undefined; },
    row(f) {
      names.forEach((n, i) => { data.runInfo[n] = f[i]; });
      const date = data.runInfo['Date'];
      if (date) data.runTimestamp = date.trim();
      return undefined;
    },
  };
}

function nodesReader(data: DbCsvData): SectionReader {
  let c = { guid: -1, type: -1, desc: -1, ports: -1, sys: -1, vendor: -1, device: -1 };
  return {
    header(names) {
      const ix = indexer(names);
      c = { guid: ix('NodeGUID'), type: ix('NodeType'), desc: ix('NodeDesc'), ports: ix('NumPorts'),
        sys: ix('SystemImageGUID'), vendor: ix('VendorID'), device: ix('DeviceID') };
      return missing({ NodeGUID: c.guid, NodeType: c.type });
    },
    row(f) {
      const guid = parseGuidField(f[c.guid]);
      if (!guid) return `bad NodeGUID ${JSON.stringify(f[c.guid])}`;
      const type = nodeTypeFromCode(Number(f[c.type]));
      if (!type) return `unknown NodeType ${JSON.stringify(f[c.type])}`;
      const node: FabricNode = { guid, type, description: cell(f, c.desc) ?? '', numPorts: parseIntField(cell(f, c.ports)) ?? 0 };
      const sys = parseGuidField(cell(f, c.sys));
      if (sys) node.systemImageGuid = sys;
      const vendor = parseIntField(cell(f, c.vendor));
      if (vendor !== undefined) node.vendorId = vendor;
      const device = parseIntField(cell(f, c.device));
      if (device !== undefined) node.deviceId = device;
      data.nodes.push(node);
      return undefined;
    },
  };
}

function portsReader(data: DbCsvData): SectionReader {
  let c: Record<string, number> = {};
  return {
    header(names) {
      const ix = indexer(names);
      c = { node: ix('NodeGuid'), port: ix('PortNum', 'PortNumber'), pguid: ix('PortGuid'), lid: ix('LID'),
        state: ix('PortState'), phys: ix('PortPhyState'), wa: ix('LinkWidthActv'), we: ix('LinkWidthEn'),
        ws: ix('LinkWidthSup'), sa: ix('LinkSpeedActv'), se: ix('LinkSpeedEn'), ss: ix('LinkSpeedSup') };
      return missing({ NodeGuid: c.node, PortNum: c.port });
    },
    row(f) {
      const nodeGuid = parseGuidField(f[c.node]);
      if (!nodeGuid) return `bad NodeGuid ${JSON.stringify(f[c.node])}`;
      const portNum = parseIntField(f[c.port]);
      if (portNum === undefined) return `bad PortNum ${JSON.stringify(f[c.port])}`;
      const p: FabricPort = { nodeGuid, portNum };
      const pguid = parseGuidField(cell(f, c.pguid));
      if (pguid) p.portGuid = pguid;
      const lid = parseIntField(cell(f, c.lid));
      if (lid !== undefined) p.lid = lid;
      const st = parseIntField(cell(f, c.state));
      if (st !== undefined) p.state = portStateFromCode(st);
      const ph = parseIntField(cell(f, c.phys));
      if (ph !== undefined) p.physState = physStateFromCode(ph);
      const num = (k: string): number => parseIntField(cell(f, c[k])) ?? 0;
      const wa = decodeWidthActive(num('wa'));
      if (wa) p.widthActive = wa;
      const sa = decodeSpeedActive(num('sa'));
      if (sa) p.speedActive = sa;
      if (c.we >= 0) p.widthEnabled = decodeWidthSet(num('we'));
      if (c.ws >= 0) p.widthSupported = decodeWidthSet(num('ws'));
      if (c.se >= 0) p.speedEnabled = decodeSpeedSet(num('se'));
      if (c.ss >= 0) p.speedSupported = decodeSpeedSet(num('ss'));
      data.ports.push(p);
      return undefined;
    },
  };
}

function linksReader(data: DbCsvData): SectionReader {
  let c = { g1: -1, p1: -1, g2: -1, p2: -1 };
  return {
    header(names) {
      const ix = indexer(names);
      c = { g1: ix('NodeGuid1'), p1: ix('PortNum1'), g2: ix('NodeGuid2'), p2: ix('PortNum2') };
      return missing({ NodeGuid1: c.g1, PortNum1: c.p1, NodeGuid2: c.g2, PortNum2: c.p2 });
    },
    row(f) {
      const g1 = parseGuidField(f[c.g1]);
      const g2 = parseGuidField(f[c.g2]);
      const p1 = parseIntField(f[c.p1]);
      const p2 = parseIntField(f[c.p2]);
      if (!g1 || !g2 || p1 === undefined || p2 === undefined) return 'bad GUID or port number';
      const first = g1 < g2 || (g1 === g2 && p1 <= p2);
      const a = { nodeGuid: g1, portNum: p1 };
      const b = { nodeGuid: g2, portNum: p2 };
      data.links.push(first ? { a, b } : { a: b, b: a });
      return undefined;
    },
  };
}

function smInfoReader(data: DbCsvData): SectionReader {
  let c: Record<string, number> = {};
  return {
    header(names) {
      const ix = indexer(names);
      c = { node: ix('NodeGUID'), pguid: ix('PortGUID'), port: ix('PortNumber'), guid: ix('GUID'),
        act: ix('ActCount'), state: ix('SmState'), prio: ix('Priority') };
      return missing({ GUID: c.guid, SmState: c.state, Priority: c.prio });
    },
    row(f) {
      const guid = parseGuidField(f[c.guid]);
      if (!guid) return `bad GUID ${JSON.stringify(f[c.guid])}`;
      const state = parseIntField(f[c.state]);
      const priority = parseIntField(f[c.prio]);
      if (state === undefined || priority === undefined) return 'bad SmState or Priority';
      const act = cell(f, c.act);
      const activity = act === undefined ? null : parseCounter(act);
      data.sms.push({
        guid, priority, state: smStateFromCode(state),
        nodeGuid: parseGuidField(cell(f, c.node)), portGuid: parseGuidField(cell(f, c.pguid)),
        portNum: parseIntField(cell(f, c.port)),
        activityCount: typeof activity === 'bigint' ? activity : undefined,
      });
      return undefined;
    },
  };
}

/** WARNINGS_<CHECK> / ERRORS_<CHECK>: `Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary`. */
function findingsReader(data: DbCsvData, severity: 'warning' | 'error', check: string): SectionReader {
  let c: Record<string, number> = {};
  return {
    header(names) {
      const ix = indexer(names);
      c = { scope: ix('Scope'), node: ix('NodeGUID'), port: ix('PortNumber'), code: ix('EventName'), text: ix('Summary') };
      return missing({ Summary: c.text });
    },
    row(f, line) {
      const nodeGuid = parseGuidField(cell(f, c.node));
      const scope = cell(f, c.scope);
      const portNum = parseIntField(cell(f, c.port));
      data.findings.push({
        severity, check, text: f[c.text], line,
        ...(scope ? { scope } : {}),
        ...(nodeGuid ? { nodeGuid } : {}),
        // `PORT,0xfc6a...,0xfc6a...,65,PORT_HIERARCHY_MISSING,...`; NODE rows carry `0x00`.
        ...(nodeGuid && scope === 'PORT' && portNum !== undefined ? { port: { nodeGuid, portNum } } : {}),
        ...(cell(f, c.code) ? { code: cell(f, c.code) } : {}),
      });
      return undefined;
    },
  };
}

function tempReader(data: DbCsvData): SectionReader {
  let node = -1;
  let temp = -1;
  return {
    header(names) {
      const ix = indexer(names);
      node = ix('NodeGUID');
      temp = ix('CurrentTemperature');
      return missing({ NodeGUID: node, CurrentTemperature: temp });
    },
    row(f) {
      const nodeGuid = parseGuidField(f[node]);
      const t = parseIntField(f[temp]);
      if (!nodeGuid) return `bad NodeGUID ${JSON.stringify(f[node])}`;
      if (t !== undefined) data.temperatures.push({ nodeGuid, temperatureC: t });
      return undefined;
    },
  };
}

/**
 * CABLE_INFO (needs `--get_cable_info`). No real sample of this section exists here; the column
 * names are those other db_csv readers select (NodeGuid, PortNum, Vendor, PN, SN, Length*,
 * Temperature) **(inferred)**, looked up leniently so a renamed column only loses that field.
 */
function cableReader(data: DbCsvData): SectionReader {
  let c: Record<string, number> = {};
  let lengthCols: number[] = [];
  return {
    header(names) {
      const ix = indexer(names);
      c = { node: ix('NodeGuid', 'NodeGUID'), port: ix('PortNum', 'PortNumber'), vendor: ix('Vendor'),
        pn: ix('PN', 'PartNumber'), sn: ix('SN', 'SerialNumber'), type: ix('Type', 'Identifier'), temp: ix('Temperature') };
      lengthCols = names.map((n, i) => (/^length/i.test(n) ? i : -1)).filter((i) => i >= 0);
      return missing({ NodeGuid: c.node, PortNum: c.port });
    },
    row(f) {
      const nodeGuid = parseGuidField(f[c.node]);
      const portNum = parseIntField(f[c.port]);
      if (!nodeGuid || portNum === undefined) return 'bad NodeGuid or PortNum';
      const text = (k: string): string | undefined => {
        const v = cell(f, c[k])?.trim();
        return v && v !== 'N/A' && v !== 'NA' ? v : undefined;
      };
      const lengths = lengthCols.map((i) => parseFloat(f[i])).filter((n) => Number.isFinite(n) && n > 0);
      const temp = parseFloat(text('temp') ?? '');
      data.cables.push({
        nodeGuid, portNum,
        ...(text('vendor') ? { vendor: text('vendor') } : {}),
        ...(text('pn') ? { partNumber: text('pn') } : {}),
        ...(text('sn') ? { serialNumber: text('sn') } : {}),
        ...(text('type') ? { type: text('type') } : {}),
        ...(lengths.length ? { lengthM: lengths[0] } : {}),
        ...(Number.isFinite(temp) ? { temperatureC: temp } : {}),
      });
      return undefined;
    },
  };
}

/** The reader for a section, or undefined when this parser only counts its rows. */
export function sectionReader(name: string, data: DbCsvData, ctx: SectionContext): SectionReader | undefined {
  switch (name) {
    case 'RUN_INFO': return runInfoReader(data);
    case 'NODES': return nodesReader(data);
    case 'PORTS': return portsReader(data);
    case 'LINKS': return linksReader(data);
    case 'PM_INFO': return pmReader(data.pmInfo, ctx, name);
    case 'PM_DELTA': return pmReader(data.pmDelta, ctx, name);
    case 'SM_INFO': return smInfoReader(data);
    case 'TEMP_SENSING': return tempReader(data);
    case 'CABLE_INFO': return cableReader(data);
  }
  if (name.startsWith('WARNINGS_')) return findingsReader(data, 'warning', name.slice(9));
  if (name.startsWith('ERRORS_')) return findingsReader(data, 'error', name.slice(7));
  return undefined;
}
