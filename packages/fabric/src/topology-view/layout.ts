/**
 * Pure fat-tree layout: tiers top to bottom (core, spine, leaf, HCAs), leaves in slots of equal
 * width, spines and cores ordered by the mean position of what they connect to (fewer
 * crossings), and HCAs either aggregated into one "N HCAs" box per leaf or laid out as a grid
 * under their leaf. A SHARP Aggregation Node is drawn beside the switch it lives in; nodes of
 * tier `unknown` (or of a tier this code does not know) get a row of their own at the bottom.
 * No DOM, no canvas: unit-tested in layout.test.ts.
 */
import type { LinkHealth, TopoNode } from '../index.ts';
import { HEALTHS, type TopoIndex } from './model.ts';
import { sharedPrefix } from './labels.ts';
import { layoutEdges, type LayoutEdges } from './layout-edges.ts';

export { edgeAt, edgeIndexByLinkId, edgeList, type LayoutEdge, type LayoutEdges } from './layout-edges.ts';

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
  /** Group boxes: how many HCAs they stand for, and the leaf they hang from. */
  hcas?: number;
  leaf?: string;
  /** Aggregation Nodes: the switch they live in. */
  host?: string;
}

export interface TopoLayout {
  nodes: LayoutNode[];
  edges: LayoutEdges;
  /** Every node GUID of the reply → index of the layout node drawn for it (no map of its own). */
  nodeOf: Pick<Map<string, number>, 'get' | 'has'>;
  /** Reply node index → index of the layout node drawn for it (-1: none). */
  drawnAs: Int32Array;
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
/** Share of a switch's box an Aggregation Node beside it takes. */
export const AN_SHARE = 0.3;
const collator = new Intl.Collator('en', { numeric: true });

export const NODE_H = 28;
export const SWITCH_W_RATIO = 0.8;
export const HCA_PITCH_X = 28;
export const HCA_PITCH_Y = 20;

/** Order node indices by the mean x of their neighbours already placed, then by index (name order). */
function barycentreOrder(idx: TopoIndex, ids: number[], xOf: Float64Array): number[] {
  const key = new Map<number, number>();
  for (const id of ids) {
    let sum = 0;
    let n = 0;
    for (let k = idx.linkStart[id]; k < idx.linkStart[id + 1]; k++) {
      const li = idx.linkList[k];
      const x = xOf[idx.endA[li] === id ? idx.endB[li] : idx.endA[li]];
      if (!Number.isNaN(x)) {
        sum += x;
        n++;
      }
    }
    key.set(id, n ? sum / n : Number.POSITIVE_INFINITY);
  }
  return [...ids].sort((a, b) => key.get(a)! - key.get(b)! || a - b);
}

/**
 * The layout, read from the reply's columns. The reply lists nodes by tier, then HCAs by host
 * and name, the others by name (natural order): a node's index is its place in name order, so
 * rows are ordered by comparing numbers (Intl.Collator compares took 2.2 s of this at 45k GPUs).
 */
export function layoutTopology(idx: TopoIndex, opts: LayoutOptions = {}): TopoLayout {
  const slot = opts.slot ?? 120;
  const tierGap = opts.tierGap ?? 220;
  const groupBy = opts.groupBy ?? 'rail';
  const expand = opts.expandHcas ?? false;

  const N = idx.reply.nodes;
  const n = idx.nodeCount;
  const names = N.name;
  const guids = N.guid;
  const byTier: Record<Tier, number[]> = { core: [], spine: [], leaf: [], hca: [], aggregation: [], unknown: [] };
  const tierOf = idx.tierOf;
  for (let i = 0; i < n; i++) byTier[tierOf[i]].push(i);

  const other = (li: number, i: number) => (idx.endA[li] === i ? idx.endB[li] : idx.endA[li]);

  // Each HCA's leaf: its first link to a leaf.
  const leafOfHca = new Int32Array(n).fill(-1);
  for (let li = 0; li < idx.linkCount; li++) {
    const a = idx.reply.links.a[li];
    const b = idx.reply.links.b[li];
    if (tierOf[a] === 'hca' && tierOf[b] === 'leaf' && leafOfHca[a] < 0) leafOfHca[a] = b;
    if (tierOf[b] === 'hca' && tierOf[a] === 'leaf' && leafOfHca[b] < 0) leafOfHca[b] = a;
  }

  // HCAs per leaf, in reply order (by host, then name); HCAs without a leaf share one orphan box.
  const hcasOfLeaf = new Map<number, number[]>();
  const ORPHAN = -1;
  for (const h of byTier.hca) {
    const leaf = leafOfHca[h];
    const arr = hcasOfLeaf.get(leaf);
    if (arr) arr.push(h);
    else hcasOfLeaf.set(leaf, [h]);
  }

  // Leaf order: by dominant rail of its HCAs (rail-optimised fabrics), then name.
  const leafRail = new Map<number, number>();
  for (const leaf of byTier.leaf) {
    const counts = new Map<number, number>();
    for (const h of hcasOfLeaf.get(leaf) ?? []) {
      const r = N.rail[h];
      if (r !== null && r !== undefined) counts.set(r, (counts.get(r) ?? 0) + 1);
    }
    let best = Number.POSITIVE_INFINITY;
    let bestN = 0;
    for (const [r, c] of counts) if (c > bestN || (c === bestN && r < best)) [best, bestN] = [r, c];
    leafRail.set(leaf, best);
  }
  const leaves = [...byTier.leaf].sort(
    (a, b) => (groupBy === 'rail' ? leafRail.get(a)! - leafRail.get(b)! || 0 : 0) || a - b,
  );

  const hasOrphans = hcasOfLeaf.has(ORPHAN);
  const leafSlots = leaves.length + (hasOrphans ? 1 : 0);
  const widest = Math.max(leafSlots, byTier.spine.length, byTier.core.length, 1);
  const width = widest * slot;
  const xOf = new Float64Array(n).fill(Number.NaN);
  const spread = (ids: number[]) => ids.forEach((id, i) => (xOf[id] = ((i + 0.5) * width) / ids.length));
  spread(leaves);
  // Switches with no leaf below them (2-tier fabrics) still get ordered, by name.
  const spines = barycentreOrder(idx, byTier.spine, xOf);
  spread(spines);
  const cores = barycentreOrder(idx, byTier.core, xOf);
  spread(cores);

  // Switches sharing one name (the real NDR run's eight leaves all say "Quantum-2 Mellanox
  // Technologies") are told apart by the end of their GUID, as the findings about them are.
  const nameCount = new Map<string, number>();
  const switchCode = idx.reply.vocab.nodeType.indexOf('switch');
  for (let i = 0; i < n; i++) if (N.type[i] === switchCode) nameCount.set(names[i], (nameCount.get(names[i]) ?? 0) + 1);
  const labelOf = (i: number): string => {
    const name = names[i];
    return (nameCount.get(name) ?? 0) > 1 ? `${name} 0x…${guids[i].slice(-4)}` : name;
  };

  // Each Aggregation Node beside the switch it is cabled to (port 65 of a Quantum-2 switch).
  const ansOf = new Map<number, number[]>();
  const unknown = [...byTier.unknown];
  for (const an of byTier.aggregation) {
    let sw = -1;
    for (let k = idx.linkStart[an]; k < idx.linkStart[an + 1] && sw < 0; k++) {
      const g = other(idx.linkList[k], an);
      if ((SWITCH_TIERS as readonly string[]).includes(tierOf[g])) sw = g;
    }
    if (sw < 0) unknown.push(an);
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
  // Reply node index → index of the layout node drawn for it (-1: none).
  const drawnAs = new Int32Array(n).fill(-1);
  const swW = slot * SWITCH_W_RATIO;
  for (const tier of SWITCH_TIERS) {
    const ids = tier === 'core' ? cores : tier === 'spine' ? spines : leaves;
    const w = Math.min(swW, (width / Math.max(ids.length, 1)) * SWITCH_W_RATIO);
    const ans = ids.reduce((c, id) => c + (ansOf.get(id)?.length ?? 0), 0);
    // A row with Aggregation Nodes gives each switch's box a share to them: [switch | AN].
    const anW = ans ? w * AN_SHARE : 0;
    const row = tiers.find((t) => t.tier === tier);
    if (row && ans) row.aggregation = ans;
    for (const id of ids) {
      const x = xOf[id];
      drawnAs[id] = nodes.length;
      nodes.push({
        id: guids[id],
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
        drawnAs[an] = nodes.length;
        nodes.push({
          id: guids[an],
          kind: 'aggregation',
          tier: 'aggregation',
          label: 'AN',
          x: x + w / 2 - anW / 2 + 2,
          // A second Aggregation Node of one switch (none seen in the field) would stack below.
          y: yOf(tier) + k * NODE_H * 0.6,
          w: anW - 2,
          h: NODE_H * (k ? 0.5 : 1),
          health: 'ok',
          host: guids[id],
        });
      });
    }
  }

  // HCAs: one box per leaf, or a grid under the leaf.
  const hcaY = yOf('hca');
  const cols = Math.max(1, Math.floor((slot * 0.95) / HCA_PITCH_X));
  let groups = 0;
  let height = (tiers[tiers.length - 1]?.y ?? 0) + NODE_H;
  const leafColumns: [number, number][] = leaves.map((l) => [l, xOf[l]]);
  if (hasOrphans) leafColumns.push([ORPHAN, width - slot / 2]);
  for (const [leaf, lx] of leafColumns) {
    const hcas = hcasOfLeaf.get(leaf);
    if (!hcas) continue;
    if (!expand) {
      const at = nodes.length;
      nodes.push({
        id: `grp:${leaf === ORPHAN ? '' : guids[leaf]}`,
        kind: 'group',
        tier: 'hca',
        label: `${hcas.length} HCA${hcas.length === 1 ? '' : 's'}`,
        x: lx,
        y: hcaY,
        w: swW,
        h: NODE_H,
        health: 'ok',
        hcas: hcas.length,
        leaf: leaf === ORPHAN ? undefined : guids[leaf],
      });
      for (const h of hcas) drawnAs[h] = at;
      groups++;
    } else {
      const rowW = Math.min(cols, hcas.length) * HCA_PITCH_X;
      hcas.forEach((h, i) => {
        const c = i % cols;
        const r = Math.floor(i / cols);
        drawnAs[h] = nodes.length;
        const y = hcaY + r * HCA_PITCH_Y;
        height = Math.max(height, y + HCA_PITCH_Y);
        nodes.push({
          id: guids[h],
          kind: 'hca',
          tier: 'hca',
          label: names[h],
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
  // their own below everything else, so that they and their links are drawn, not dropped. Few,
  // and of two tiers of the reply's order (unknown, aggregation): sorted by name here.
  if (unknown.length) {
    const y = height + tierGap / 2;
    tiers.push({ tier: 'unknown', y, count: unknown.length });
    const ids = unknown.sort((a, b) => collator.compare(names[a], names[b]) || a - b);
    const w = Math.min(swW, (width / ids.length) * SWITCH_W_RATIO);
    ids.forEach((id, i) => {
      drawnAs[id] = nodes.length;
      const kind: LayoutKind = N.type[id] === switchCode ? 'switch' : 'other';
      nodes.push({
        id: guids[id],
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
  const nodeOf = nodeOfDrawn(() => idx, drawnAs);

  const isGroup = Uint8Array.from(nodes, (x) => (x.kind === 'group' ? 1 : 0));
  const { edges, unplaced, worst } = layoutEdges(idx, isGroup, drawnAs);
  for (let k = 0; k < nodes.length; k++) if (worst[k]) nodes[k].health = HEALTHS[worst[k]];

  const labelPrefix: Partial<Record<Tier, string>> = {};
  for (const t of TIER_ORDER)
    labelPrefix[t] = sharedPrefix(byTier[t].map((g) => (t === 'hca' ? names[g] : labelOf(g))));
  return { nodes, edges, nodeOf, drawnAs, tiers, width, height, groups, unplaced, labelPrefix };
}

/**
 * `TopoLayout.nodeOf` from `drawnAs` (reply node index → layout node, -1: none) and the GUID map
 * of the index `index()` returns; no GUID is found while that is null (the collector's first
 * frame, before the page has the reply's index: frame.ts).
 */
export function nodeOfDrawn(index: () => TopoIndex | null, drawnAs: Int32Array): TopoLayout['nodeOf'] {
  return {
    get(guid) {
      const i = index()?.nodeIndex.get(guid);
      return i === undefined || drawnAs[i] < 0 ? undefined : drawnAs[i];
    },
    has(guid) {
      return this.get(guid) !== undefined;
    },
  };
}
