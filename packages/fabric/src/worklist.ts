import {
  findingKey,
  linkKey,
  portKey,
  SEVERITY_RANK,
  type Finding,
  type FindingState,
  type FindingSubject,
  type Severity,
} from './findings.ts';
import type { CableInfo, FabricLink, FabricNode, FabricPort, Guid, NodeType, PortRef } from './types.ts';
import { orderLinkEnds } from './link-ends.ts';
import { LIFETIME_KIND, LINK_ERROR_COUNTERS, SATURATED_KIND } from './lifetime-counters.ts';

/** Where a node is, from the operator's inventory (passed in: this package does no I/O). */
export interface NodeLocation {
  name?: string;
  rack?: string;
  /** Rack unit (`# rack=R07 u=12` in the node-name map). */
  u?: number;
  /** Free text: row/U position, data hall... */
  location?: string;
}

/** One end of a link on the worklist. */
export interface WorklistEnd extends PortRef {
  /** Host or switch name (inventory name, else NodeDescription, else GUID). */
  name: string;
  nodeType?: NodeType;
  lid?: number;
  rack?: string;
  u?: number;
  location?: string;
  cable?: Omit<CableInfo, 'nodeGuid' | 'portNum'>;
}

export type WorklistState = 'open' | 'acknowledged' | 'fixed';

/** One physical link to reseat, with everything a technician needs at the rack. */
export interface ReseatEntry {
  /** {@link linkKey} of the link, or the port key when the peer is unknown. */
  key: string;
  /** Both ends (one when the peer is unknown), end A first: the switch end ({@link orderLinkEnds}). */
  ends: WorklistEnd[];
  severity: Severity;
  /** Plain-words reasons, e.g. `speed 400G->200G`, `symbol errors 1.2e-11 BER (340/h)`. */
  reasons: string[];
  findingKeys: string[];
  /** Action ladder, first step first. */
  actions: string[];
  /** Prior fix attempts on this link (from `priorFixes`). */
  priorFixes: number;
  repeatOffender: boolean;
  state: WorklistState;
  /**
   * Set when the entry is open or acknowledged but none of its findings is observed any more:
   * the latest of their clearedAt times (it shows as cleared, not broken, until it resolves).
   */
  clearedAt?: string;
  /** Ranking score within a severity (more and worse evidence first). */
  score: number;
}

/** Finding kinds that point at the physical link (cable, transceiver, port cage). */
export const PHYSICAL_KINDS: readonly string[] = [
  'symbol-errors',
  'link-error-recovery',
  'link-downed',
  'link-flapping',
  'link-down',
  'link-degraded-width',
  'link-degraded-speed',
  'counter-rate:PortRcvErrors',
  'counter-rate:LocalLinkIntegrityErrors',
  'counter-rate:ExcessiveBufferOverrunErrors',
  // One snapshot is evidence (lifetime-counters.ts): a pegged link counter, and link error
  // counts since the last clear, are candidates to measure first.
  ...LINK_ERROR_COUNTERS.map((c) => `${SATURATED_KIND}${c}`),
  `${SATURATED_KIND}LinkDownedCounter`,
  LIFETIME_KIND,
];

/** Kinds that carry no rate (a count since an unknown clear): their cable is measured before it is reseated. */
export const isNoRateKind = (kind: string): boolean => kind === LIFETIME_KIND || kind.startsWith(SATURATED_KIND);

/** The worklist's first step for a cable whose findings carry no rate. */
export const MEASURE_FIRST = 'clear the counters and measure again (perfquery -R <LID> <port>, or ibdiagnet --pc)';

export interface WorklistInput {
  /** Findings (open, acknowledged, and optionally recently resolved → shown as fixed). */
  findings: readonly Pick<Finding, 'kind' | 'severity' | 'subject' | 'title' | 'short' | 'state' | 'clearedAt'>[];
  links: readonly FabricLink[];
  nodes?: readonly FabricNode[];
  ports?: readonly FabricPort[];
  cables?: readonly CableInfo[];
  /** Tier of each node (`leaf`, `spine`, `core`...), to name the lower switch of a switch-to-switch cable end A. */
  tiers?: ReadonlyMap<Guid, string>;
  /** Inventory lookup by node GUID. */
  lookup?: (guid: Guid) => NodeLocation | undefined;
  /** Fix attempts already made per link key (repeat offenders escalate). */
  priorFixes?: ReadonlyMap<string, number>;
  /** Kinds to include; default {@link PHYSICAL_KINDS}. */
  kinds?: readonly string[];
}

/** The physical cable a finding is about, keyed as the worklist keys it. */
export interface CableRef {
  /** {@link linkKey} of the link, or the port key when the port's peer is unknown. */
  key: string;
  /** The cable's ends (one when the peer is unknown). */
  refs: PortRef[];
  /** The `portKey`s of the ends the finding itself names. */
  hit: string[];
}

/**
 * The cable a port or link subject is on: a link subject is its own cable; a port subject is
 * on the link `linkOf` knows for it, else alone. Other subjects (SM, node, run) have none.
 */
export function cableOf(subject: FindingSubject, linkOf: (p: PortRef) => FabricLink | undefined): CableRef | null {
  if (subject.kind === 'link')
    return {
      key: linkKey(subject.a, subject.b),
      refs: [subject.a, subject.b],
      hit: [portKey(subject.a), portKey(subject.b)],
    };
  if (subject.kind !== 'port') return null;
  const l = linkOf(subject.port);
  const refs = l ? [l.a, l.b] : [subject.port];
  return {
    key: refs.length === 2 ? linkKey(refs[0]!, refs[1]!) : portKey(refs[0]!),
    refs,
    hit: [portKey(subject.port)],
  };
}

const LADDER = ['clean and reseat both ends', 'swap the transceiver', 'replace the cable'];

/** The action ladder, starting further up for links already worked on. */
export function actionLadder(priorFixes: number): string[] {
  const steps = LADDER.slice(Math.min(priorFixes, LADDER.length - 1));
  if (priorFixes >= 2)
    steps.push('escalate: repeat offender, move to another switch port / open a vendor case for the port or HCA');
  return steps;
}

/**
 * Build the reseat worklist: one entry per physical link, merging the findings of both port
 * ends and of the link itself, ranked worst severity first, then by score (sum of severity
 * ranks over findings, plus one per affected end), then key. Entries still observed come
 * before cleared ones, and those before fixed ones; severity and score are those of the
 * findings still observed when there are any, the reasons those of every open one. Linear in
 * findings + links.
 */
export function buildWorklist(input: WorklistInput): ReseatEntry[] {
  const kinds = new Set(input.kinds ?? PHYSICAL_KINDS);
  const linkByPort = new Map<string, FabricLink>();
  for (const l of input.links) {
    linkByPort.set(portKey(l.a), l);
    linkByPort.set(portKey(l.b), l);
  }
  const nodes = new Map<string, FabricNode>();
  for (const n of input.nodes ?? []) nodes.set(n.guid, n);
  const ports = new Map<string, FabricPort>();
  for (const p of input.ports ?? []) ports.set(portKey(p), p);
  const cables = new Map<string, CableInfo>();
  for (const c of input.cables ?? []) cables.set(portKey(c), c);

  interface Acc {
    key: string;
    refs: PortRef[];
    findings: WorklistInput['findings'][number][];
    endsHit: Set<string>;
  }
  const groups = new Map<string, Acc>();
  for (const f of input.findings) {
    if (!kinds.has(f.kind)) continue;
    const cable = cableOf(f.subject, (p) => linkByPort.get(portKey(p)));
    if (!cable) continue;
    let g = groups.get(cable.key);
    if (!g) groups.set(cable.key, (g = { key: cable.key, refs: cable.refs, findings: [], endsHit: new Set() }));
    g.findings.push(f);
    for (const h of cable.hit) g.endsHit.add(h);
  }

  const entries: ReseatEntry[] = [];
  for (const g of groups.values()) {
    const live = g.findings.filter((f) => f.state !== 'resolved');
    const current = live.filter((f) => f.clearedAt === undefined);
    // The reasons are the entry's whole open record (a cleared flap still says what happened to
    // the cable); its severity and rank are what the latest scans observe.
    const counted = live.length ? live : g.findings;
    const judged = current.length ? current : counted;
    let severity: Severity = 'info';
    let score = g.endsHit.size;
    for (const f of judged) {
      if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[severity]) severity = f.severity;
      score += SEVERITY_RANK[f.severity];
    }
    const reasons: string[] = [];
    for (const f of [...counted].sort((x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity])) {
      const r = FLAP_KINDS.has(f.kind) ? flapReason(counted) : (f.short ?? f.title);
      if (!reasons.includes(r)) reasons.push(r);
    }
    const state: WorklistState = live.some((f) => f.state === 'open') ? 'open' : live.length ? 'acknowledged' : 'fixed';
    const prior = input.priorFixes?.get(g.key) ?? 0;
    // Counts with no rate cannot say the errors still happen: measure before touching the cable.
    const measureFirst = judged.every((f) => isNoRateKind(f.kind));
    let clearedAt: string | undefined;
    if (live.length && !current.length)
      for (const f of live) if (!clearedAt || f.clearedAt! > clearedAt) clearedAt = f.clearedAt;
    const facts = (r: PortRef) => ({
      guid: r.nodeGuid,
      port: r.portNum,
      type: nodes.get(r.nodeGuid)?.type,
      tier: input.tiers?.get(r.nodeGuid),
    });
    const refs = g.refs.length === 2 ? orderLinkEnds(g.refs[0]!, g.refs[1]!, facts) : g.refs;
    entries.push({
      ...(clearedAt ? { clearedAt } : {}),
      key: g.key,
      ends: refs.map((r) => endOf(r, nodes, ports, cables, input.lookup)),
      severity,
      reasons,
      findingKeys: [...new Set(g.findings.map((f) => findingKey(f)))],
      actions: measureFirst ? [MEASURE_FIRST, ...actionLadder(prior)] : actionLadder(prior),
      priorFixes: prior,
      repeatOffender: prior > 0,
      state,
      score,
    });
  }
  const stateRank: Record<FindingState | WorklistState, number> = { open: 2, acknowledged: 1, fixed: 0, resolved: 0 };
  // Cleared entries (open or acknowledged, nothing observed any more) just above fixed ones.
  const rank = (e: ReseatEntry) => (e.clearedAt !== undefined ? 0.5 : stateRank[e.state]);
  return entries.sort(
    (a, b) =>
      rank(b) - rank(a) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.score - a.score ||
      (a.key < b.key ? -1 : 1),
  );
}

/**
 * Kinds that each report a link going down: its state (`link-down`, a topology scan saw it
 * dark), LinkDownedCounter (`link-downed`, on each end) and the flap history (`link-flapping`).
 * One flap raises all of them, so the worklist gives them one reason.
 */
const FLAP_KINDS: ReadonlySet<string> = new Set(['link-down', 'link-downed', 'link-flapping']);

/**
 * The one reason of a link's flap findings: `link down (Polling)` while a scan saw it down,
 * with the count of the flap history (`link flapped 3 times in 24 h`) or else of the counter
 * (`link went down 1x`): `link down (Polling); flapped 3 times in 24 h`.
 */
export function flapReason(findings: readonly Pick<Finding, 'kind' | 'short' | 'title'>[]): string {
  const text = (kind: string) => {
    const f = findings.find((x) => x.kind === kind);
    return f ? (f.short ?? f.title) : undefined;
  };
  const down = text('link-down');
  const count = text('link-flapping') ?? text('link-downed');
  if (down && count) return `${down}; ${count.replace(/^link /, '')}`;
  return down ?? count ?? '';
}

function endOf(
  r: PortRef,
  nodes: Map<string, FabricNode>,
  ports: Map<string, FabricPort>,
  cables: Map<string, CableInfo>,
  lookup?: (g: Guid) => NodeLocation | undefined,
): WorklistEnd {
  const n = nodes.get(r.nodeGuid);
  const loc = lookup?.(r.nodeGuid);
  const p = ports.get(portKey(r));
  const end: WorklistEnd = {
    nodeGuid: r.nodeGuid,
    portNum: r.portNum,
    name: loc?.name ?? n?.description ?? r.nodeGuid,
  };
  if (n) end.nodeType = n.type;
  // Switch LIDs live on port 0 (the node), CA LIDs on each port.
  const lid = p?.lid ?? (n?.type === 'switch' ? n.lid : undefined);
  if (lid !== undefined) end.lid = lid;
  if (loc?.rack) end.rack = loc.rack;
  if (loc?.u !== undefined) end.u = loc.u;
  if (loc?.location) end.location = loc.location;
  const c = cables.get(portKey(r));
  if (c) {
    const { nodeGuid: _g, portNum: _p, ...cable } = c;
    end.cable = cable;
  }
  return end;
}
