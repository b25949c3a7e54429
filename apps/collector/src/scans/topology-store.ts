import {
  asBuiltVerdicts,
  evaluateLinks,
  inferTopology,
  linkTierOf,
  tableFromPortCounters,
  topologyAnomalies,
  type FabricLink,
  type FabricNode,
  type FabricPort,
  type FabricSnapshot,
  type FabricTier,
  type LinkTier,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createTopologyRepo } from '../db/topology-repo.ts';
import { allLinkEnds, allNodes, linkAndEndTiers, setLinkTiers } from '../db/graph-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { syncFindings, TOPOLOGY_KINDS } from './findings-sync.ts';
import { refreshLinkHealth } from './link-health-store.ts';
import { asBuiltRows } from '../analysis/as-built.ts';
import type { CounterBaseline } from './counter-baseline.ts';

export interface TopologyInput {
  nodes: FabricNode[];
  ports: FabricPort[];
  links: FabricLink[];
}

/**
 * The fabric as the database knows it before this scan: every link ever seen. A link is only
 * stored once both ends were up, so "previously Active" is true of every end of a stored link
 * (evaluateLinks' `previousLinkEndsActive`, instead of ~270k Active port records at 45k GPUs): a
 * link-down verdict then holds for as long as an end stays down, instead of firing once and
 * auto-resolving while the cable is still dark.
 */
function knownGraph(db: Db): FabricSnapshot {
  const rows = allLinkEnds(db);
  const links = rows.map((r) => ({ a: { nodeGuid: r.ag, portNum: r.ap }, b: { nodeGuid: r.bg, portNum: r.bp } }));
  const nodes = allNodes(db);
  return {
    source: 'diags',
    nodes,
    ports: [],
    links,
    counters: tableFromPortCounters([]),
    sms: [],
    cables: [],
    toolFindings: [],
    meta: {},
  };
}

/**
 * Stores one topology observation and judges it: tiers and rails, degraded and down links,
 * wrong-rail cabling and asymmetric switches. Runs inside the scan's transaction. With
 * `baseline` (a PM sweep follows in the same transaction), a fabric's first scan hands it the
 * ports it wrote, so the sweep does not read them back.
 */
export function storeTopology(
  db: Db,
  config: Config,
  names: NameBook,
  scanId: number,
  at: number,
  t: TopologyInput,
  baseline?: CounterBaseline,
): Record<string, number> {
  const repo = createTopologyRepo(db);
  const before = knownGraph(db);
  const modelOf = (nodes: FabricNode[]) => inferTopology({ nodes, links: t.links.length ? t.links : before.links });
  // The model needs only the stored nodes, which ingest writes first: inferred then, when ingest
  // has a new link to insert, so new links go in with their tier (the pass below is then over
  // the links stored before this scan only).
  let inferred: { nodes: FabricNode[]; model: ReturnType<typeof inferTopology> } | undefined;
  const changes = repo.ingest(scanId, at, t.nodes, t.ports, t.links, true, () => {
    const stored = allNodes(db);
    const model = modelOf(stored);
    inferred = { nodes: stored, model };
    // As the pass below reads them: a node's stored tier (setTiers), none for a GUID without a node row.
    const known = new Set(stored.map((n) => n.guid));
    const tierOf = (g: string) => (known.has(g) ? model.tiers.get(g) : undefined);
    return (a, b) => linkTierOf(tierOf(a), tierOf(b));
  });

  // Ingest wrote no row: the nodes table is the one knownGraph just read (no second 49k-row read at 45k GPUs).
  const nodes = inferred?.nodes ?? (changes.wrote ? allNodes(db) : before.nodes);
  const model = inferred?.model ?? modelOf(nodes);
  const tiersChanged = repo.setTiers(
    nodes.map((n) => ({
      guid: n.guid,
      tier: model.tiers.get(n.guid) ?? null,
      rail: model.rails.get(n.guid) ?? model.leafRails.get(n.guid)?.rail ?? null,
    })),
  );
  // A link's tier is that of its ends' nodes (linkTierOf), and setTiers just stored every
  // node's: read them with the links, for the links the model was given (the scan's, or all
  // stored ones without any), instead of a `linkKey` string and a look-up per link.
  const tierChanges: [number, string][] = [];
  const byPair = new Map<string | null, Map<string | null, LinkTier>>();
  const tierOf = (x: string | null, y: string | null): LinkTier => {
    let m = byPair.get(x);
    if (!m) byPair.set(x, (m = new Map()));
    let tier = m.get(y);
    if (tier === undefined)
      m.set(
        y,
        (tier = linkTierOf((x ?? undefined) as FabricTier | undefined, (y ?? undefined) as FabricTier | undefined)),
      );
    return tier;
  };
  // When no link was written and no node's tier changed, the links judged are the ones the
  // latest scan judged, against the same tiers: theirs are stored already. When every stored
  // link is new, each went in with the tier this pass would give it.
  if ((changes.wrote || tiersChanged > 0) && !changes.linksTiered)
    for (const [id, stored, ta, tb] of linkAndEndTiers(db)) {
      if (t.links.length && !changes.seenLinks.has(id)) continue;
      const tier = tierOf(ta, tb);
      // Only links whose tier changed: rewriting all 30k every topology scan was a second at 10k GPUs.
      if (tier !== stored) tierChanges.push([id, tier]);
    }
  // One statement: every link is new at a fabric's first scan (31k at 10k GPUs).
  if (tierChanges.length) setLinkTiers(db, tierChanges);

  const current: FabricSnapshot = { ...before, nodes, ports: t.ports, links: t.links };
  const descByGuid = new Map(nodes.map((n) => [n.guid, n.description]));
  // The topology version is final for this scan (ingest and setTiers bumped it).
  if (baseline && changes.firstPorts) baseline.seedTopology(changes.firstPorts, descByGuid);
  const nameOf = (g: string) => names.name(g, descByGuid.get(g));
  const verdicts = [
    ...evaluateLinks(current, {
      previous: before,
      previousLinkEndsActive: true,
      expected: config.expectedRate,
      nodeName: nameOf,
      // Ingest's index of the same ports (when it built one): not built again.
      ...(changes.listedPorts ? { currentPorts: changes.listedPorts } : {}),
    }),
    // Missing links and nodes are reported as link-down above (with the end that went dark);
    // the topology rules add what only the graph shows: wrong rail, moved cables, asymmetry.
    ...topologyAnomalies(model, current, { baseline: before, nodeName: nameOf }).filter(
      (v) => v.kind !== 'topology-link-missing' && v.kind !== 'topology-node-missing',
    ),
    // The cabling as built (`ibwatch baseline set|import`), when one is set.
    ...asBuiltVerdicts(asBuiltRows(db, names)?.rows ?? []),
  ];
  const findings = syncFindings(createFindingsRepo(db), verdicts, TOPOLOGY_KINDS, at, config.autoResolveMin * 60_000);
  refreshLinkHealth(db);
  return {
    nodes: t.nodes.length,
    ports: t.ports.length,
    links: t.links.length,
    newLinks: changes.newLinks,
    goneLinks: changes.goneLinks.length,
    stateChanges: changes.stateChanges.length,
    findingsOpened: findings.opened,
    findingsResolved: findings.resolved,
  };
}
