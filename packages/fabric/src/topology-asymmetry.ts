import type { Severity, Verdict } from './findings.ts';
import { linkTiersOf, type TopologyModel } from './topology-model.ts';
import type { FabricLink, FabricNode, Guid } from './types.ts';

/**
 * Cable-count asymmetry inside a fat tree, judged per pod.
 *
 * A pod is a connected component of the leaf–spine bipartite graph (2 tiers: the whole fabric is
 * one pod). Comparing every spine with every other spine flagged each spine of a partially
 * populated pod (the lab's 256-GPU 3-tier tree: "spine spine-p2-01 has 16 down links; most spines
 * have 20"), which is a design, not a fault. So leaves and spines are compared with the siblings
 * of their own pod, and cores per pod: "how many links does this core have into pod P" against
 * the other cores that reach pod P.
 *
 * One missing cable shows at both ends (a leaf one uplink short, its spine one downlink short).
 * Technicians need one ticket per cable, so when the short upper switch is explained by the short
 * lower switch it is folded into the lower switch's verdict, which names it.
 */

type Graph = { nodes: FabricNode[]; links: FabricLink[] };
type Dir = 'up' | 'down';

/** One switch's count in one comparison group (a switch is in several groups only as a core). */
interface Entry {
  guid: Guid;
  group: string;
  count: number;
}

interface Layer {
  lower: 'leaf' | 'spine';
  upper: 'spine' | 'core';
}

const LAYERS: Layer[] = [
  { lower: 'leaf', upper: 'spine' },
  { lower: 'spine', upper: 'core' },
];

/** Most common value; ties go to the larger value (a fabric is more often short than over-cabled). */
function mode(values: Iterable<number>): number {
  const hist = new Map<number, number>();
  for (const v of values) hist.set(v, (hist.get(v) ?? 0) + 1);
  let best = 0;
  let bestCount = -1;
  for (const [v, c] of hist) if (c > bestCount || (c === bestCount && v > best)) [best, bestCount] = [v, c];
  return best;
}

/**
 * Pod of each leaf and spine: union-find over leaf–spine links. A pod is identified by its
 * smallest spine GUID (smallest GUID when it has no spine), so titles can say "pod of spine-p2-01".
 */
export function podsOf(
  model: TopologyModel,
  g: Graph,
  linkTiers: readonly (string | undefined)[] = tiersOfLinks(model, g),
): Map<Guid, Guid> {
  const parent = new Map<Guid, Guid>();
  const find = (x: Guid): Guid => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let y = x; y !== r; ) {
      const next = parent.get(y)!;
      parent.set(y, r);
      y = next;
    }
    return r;
  };
  for (const [guid, t] of model.tiers) if (t === 'leaf' || t === 'spine') parent.set(guid, guid);
  for (let i = 0; i < g.links.length; i++) {
    if (linkTiers[i] !== 'leaf-spine') continue;
    const l = g.links[i]!;
    const ra = find(l.a.nodeGuid);
    const rb = find(l.b.nodeGuid);
    if (ra !== rb) parent.set(ra, rb);
  }
  const label = new Map<Guid, Guid>();
  const better = (cur: Guid | undefined, g: Guid): boolean => {
    if (cur === undefined) return true;
    const [ct, gt] = [model.tiers.get(cur) === 'spine', model.tiers.get(g) === 'spine'];
    return ct === gt ? g < cur : gt;
  };
  for (const guid of parent.keys()) {
    const r = find(guid);
    if (better(label.get(r), guid)) label.set(r, guid);
  }
  const pods = new Map<Guid, Guid>();
  for (const guid of parent.keys()) pods.set(guid, label.get(find(guid))!);
  return pods;
}

/** Tier of each link of `g`, by index: looked up once, read three times. */
function tiersOfLinks(model: TopologyModel, g: Graph): (string | undefined)[] {
  return linkTiersOf(model, g.links);
}

export function asymmetry(model: TopologyModel, g: Graph, name: (x: Guid) => string): Verdict[] {
  const linkTiers = tiersOfLinks(model, g);
  const pods = podsOf(model, g, linkTiers);
  const out: Verdict[] = [];
  for (const layer of LAYERS) out.push(...layerAsymmetry(model, g, linkTiers, pods, layer, name));
  return out;
}

function layerAsymmetry(
  model: TopologyModel,
  g: Graph,
  linkTiers: readonly (string | undefined)[],
  pods: Map<Guid, Guid>,
  layer: Layer,
  name: (x: Guid) => string,
): Verdict[] {
  const kind = layer.lower === 'leaf' ? 'leaf-spine' : 'spine-core';
  // pair[lower][upper] = number of cables between the two switches
  const pair = new Map<Guid, Map<Guid, number>>();
  for (let i = 0; i < g.links.length; i++) {
    if (linkTiers[i] !== kind) continue;
    const l = g.links[i]!;
    const [lo, hi] =
      model.tiers.get(l.a.nodeGuid) === layer.lower ? [l.a.nodeGuid, l.b.nodeGuid] : [l.b.nodeGuid, l.a.nodeGuid];
    let m = pair.get(lo);
    if (!m) pair.set(lo, (m = new Map()));
    m.set(hi, (m.get(hi) ?? 0) + 1);
  }
  // Lower switches: one entry each, grouped by their pod (switches without links count 0).
  const lowerEntries: Entry[] = [];
  for (const [guid, t] of model.tiers) {
    if (t !== layer.lower) continue;
    let count = 0;
    for (const c of pair.get(guid)?.values() ?? []) count += c;
    lowerEntries.push({ guid, group: pods.get(guid) ?? guid, count });
  }
  // Upper switches: per pod of the lower end. A spine has one pod; a core gets one entry per pod
  // it reaches, so a smaller pod only ever meets cores that reach that same pod.
  const upperCounts = new Map<string, Entry>();
  const perUpper = new Map<Guid, number[]>();
  for (const [lo, m] of pair) {
    const group = pods.get(lo) ?? lo;
    for (const [hi, c] of m) {
      const k = `${hi} ${group}`;
      const e = upperCounts.get(k) ?? { guid: hi, group, count: 0 };
      e.count += c;
      upperCounts.set(k, e);
      const cs = perUpper.get(hi);
      if (cs) cs.push(c);
      else perUpper.set(hi, [c]);
    }
  }
  // Cables per lower neighbour that the upper switch normally has (4 in the lab's leaf–spine tier).
  const cablesPerPeer = new Map<Guid, number>();
  for (const [hi, cs] of perUpper) cablesPerPeer.set(hi, mode(cs));

  const lowOut = outliers(lowerEntries);
  const upOut = outliers([...upperCounts.values()]);
  const out: Verdict[] = [];
  // Fold a short upper switch into the short lower switches of its group that are short of it.
  const explained = new Set<Entry>();
  const peersOf = new Map<Entry, Guid[]>();
  for (const [group, lows] of groupBy(lowOut.filter((o) => o.entry.count < o.typical))) {
    const ups = upOut.filter((o) => o.entry.group === group && o.entry.count < o.typical);
    for (const u of ups) {
      const missingTo = lows.filter((lo) => {
        const n = pair.get(lo.entry.guid)?.get(u.entry.guid) ?? 0;
        // n = 0 is only trusted when the case is unambiguous: spine j of a pod reaches only the
        // cores of plane j, so most (spine, core) pairs are 0 by design.
        return n < (cablesPerPeer.get(u.entry.guid) ?? 0) && (n > 0 || (lows.length === 1 && ups.length === 1));
      });
      const covered = missingTo.reduce(
        (s, lo) => s + (cablesPerPeer.get(u.entry.guid)! - (pair.get(lo.entry.guid)?.get(u.entry.guid) ?? 0)),
        0,
      );
      if (missingTo.length === 0 || covered < u.typical - u.entry.count) continue;
      explained.add(u.entry);
      for (const lo of missingTo) peersOf.set(lo.entry, [...(peersOf.get(lo.entry) ?? []), u.entry.guid]);
    }
  }
  for (const o of lowOut) out.push(verdict(o, layer.lower, 'up', name, peersOf.get(o.entry) ?? []));
  for (const o of upOut) if (!explained.has(o.entry)) out.push(verdict(o, layer.upper, 'down', name, []));
  return out;
}

interface Outlier {
  entry: Entry;
  typical: number;
  siblings: number;
}

/** Entries whose count differs from their group's mode; groups under 3 members or mode 0 say nothing. */
function outliers(entries: Entry[]): Outlier[] {
  const out: Outlier[] = [];
  for (const [, members] of groupBy(entries.map((entry) => ({ entry })))) {
    if (members.length < 3) continue;
    const typical = mode(members.map((m) => m.entry.count));
    if (typical === 0) continue; // e.g. a 2-tier fabric has no spine uplinks
    for (const m of members)
      if (m.entry.count !== typical) out.push({ entry: m.entry, typical, siblings: members.length - 1 });
  }
  return out;
}

function groupBy<T extends { entry: Entry }>(xs: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const l = m.get(x.entry.group);
    if (l) l.push(x);
    else m.set(x.entry.group, [x]);
  }
  return m;
}

function verdict(o: Outlier, tier: string, dir: Dir, name: (x: Guid) => string, peers: Guid[]): Verdict {
  const n = o.entry.count;
  const sev: Severity = n * 2 <= o.typical ? 'major' : 'minor';
  const pod = name(o.entry.group);
  const peersText =
    tier === 'core'
      ? `into the pod of ${pod}; the ${o.siblings} other cores reaching that pod mostly have ${o.typical}`
      : `; the ${o.siblings} other ${tier === 'leaf' ? 'leaves' : 'spines'} of its pod (pod of ${pod}) ` +
        `mostly have ${o.typical}`;
  const toward = peers.length ? `, short of cables to ${peers.map(name).join(', ')}` : '';
  return {
    kind: `topology-asymmetric-${dir}`,
    severity: sev,
    subject: { kind: 'node', guid: o.entry.guid },
    title: `${tier} ${name(o.entry.guid)} has ${n} ${dir} links${tier === 'core' ? ' ' : ''}${peersText}${toward}`,
    short: `${n}/${o.typical} ${dir}links${peers.length ? ' to ' + peers.map(name).join(', ') : ''}`,
    evidence: { tier, direction: dir, links: n, typical: o.typical, pod: o.entry.group, peers: peers.map(name) },
  };
}
