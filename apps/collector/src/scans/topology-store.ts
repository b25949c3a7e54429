import {
  asBuiltVerdicts,
  evaluateLinks,
  inferTopology,
  linkKey,
  linkTierOf,
  PortIndex,
  tableFromPortCounters,
  topologyAnomalies,
  type FabricLink,
  type FabricNode,
  type FabricPort,
  type FabricSnapshot,
  type PortRef,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createTopologyRepo } from '../db/topology-repo.ts';
import { allLinkEnds, allNodes, linkTiers, setLinkTiers } from '../db/graph-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { syncFindings, TOPOLOGY_KINDS } from './findings-sync.ts';
import { refreshLinkHealth } from './link-health-store.ts';
import { asBuiltRows } from '../analysis/as-built.ts';

export interface TopologyInput {
  nodes: FabricNode[];
  ports: FabricPort[];
  links: FabricLink[];
}

/** The fabric as the database knows it before this scan: every link ever seen, ends as last seen Active. */
function knownGraph(db: Db): FabricSnapshot {
  const rows = allLinkEnds(db);
  const links = rows.map((r) => ({ a: { nodeGuid: r.ag, portNum: r.ap }, b: { nodeGuid: r.bg, portNum: r.bp } }));
  // A link is only stored once both ends were up, so "previously Active" is true of every
  // stored link: a link-down verdict then holds for as long as an end stays down, instead of
  // firing once and auto-resolving while the cable is still dark.
  // Literals, not `{ ...l.a, state }`: on Node 20 every object a spread makes in a hot loop gets
  // a hidden class of its own (~200 bytes more each, 63k of them here).
  const activeEnd = (e: PortRef) => ({ nodeGuid: e.nodeGuid, portNum: e.portNum, state: 'Active' as const });
  const ports = links.flatMap((l) => [activeEnd(l.a), activeEnd(l.b)]);
  const nodes = allNodes(db);
  return {
    source: 'diags',
    nodes,
    ports,
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
 * wrong-rail cabling and asymmetric switches. Runs inside the scan's transaction.
 */
export function storeTopology(
  db: Db,
  config: Config,
  names: NameBook,
  scanId: number,
  at: number,
  t: TopologyInput,
): Record<string, number> {
  const repo = createTopologyRepo(db);
  const before = knownGraph(db);
  const changes = repo.ingest(scanId, at, t.nodes, t.ports, t.links, true);

  const nodes = allNodes(db);
  const modelled = t.links.length ? t.links : before.links;
  const model = inferTopology({ nodes, links: modelled });
  repo.setTiers(
    nodes.map((n) => ({
      guid: n.guid,
      tier: model.tiers.get(n.guid) ?? null,
      rail: model.rails.get(n.guid) ?? model.leafRails.get(n.guid)?.rail ?? null,
    })),
  );
  const tierChanges: [number, string][] = [];
  // The tier inferTopology gave a link is that of its ends' tiers: read so for a link it was
  // given (its ends are peers there), without the `linkKey` string per link (136k at 45k GPUs).
  const peers = new PortIndex<PortRef>();
  for (const l of modelled) {
    peers.set(l.a.nodeGuid, l.a.portNum, l.b);
    peers.set(l.b.nodeGuid, l.b.portNum, l.a);
  }
  const isPeer = (g: string, n: number, pg: string, pn: number) => {
    const p = peers.get(g, n);
    return p !== undefined && p.nodeGuid === pg && p.portNum === pn;
  };
  for (const l of linkTiers(db)) {
    const tier =
      isPeer(l.ag, l.ap, l.bg, l.bp) || isPeer(l.bg, l.bp, l.ag, l.ap)
        ? linkTierOf(model.tiers.get(l.ag), model.tiers.get(l.bg))
        : model.linkTiers.get(linkKey({ nodeGuid: l.ag, portNum: l.ap }, { nodeGuid: l.bg, portNum: l.bp }));
    // Only links whose tier changed: rewriting all 30k every topology scan was a second at 10k GPUs.
    if (tier && tier !== l.tier) tierChanges.push([l.id, tier]);
  }
  // One statement: every link is new at a fabric's first scan (31k at 10k GPUs).
  if (tierChanges.length) setLinkTiers(db, tierChanges);

  const current: FabricSnapshot = { ...before, nodes, ports: t.ports, links: t.links };
  const descByGuid = new Map(nodes.map((n) => [n.guid, n.description]));
  const nameOf = (g: string) => names.name(g, descByGuid.get(g));
  const verdicts = [
    ...evaluateLinks(current, { previous: before, expected: config.expectedRate, nodeName: nameOf }),
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
