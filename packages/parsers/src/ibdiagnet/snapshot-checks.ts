/**
 * The parts of an ibdiagnet snapshot that come from its checks rather than from the fabric's
 * graph: the findings (db_csv WARNINGS_/ERRORS_ rows and the log's `-W-`/`-E-` lines), which
 * checks ran, and the firmware of each node. Pure.
 */
import type { FabricNode, FabricSnapshot, Guid, NodeFirmware, ToolCheck } from '@ibwatch/fabric';
import type { DbCsvData } from './db-csv-types.ts';
import type { IbdiagnetLog } from './log.ts';

type ToolFinding = FabricSnapshot['toolFindings'][number];

/**
 * A check's name as db_csv spells it: the log's `FW Check`, `Duplicated Node Description
 * detection` and `Ports counters Difference Check (during run)` are the sections
 * `WARNINGS_FW_CHECK`, `WARNINGS_DUPLICATED_NODE_DESCRIPTION_DETECTION` and
 * `WARNINGS_PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)`.
 */
export function checkId(name: string): string {
  return name.trim().toUpperCase().replace(/\s+/g, '_');
}

/**
 * db_csv WARNINGS_/ERRORS_ rows are the complete list; the .log repeats up to 5 of them per
 * check, with commas where db_csv has `-` (log: `Node with Devid:54002(0xd2f2),PSID:...`, db_csv:
 * `Node with Devid:54002(0xd2f2)-PSID:...`). Log lines whose message matches a db_csv Summary
 * that way are dropped as duplicates; the rest (speed/width mismatches, counter increases...) are
 * added, under the check whose result line they follow. `-W- Note: ...` lines are advice, not
 * findings.
 */
export function buildFindings(db: DbCsvData | undefined, log: IbdiagnetLog | undefined): ToolFinding[] {
  const out: ToolFinding[] = [];
  const seen = new Set<string>();
  for (const f of db?.findings ?? []) {
    const item: ToolFinding = { severity: f.severity, text: f.text, check: f.check };
    if (f.scope) item.scope = f.scope;
    if (f.port) item.port = f.port;
    if (f.nodeGuid) item.nodeGuid = f.nodeGuid;
    if (f.code) item.code = f.code;
    out.push(item);
    seen.add(f.text.replace(/,/g, '-'));
  }
  for (const m of log?.messages ?? []) {
    if (m.code === 'NOTE') continue;
    if (seen.has((m.message ?? m.text).replace(/,/g, '-'))) continue;
    const item: ToolFinding = { severity: m.severity, text: m.text, scope: 'log' };
    const check = m.check ?? m.stage;
    if (check) item.check = checkId(check);
    if (m.code) item.code = m.code;
    if (m.nodeGuid) item.nodeGuid = m.nodeGuid;
    out.push(item);
  }
  return out;
}

const RANK: Record<ToolCheck['result'], number> = { skipped: 0, ok: 1, warnings: 2, errors: 3 };

/**
 * Every check the run reports on: the log's result lines (`-I- Links Check finished
 * successfully`, `-W- Duplicated Node Description detection skipped`), and the db_csv sections
 * of checks that found something (a WARNINGS_X section is proof that X ran, with a log or
 * without). A check neither names is unknown: it may have been skipped or found nothing. The
 * log's stages count as checks too (`PORT_COUNTERS`, with their Summary counts), for the log
 * lines that follow no check result.
 */
export function buildChecks(db: DbCsvData | undefined, log: IbdiagnetLog | undefined): ToolCheck[] {
  const byId = new Map<string, ToolCheck['result']>();
  const note = (check: string, result: ToolCheck['result']) => {
    const had = byId.get(check);
    if (had === undefined || RANK[result] > RANK[had]) byId.set(check, result);
  };
  for (const c of log?.checks ?? []) note(checkId(c.name), c.result);
  for (const stage of log?.stages ?? []) {
    const sum = log?.summary.find((x) => x.stage === stage);
    note(checkId(stage), sum?.errors ? 'errors' : sum?.warnings ? 'warnings' : 'ok');
  }
  for (const s of db?.sections ?? []) {
    if (s.name.startsWith('WARNINGS_')) note(s.name.slice(9), 'warnings');
    else if (s.name.startsWith('ERRORS_')) note(s.name.slice(7), 'errors');
  }
  return [...byId].map(([check, result]) => ({ check, result }));
}

/**
 * Firmware per node: the NODES_INFO row (version, PSID, device, revision) when the node answered
 * the vendor-specific GeneralInfo, else its GENERAL_INFO_SMP version (SHARP Aggregation Nodes
 * answer only that), with the device ID from NODES.
 */
export function buildFirmware(db: DbCsvData | undefined, nodes: Map<Guid, FabricNode>): NodeFirmware[] {
  const best = new Map<Guid, DbCsvData['firmware'][number]>();
  for (const f of db?.firmware ?? []) {
    const had = best.get(f.nodeGuid);
    if (!had || (had.source !== 'NODES_INFO' && f.source === 'NODES_INFO')) best.set(f.nodeGuid, f);
  }
  return [...best.values()].map((r) => {
    const { nodeGuid, version, psid, deviceId: id, hwRevision } = r;
    // A NODES_INFO record has every field: one literal (a rest copy grew each record a field at a time).
    if (psid !== undefined && id !== undefined && hwRevision !== undefined)
      return { nodeGuid, version, psid, deviceId: id, hwRevision };
    const { source: _source, ...f } = r;
    if (f.deviceId !== undefined) return f;
    const deviceId = nodes.get(f.nodeGuid)?.deviceId;
    return deviceId === undefined ? f : { ...f, deviceId };
  });
}
