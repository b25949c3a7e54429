/**
 * Pure fat-tree layout: tiers top to bottom (core, spine, leaf, HCAs), leaves in slots of equal
 * width, spines and cores ordered by the mean position of what they connect to (fewer
 * crossings), and HCAs either aggregated into one "N HCAs" box per leaf or laid out as a grid
 * under their leaf. A SHARP Aggregation Node is drawn beside the switch it lives in; nodes of
 * tier `unknown` (or of a tier this code does not know) get a row of their own at the bottom.
 * No DOM, no canvas: unit-tested in layout.test.ts.
 */
import type { LinkHealth, TopoLink, TopoNode, TopologyReply } from '@ibwatch/fabric';
import { HEALTH_RANK } from '../../lib/status.ts';
import { sharedPrefix } from './labels.ts';

/** The API's tier (taken from TopoNode so a same-named analysis type can't shadow it). */
export type Tier = TopoNode['tier'];

export interface LayoutOptions {
  /** One box per HCA (zoomed in) instead of one "N HCAs" box per leaf. */
  expandHcas?: boolean;
  /** Leaf order: by rail (rail-optimised fabrics read left to right per rail) or by name. */
  groupBy?: 'rail' | 'name';
  /** Width of one leaf's slot in world units. */
  slot?: number;
  /** Vertical distance between tiers in world units. */
  tierGap?: number;
}

export type LayoutKind = 'switch' | 'hca' | 'group' | 'aggregation' | 'other';

export interface LayoutNode {
  /** GUID, or `grp:<leaf guid>` for an aggregate box. */
  id: string;
  kind: LayoutKind;
  tier: Tier;
  label: string;
  /** Centre and size in world units. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Worst health of the links drawn to this node. */
  health: LinkHealth;
  /** Group boxes: the HCA GUIDs inside and the leaf they hang from. */
  members?: string[];
  leaf?: string;
  /** Aggregation Nodes: the switch they live in. */
  host?: string;
}

export interface LayoutEdge {
  /** Index into reply.links, or -1 for an aggregated leaf→group edge. */
  link: number;
  /** Link ids this edge stands for (one, or all of a group's). */
  linkIds: number[];
  a: number;
  b: number;
  health: LinkHealth;
}

export interface TopoLayout {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  /** Every node GUID of the reply → index of the layout node drawn for it. */
  nodeOf: Map<string, number>;
  /** Rows present, top to bottom, with their y; `aggregation`: Aggregation Nodes drawn in the row. */
  tiers: { tier: Tier; y: number; count: number; aggregation?: number }[];
  width: number;
  height: number;
  /** Number of aggregate HCA boxes. */
  groups: number;
  /** Links skipped because an end is not a known node. */
  unplaced: number;
  /** What the names of each tier's nodes share (`spine-`): dropped from labels too wide for their box. */
  labelPrefix: Partial<Record<Tier, string>>;
}

const TIER_ORDER: Tier[] = ['core', 'spine', 'leaf', 'hca'];
const SWITCH_TIERS = ['core', 'spine', 'leaf'] as const;
const KNOWN_TIERS = new Set<string>([...TIER_ORDER, 'aggregation', 'unknown']);
/** Share of a switch's box an Aggregation Node beside it takes. */
export const AN_SHARE = 0.3;
const collator = new Intl.Collator('en', { numeric: true });

export const NODE_H = 28;
export const SWITCH_W_RATIO = 0.8;
export const HCA_PITCH_X = 28;
export const HCA_PITCH_Y = 20;

function worse(a: LinkHealth, b: LinkHealth): LinkHealth {
  return HEALTH_RANK[b] > HEALTH_RANK[a] ? b : a;
}

/** Order ids by the mean x of their neighbours already placed; unplaced neighbours go last. */
function barycentreOrder(
  ids: string[],
  neighbours: Map<string, string[]>,
  xOf: Map<string, number>,
  names: Map<string, string>,
): string[] {
  const key = new Map<string, number>();
  for (const id of ids) {
    let sum = 0;
    let n = 0;
    for (const nb of neighbours.get(id) ?? []) {
      const x = xOf.get(nb);
      if (x !== undefined) {
        sum += x;
        n++;
      }
    }
    key.set(id, n ? sum / n : Number.POSITIVE_INFINITY);
  }
  return [...ids].sort((a, b) => key.get(a)! - key.get(b)! || collator.compare(names.get(a) ?? a, names.get(b) ?? b));
}

export function layoutTopology(reply: TopologyReply, opts: LayoutOptions = {}): TopoLayout {
  const slot = opts.slot ?? 120;
  const tierGap = opts.tierGap ?? 220;
  const groupBy = opts.groupBy ?? 'rail';
  const expand = opts.expandHcas ?? false;

  const names = new Map<string, string>();
  const byTier: Record<Tier, string[]> = { core: [], spine: [], leaf: [], hca: [], aggregation: [], unknown: [] };
  const tierOf = new Map<string, Tier>();
  const railOf = new Map<string, number | null>();
  const hostOf = new Map<string, string>();
  const typeOf = new Map<string, TopoNode['type']>();
  for (const n of reply.nodes) {
    // A tier a newer collector sends is drawn as unknown rather than breaking the page.
    const tier: Tier = KNOWN_TIERS.has(n.tier) ? n.tier : 'unknown';
    names.set(n.guid, n.name);
    byTier[tier].push(n.guid);
    tierOf.set(n.guid, tier);
    typeOf.set(n.guid, n.type);
    railOf.set(n.guid, n.rail);
    if (n.host) hostOf.set(n.guid, n.host);
  }

  // Adjacency between tiers, and each HCA's leaf (its first link to a leaf).
  const neighbours = new Map<string, string[]>();
  const leafOfHca = new Map<string, string>();
  const add = (a: string, b: string) => {
    const l = neighbours.get(a);
    if (l) l.push(b);
    else neighbours.set(a, [b]);
  };
  for (const l of reply.links) {
    const ta = tierOf.get(l.a.guid);
    const tb = tierOf.get(l.b.guid);
    if (!ta || !tb) continue;
    add(l.a.guid, l.b.guid);
    add(l.b.guid, l.a.guid);
    if (ta === 'hca' && tb === 'leaf' && !leafOfHca.has(l.a.guid)) leafOfHca.set(l.a.guid, l.b.guid);
    if (tb === 'hca' && ta === 'leaf' && !leafOfHca.has(l.b.guid)) leafOfHca.set(l.b.guid, l.a.guid);
  }

  // HCAs per leaf (sorted by host, then name); HCAs without a leaf share one orphan box.
  const hcasOfLeaf = new Map<string, string[]>();
  const ORPHAN = '';
  for (const h of byTier.hca) {
    const leaf = leafOfHca.get(h) ?? ORPHAN;
    const arr = hcasOfLeaf.get(leaf);
    if (arr) arr.push(h);
    else hcasOfLeaf.set(leaf, [h]);
  }
  for (const arr of hcasOfLeaf.values()) {
    arr.sort(
      (a, b) =>
        collator.compare(hostOf.get(a) ?? '', hostOf.get(b) ?? '') || collator.compare(names.get(a)!, names.get(b)!),
    );
  }

  // Leaf order: by dominant rail of its HCAs (rail-optimised fabrics), then name.
  const leafRail = new Map<string, number>();
  for (const leaf of byTier.leaf) {
    const counts = new Map<number, number>();
    for (const h of hcasOfLeaf.get(leaf) ?? []) {
      const r = railOf.get(h);
      if (r !== null && r !== undefined) counts.set(r, (counts.get(r) ?? 0) + 1);
    }
    let best = Number.POSITIVE_INFINITY;
    let bestN = 0;
    for (const [r, n] of counts) if (n > bestN || (n === bestN && r < best)) [best, bestN] = [r, n];
    leafRail.set(leaf, best);
  }
  const leaves = [...byTier.leaf].sort(
    (a, b) =>
      (groupBy === 'rail' ? leafRail.get(a)! - leafRail.get(b)! || 0 : 0) ||
      collator.compare(names.get(a)!, names.get(b)!),
  );

  const hasOrphans = hcasOfLeaf.has(ORPHAN);
  const leafSlots = leaves.length + (hasOrphans ? 1 : 0);
  const widest = Math.max(leafSlots, byTier.spine.length, byTier.core.length, 1);
  const width = widest * slot;
  const xOf = new Map<string, number>();
  const spread = (ids: string[]) => ids.forEach((id, i) => xOf.set(id, ((i + 0.5) * width) / ids.length));
  spread(leaves);
  // Switches with no leaf below them (2-tier fabrics) still get ordered, by name.
  const spines = barycentreOrder(byTier.spine, neighbours, xOf, names);
  spread(spines);
  const cores = barycentreOrder(byTier.core, neighbours, xOf, names);
  spread(cores);

  // Switches sharing one name (the real NDR run's eight leaves all say "Quantum-2 Mellanox
  // Technologies") are told apart by the end of their GUID, as the findings about them are.
  const nameCount = new Map<string, number>();
  for (const n of reply.nodes) if (n.type === 'switch') nameCount.set(n.name, (nameCount.get(n.name) ?? 0) + 1);
  const labelOf = (id: string): string => {
    const name = names.get(id)!;
    return (nameCount.get(name) ?? 0) > 1 ? `${name} 0x…${id.slice(-4)}` : name;
  };

  // Each Aggregation Node beside the switch it is cabled to (port 65 of a Quantum-2 switch).
  const ansOf = new Map<string, string[]>();
  for (const an of byTier.aggregation) {
    const sw = (neighbours.get(an) ?? []).find((g) => (SWITCH_TIERS as readonly string[]).includes(tierOf.get(g)!));
    if (sw === undefined) byTier.unknown.push(an);
    else ansOf.set(sw, [...(ansOf.get(sw) ?? []), an]);
  }

  const present = TIER_ORDER.filter((t) => byTier[t].length > 0);
  const tiers: TopoLayout['tiers'] = present.map((tier, i) => ({
    tier,
    y: i * tierGap + NODE_H,
    count: byTier[tier].length,
  }));
  const yOf = (t: Tier) => tiers.find((x) => x.tier === t)?.y ?? 0;

  const nodes: LayoutNode[] = [];
  const nodeOf = new Map<string, number>();
  const swW = slot * SWITCH_W_RATIO;
  for (const tier of SWITCH_TIERS) {
    const ids = tier === 'core' ? cores : tier === 'spine' ? spines : leaves;
    const w = Math.min(swW, (width / Math.max(ids.length, 1)) * SWITCH_W_RATIO);
    const ans = ids.reduce((n, id) => n + (ansOf.get(id)?.length ?? 0), 0);
    // A row with Aggregation Nodes gives each switch's box a share to them: [switch | AN].
    const anW = ans ? w * AN_SHARE : 0;
    const row = tiers.find((t) => t.tier === tier);
    if (row && ans) row.aggregation = ans;
    for (const id of ids) {
      const x = xOf.get(id)!;
      nodeOf.set(id, nodes.length);
      nodes.push({
        id,
        kind: 'switch',
        tier,
        label: labelOf(id),
        x: x - anW / 2,
        y: yOf(tier),
        w: w - anW,
        h: NODE_H,
        health: 'ok',
      });
      (ansOf.get(id) ?? []).forEach((an, k) => {
        nodeOf.set(an, nodes.length);
        nodes.push({
          id: an,
          kind: 'aggregation',
          tier: 'aggregation',
          label: 'AN',
          x: x + w / 2 - anW / 2 + 2,
          // A second Aggregation Node of one switch (none seen in the field) would stack below.
          y: yOf(tier) + k * NODE_H * 0.6,
          w: anW - 2,
          h: NODE_H * (k ? 0.5 : 1),
          health: 'ok',
          host: id,
        });
      });
    }
  }

  // HCAs: one box per leaf, or a grid under the leaf.
  const hcaY = yOf('hca');
  const cols = Math.max(1, Math.floor((slot * 0.95) / HCA_PITCH_X));
  let groups = 0;
  let height = (tiers[tiers.length - 1]?.y ?? 0) + NODE_H;
  const leafColumns: [string, number][] = leaves.map((l) => [l, xOf.get(l)!]);
  if (hasOrphans) leafColumns.push([ORPHAN, width - slot / 2]);
  for (const [leaf, lx] of leafColumns) {
    const hcas = hcasOfLeaf.get(leaf);
    if (!hcas) continue;
    if (!expand) {
      const idx = nodes.length;
      nodes.push({
        id: `grp:${leaf}`,
        kind: 'group',
        tier: 'hca',
        label: `${hcas.length} HCA${hcas.length === 1 ? '' : 's'}`,
        x: lx,
        y: hcaY,
        w: swW,
        h: NODE_H,
        health: 'ok',
        members: hcas,
        leaf: leaf || undefined,
      });
      for (const h of hcas) nodeOf.set(h, idx);
      groups++;
    } else {
      const rowW = Math.min(cols, hcas.length) * HCA_PITCH_X;
      hcas.forEach((h, i) => {
        const c = i % cols;
        const r = Math.floor(i / cols);
        nodeOf.set(h, nodes.length);
        const y = hcaY + r * HCA_PITCH_Y;
        height = Math.max(height, y + HCA_PITCH_Y);
        nodes.push({
          id: h,
          kind: 'hca',
          tier: 'hca',
          label: names.get(h)!,
          x: lx - rowW / 2 + (c + 0.5) * HCA_PITCH_X,
          y,
          w: HCA_PITCH_X - 4,
          h: HCA_PITCH_Y - 4,
          health: 'ok',
        });
      });
    }
  }

  // Nodes without a tier (reached from no HCA, or of a tier this code does not know): a row of
  // their own below everything else, so that they and their links are drawn, not dropped.
  if (byTier.unknown.length) {
    const y = height + tierGap / 2;
    tiers.push({ tier: 'unknown', y, count: byTier.unknown.length });
    const ids = [...byTier.unknown].sort((a, b) => collator.compare(names.get(a)!, names.get(b)!));
    const w = Math.min(swW, (width / ids.length) * SWITCH_W_RATIO);
    ids.forEach((id, i) => {
      nodeOf.set(id, nodes.length);
      const kind: LayoutKind = typeOf.get(id) === 'switch' ? 'switch' : 'other';
      nodes.push({
        id,
        kind,
        tier: 'unknown',
        label: labelOf(id),
        x: ((i + 0.5) * width) / ids.length,
        y,
        w,
        h: NODE_H,
        health: 'ok',
      });
    });
    height = y + NODE_H;
  }

  // Edges: one per link, except HCA links inside an aggregate, which merge per group.
  const edges: LayoutEdge[] = [];
  const groupEdge = new Map<string, LayoutEdge>();
  let unplaced = 0;
  reply.links.forEach((l: TopoLink, i) => {
    const a = nodeOf.get(l.a.guid);
    const b = nodeOf.get(l.b.guid);
    if (a === undefined || b === undefined) {
      unplaced++;
      return;
    }
    nodes[a].health = worse(nodes[a].health, l.health);
    nodes[b].health = worse(nodes[b].health, l.health);
    const ga = nodes[a].kind === 'group';
    const gb = nodes[b].kind === 'group';
    if (ga || gb) {
      const key = `${a}-${b}`;
      const e = groupEdge.get(key);
      if (e) {
        e.linkIds.push(l.id);
        e.health = worse(e.health, l.health);
      } else {
        const ne: LayoutEdge = { link: -1, linkIds: [l.id], a, b, health: l.health };
        groupEdge.set(key, ne);
        edges.push(ne);
      }
      return;
    }
    edges.push({ link: i, linkIds: [l.id], a, b, health: l.health });
  });

  const labelPrefix: Partial<Record<Tier, string>> = {};
  for (const t of TIER_ORDER)
    labelPrefix[t] = sharedPrefix(byTier[t].map((g) => (t === 'hca' ? names.get(g)! : labelOf(g))));
  return { nodes, edges, nodeOf, tiers, width, height, groups, unplaced, labelPrefix };
}

const edgeIndexCache = new WeakMap<TopoLayout, Map<number, number>>();

/** link id → index of the edge drawn for it (cached per layout). */
export function edgeIndexByLinkId(layout: TopoLayout): Map<number, number> {
  let m = edgeIndexCache.get(layout);
  if (!m) {
    m = new Map();
    layout.edges.forEach((e, i) => {
      for (const id of e.linkIds) m!.set(id, i);
    });
    edgeIndexCache.set(layout, m);
  }
  return m;
}
