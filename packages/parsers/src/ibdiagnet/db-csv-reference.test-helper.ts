/**
 * A reference reader of ibdiagnet2.db_csv for the tests: small and slow on purpose, so that it is
 * obviously right. Split the text into lines; a section runs from `START_X` to `END_X`; its first
 * line is the header; every other non-blank line is a row; fields are split on commas outside
 * double quotes. Then each section the fast reader (db-csv.ts) interprets is mapped with a plain
 * table lookup per column. `dbCsvView` projects the fast reader's result onto the same shape, so a
 * test can compare the two with one `toEqual`.
 */
import { tableRow } from '@ibwatch/fabric';
import type { CounterTable } from '@ibwatch/fabric';
import type { DbCsvData } from './db-csv-types.ts';

export interface RefSection {
  name: string;
  startLine: number;
  endLine: number;
  header: string[];
  rows: { line: number; fields: string[] }[];
}

/** Fields of one CSV line: commas inside `"..."` do not split, the quotes are dropped. */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** The sections of a db_csv, in file order (line numbers from 1). */
export function readSections(text: string): RefSection[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  const sections: RefSection[] = [];
  let open: RefSection | undefined;
  let headerSeen = false;
  lines.forEach((line, i) => {
    if (open === undefined) {
      if (line.startsWith('START_')) {
        open = { name: line.slice('START_'.length).trim(), startLine: i + 1, endLine: 0, header: [], rows: [] };
        headerSeen = false;
      }
    } else if (line === `END_${open.name}`) {
      open.endLine = i + 1;
      sections.push(open);
      open = undefined;
    } else if (!headerSeen) {
      open.header = csvFields(line).map((h) => h.trim());
      headerSeen = true;
    } else if (line.trim() !== '') {
      open.rows.push({ line: i + 1, fields: csvFields(line) });
    }
  });
  return sections;
}

/** Each row of `s` as a record column name -> field. */
const records = (s: RefSection | undefined): Record<string, string>[] =>
  (s?.rows ?? []).map((r) => Object.fromEntries(s!.header.map((h, k) => [h, r.fields[k]!])));

const NODE_TYPE: Record<string, string> = { '1': 'ca', '2': 'switch', '3': 'router' };
const PORT_STATE: Record<string, string> = { '1': 'Down', '2': 'Initialize', '3': 'Armed', '4': 'Active' };
const PHYS_STATE: Record<string, string> = { '2': 'Polling', '3': 'Disabled', '5': 'LinkUp' };
const SM_STATE: Record<string, string> = { '0': 'NOTACTIVE', '1': 'DISCOVERING', '2': 'STANDBY', '3': 'MASTER' };
/** Columns of PM_INFO / PM_DELTA that name the port rather than count. */
const PM_KEYS = new Set(['NodeGUID', 'PortGUID', 'PortNumber']);

/** A PM cell: a number, or absent (`-1`, `N/A`, the unsupported 64-bit field). */
function counter(raw: string): bigint | undefined {
  const t = raw.trim();
  if (t === '-1' || t === 'N/A' || t === 'NA' || t === '' || t.toLowerCase() === '0xfffffffffffffffe') return undefined;
  return BigInt(t);
}

const linkKey = (g1: string, p1: string | number, g2: string, p2: string | number): string =>
  [`${g1.toLowerCase()}/${p1}`, `${g2.toLowerCase()}/${p2}`].sort().join(' ');

export interface DbCsvRefView {
  sections: { name: string; startLine: number; endLine: number; rows: number }[];
  runInfo: Record<string, string>;
  nodes: { guid: string; type: string; description: string; numPorts: number }[];
  ports: { nodeGuid: string; portNum: number; lid: number; state?: string; physState?: string }[];
  links: string[];
  sms: { guid: string; priority: number; state: string; activityCount: bigint }[];
  findings: { severity: string; check: string; line: number; code: string }[];
  temperatures: { nodeGuid: string; temperatureC: number }[];
  pmInfo: { nodeGuid: string; portNum: number; counters: Record<string, bigint> }[];
  pmDelta: { nodeGuid: string; portNum: number; counters: Record<string, bigint> }[];
}

function pmRows(s: RefSection | undefined): DbCsvRefView['pmInfo'] {
  return records(s).map((r) => {
    const counters: Record<string, bigint> = {};
    for (const [name, raw] of Object.entries(r)) {
      const v = PM_KEYS.has(name) ? undefined : counter(raw);
      if (v !== undefined) counters[name] = v;
    }
    return { nodeGuid: r.NodeGUID!.toLowerCase(), portNum: Number(r.PortNumber), counters };
  });
}

/** What a db_csv holds, by the reference reader. */
export function referenceDbCsv(text: string): DbCsvRefView {
  const sections = readSections(text);
  const get = (name: string) => sections.find((s) => s.name === name);
  const findings = sections.flatMap((s) => {
    const m = /^(WARNINGS|ERRORS)_(.+)$/.exec(s.name);
    if (m === null) return [];
    const severity = m[1] === 'WARNINGS' ? 'warning' : 'error';
    return records(s).map((r, k) => ({ severity, check: m[2]!, line: s.rows[k]!.line, code: r.EventName! }));
  });
  return {
    sections: sections.map((s) => ({ name: s.name, startLine: s.startLine, endLine: s.endLine, rows: s.rows.length })),
    runInfo: records(get('RUN_INFO'))[0] ?? {},
    nodes: records(get('NODES')).map((r) => ({
      guid: r.NodeGUID!.toLowerCase(),
      type: NODE_TYPE[r.NodeType!]!,
      description: r.NodeDesc!,
      numPorts: Number(r.NumPorts),
    })),
    ports: records(get('PORTS')).map((r) => ({
      nodeGuid: r.NodeGuid!.toLowerCase(),
      portNum: Number(r.PortNum),
      lid: Number(r.LID),
      state: PORT_STATE[r.PortState!],
      physState: PHYS_STATE[r.PortPhyState!],
    })),
    links: [
      ...new Set(records(get('LINKS')).map((r) => linkKey(r.NodeGuid1!, r.PortNum1!, r.NodeGuid2!, r.PortNum2!))),
    ].sort(),
    sms: records(get('SM_INFO')).map((r) => ({
      guid: r.GUID!.toLowerCase(),
      priority: Number(r.Priority),
      state: SM_STATE[r.SmState!]!,
      activityCount: BigInt(r.ActCount!),
    })),
    findings,
    temperatures: records(get('TEMP_SENSING')).map((r) => ({
      nodeGuid: r.NodeGUID!.toLowerCase(),
      temperatureC: Number(r.CurrentTemperature),
    })),
    pmInfo: pmRows(get('PM_INFO')),
    pmDelta: pmRows(get('PM_DELTA')),
  };
}

const tableRows = (t: CounterTable): DbCsvRefView['pmInfo'] =>
  Array.from({ length: t.rows }, (_, r) => {
    const row = tableRow(t, r);
    return { nodeGuid: row.nodeGuid, portNum: row.portNum, counters: { ...row.counters } };
  });

/** The fast reader's result in the reference's shape (only the states the reference maps). */
export function dbCsvView(d: DbCsvData): DbCsvRefView {
  const known = (v: string | undefined, table: Record<string, string>) =>
    v !== undefined && Object.values(table).includes(v) ? v : undefined;
  return {
    sections: d.sections.map(({ name, startLine, endLine, rows }) => ({ name, startLine, endLine, rows })),
    runInfo: d.runInfo,
    nodes: d.nodes.map((n) => ({
      guid: n.guid,
      type: n.type,
      description: n.description ?? '',
      numPorts: n.numPorts ?? -1,
    })),
    ports: d.ports.map((p) => ({
      nodeGuid: p.nodeGuid,
      portNum: p.portNum,
      lid: p.lid ?? -1,
      state: known(p.state, PORT_STATE),
      physState: known(p.physState, PHYS_STATE),
    })),
    links: [...new Set(d.links.map((l) => linkKey(l.a.nodeGuid, l.a.portNum, l.b.nodeGuid, l.b.portNum)))].sort(),
    sms: d.sms.map((s) => ({
      guid: s.guid,
      priority: s.priority,
      state: s.state,
      activityCount: s.activityCount ?? -1n,
    })),
    findings: d.findings.map((f) => ({ severity: f.severity, check: f.check, line: f.line, code: f.code ?? '' })),
    temperatures: d.temperatures,
    pmInfo: tableRows(d.pmInfo),
    pmDelta: tableRows(d.pmDelta),
  };
}
