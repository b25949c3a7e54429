import type { FindingSubject, Severity, Verdict } from './findings.ts';
import { subjectKey } from './findings.ts';
import type { FabricSnapshot, Guid } from './types.ts';

/**
 * ibdiagnet's own verdicts as findings. Every warning and error ibdiagnet reports (a db_csv
 * WARNINGS_<CHECK> / ERRORS_<CHECK> row, or a `-W-`/`-E-` log line db_csv does not repeat)
 * becomes a verdict about the port or node it names. The kind is one per check
 * (`ibdiagnet-firmware-drift` for FW_CHECK), so that a run which ran the check and no longer
 * reports a subject clears its finding, while a run that skipped the check leaves it alone
 * (`--skip dup_node_desc` must not clear duplicated-name findings). Pure.
 */

type ToolFinding = FabricSnapshot['toolFindings'][number];

/** Every ibdiagnet check kind starts with this. */
export const IBDIAGNET_KIND_PREFIX = 'ibdiagnet-';
export const isIbdiagnetKind = (kind: string): boolean => kind.startsWith(IBDIAGNET_KIND_PREFIX);

/** Kinds for the checks operators know by another name; any other check keeps its own. */
const CHECK_KINDS: Record<string, string> = {
  FW_CHECK: 'firmware-drift',
  DUPLICATED_NODE_DESCRIPTION_DETECTION: 'duplicate-node-description',
  DUPLICATED_GUIDS_DETECTION: 'duplicate-guid',
  ADVANCED_DUPLICATED_GUIDS_DETECTION: 'duplicate-guid-advanced',
  PORT_HIERARCHY_INFO: 'port-hierarchy',
  LINKS_SPEED_CHECK: 'link-speed',
  LINKS_WIDTH_CHECK: 'link-width',
  'PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)': 'counters-increased',
};

/** The finding kind of one check (db_csv spelling: `FW_CHECK`, `VS_CAPABILITY_GMP`). */
export function ibdiagnetKind(check: string): string {
  const id = check.trim().toUpperCase();
  const known = CHECK_KINDS[id];
  const slug =
    known ??
    id
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  return IBDIAGNET_KIND_PREFIX + (slug || 'other');
}

/**
 * Severity for operators, by ibdiagnet's event name (ibdiag_fabric_errs.h `FER_*`) or the
 * parser's log classification. What stops traffic or misroutes it is major; what wants a
 * planned fix (firmware, names, a counter that rose) minor; what is bookkeeping info. An event
 * not listed keeps ibdiagnet's level: error major, warning minor.
 */
const EVENT_SEVERITY: Record<string, Severity> = {
  DUPLICATED_NODE_GUID: 'major',
  DUPLICATED_PORT_GUID: 'major',
  PORT_DUPLICATED_LID: 'major',
  PORT_LID_ZERO: 'major',
  NODE_INVALID_LID: 'major',
  SM_NOT_FOUND_MASTER: 'major',
  SM_FOUND_MANY_MASTERS: 'major',
  LINK_WRONG_LOGICAL_STATE: 'major',
  LINK_LOGICAL_STATE_NOT_ACTIVE: 'major',
  LINK_UNEXPECTED_SPEED: 'major',
  LINK_DIFFERENT_SPEED: 'major',
  LINK_UNEXPECTED_WIDTH: 'major',
  LINK_DIFFERENT_WIDTH: 'major',
  LINK_SPEED_MISMATCH: 'major',
  LINK_WIDTH_MISMATCH: 'major',
  BER_EXCEEDS_THRESHOLD: 'major',
  CABLE_TEMPERATURE_ERROR: 'major',
  NODE_WRONG_FW_VERSION: 'minor',
  NODE_DUPLICATED_NODE_DESC: 'minor',
  NODE_NO_RESPONSE: 'minor',
  PORT_NO_RESPONSE: 'minor',
  PM_COUNTER_INCREASED: 'minor',
  COUNTER_INCREASED: 'minor',
  PM_COUNTER_OVERFLOW: 'minor',
  PM_COUNTER_EXCEEDS_THRESHOLD: 'minor',
  PKEY_MISMATCH: 'minor',
  PORT_HIERARCHY_MISSING: 'info',
  PORT_HIERARCHY_MISSING_FIELDS: 'info',
  PORT_HIERARCHY_EXTRA_FIELDS: 'info',
};

function severityOf(f: ToolFinding): Severity {
  // A node that does not answer a vendor-specific MAD (VS Capability checks) is one ibwatch
  // cannot inventory, not one that drops traffic: the real run's 7 SHARP Aggregation Nodes all
  // report `No response for MAD VSGeneralInfo, status = 4`.
  if (f.code?.endsWith('_NO_RESPONSE') && f.check?.startsWith('VS_')) return 'info';
  const known = f.code === undefined ? undefined : EVENT_SEVERITY[f.code];
  return known ?? (f.severity === 'error' ? 'major' : 'minor');
}

export interface IbdiagnetVerdictOptions {
  /** Display name of a node (a node-name map entry, else its description). */
  nodeName?: (guid: Guid) => string | undefined;
}

/** `Quantum-2 Mellanox Technologies (0xfc6a1c030091cf00)`: names are not unique, GUIDs are. */
function labelOf(guid: Guid, opts: IbdiagnetVerdictOptions): string {
  const name = opts.nodeName?.(guid);
  return name && name !== guid ? `${name} (${guid})` : guid;
}

/** ibdiagnet writes `-` where the text had a comma (db_csv); give the commas back for people. */
const readable = (text: string): string => text.replace(/(\w)- (\w)/g, '$1, $2').replace(/\)-PSID/g, '), PSID');

const DUP_DESC = /configured with duplicated node description - (.*)$/;

/**
 * Plain-words title and worklist reason for the events operators meet most; others quote
 * ibdiagnet. `sharing`: how many nodes the run reports with each duplicated description.
 */
function describe(
  f: ToolFinding,
  where: string,
  sharing: Map<string, number>,
): { title: string; short?: string; evidence: Record<string, string> } {
  const fw =
    /PSID:(\S+) has FW version (\S+) while the latest FW version for the same Devid\/PSID on this fabric is (\S+)/.exec(
      f.text,
    );
  if (f.code === 'NODE_WRONG_FW_VERSION' && fw) {
    const [, psid, version, latest] = fw as unknown as [string, string, string, string];
    return {
      title: `Firmware ${version} on ${where}; the fabric's latest for ${psid} is ${latest}`,
      short: `firmware ${version} -> ${latest}`,
      evidence: { psid, version, latest },
    };
  }
  const dup = DUP_DESC.exec(f.text);
  if (f.code === 'NODE_DUPLICATED_NODE_DESC' && dup) {
    const n = sharing.get(dup[1]!) ?? 0;
    const others = n > 1 ? `${n - 1} other node${n === 2 ? '' : 's'}` : 'other nodes';
    return {
      title: `${where} shares its node description "${dup[1]}" with ${others}`,
      evidence: { description: dup[1]! },
    };
  }
  const mad = /No response for MAD (\w+)/.exec(f.text);
  if (f.code?.endsWith('_NO_RESPONSE') && mad)
    return { title: `${where} did not answer MAD ${mad[1]}`, evidence: { mad: mad[1]! } };
  if (f.code === 'PORT_HIERARCHY_MISSING')
    return { title: `${where}: no port hierarchy (front-panel label) reported`, evidence: {} };
  return { title: `${where}: ${readable(f.text)}`, evidence: {} };
}

function subjectOf(f: ToolFinding): FindingSubject {
  if (f.port) return { kind: 'port', port: f.port };
  if (f.nodeGuid) return { kind: 'node', guid: f.nodeGuid };
  // Cluster-wide (`SM_NOT_FOUND_MASTER`) or a log line naming no node: the text is the subject,
  // so the same warning in the next run is the same finding.
  return { kind: 'run', runId: `ibdiagnet:${f.check ?? ''}:${f.text}` };
}

/**
 * One verdict per (kind, subject): several rows about one node in one check (two MADs it did
 * not answer) are one finding, at the worst severity, with every message in its evidence.
 */
export function ibdiagnetVerdicts(
  snap: Pick<FabricSnapshot, 'toolFindings'>,
  opts: IbdiagnetVerdictOptions = {},
): Verdict[] {
  const byKey = new Map<string, Verdict & { evidence: { messages: string[] } }>();
  const sharing = new Map<string, number>();
  for (const f of snap.toolFindings) {
    const d = f.code === 'NODE_DUPLICATED_NODE_DESC' ? DUP_DESC.exec(f.text)?.[1] : undefined;
    if (d !== undefined) sharing.set(d, (sharing.get(d) ?? 0) + 1);
  }
  const rank: Record<Severity, number> = { info: 0, minor: 1, major: 2, critical: 3 };
  for (const f of snap.toolFindings) {
    const kind = ibdiagnetKind(f.check ?? 'other');
    const subject = subjectOf(f);
    const where =
      subject.kind === 'port'
        ? `${labelOf(subject.port.nodeGuid, opts)} port ${subject.port.portNum}`
        : subject.kind === 'node'
          ? labelOf(subject.guid, opts)
          : 'fabric';
    const severity = severityOf(f);
    const key = `${kind}|${subjectKey(subject)}`;
    const had = byKey.get(key);
    if (had) {
      had.evidence.messages.push(f.text);
      if (rank[severity] > rank[had.severity]) had.severity = severity;
      continue;
    }
    const d = describe(f, where, sharing);
    const v: Verdict & { evidence: { messages: string[] } } = {
      kind,
      severity,
      subject,
      title: d.title,
      evidence: {
        ...d.evidence,
        check: f.check ?? '',
        ...(f.code ? { event: f.code } : {}),
        level: f.severity,
        messages: [f.text],
      },
    };
    if (d.short) v.short = d.short;
    byKey.set(key, v);
  }
  return [...byKey.values()];
}

/**
 * The kinds a run evaluated: those of the checks it ran (clean or not). A finding of any other
 * ibdiagnet kind (its check skipped, or not known to have run) is left as it is.
 */
export function ibdiagnetEvaluated(
  snap: Pick<FabricSnapshot, 'toolChecks' | 'toolFindings'>,
): (kind: string) => boolean {
  const kinds = new Set<string>();
  for (const c of snap.toolChecks ?? []) if (c.result !== 'skipped') kinds.add(ibdiagnetKind(c.check));
  for (const f of snap.toolFindings) kinds.add(ibdiagnetKind(f.check ?? 'other'));
  return (kind) => kinds.has(kind);
}
