/**
 * A generated fat-tree as a scan would see it: nodes, every cabled port Active at the tree's
 * rate (or a link's own override), links by GUID. What fabric's analysis (tiers, anomalies)
 * reads, without going through the lab and the tools.
 */
import { CounterTableBuilder } from '../counter-table.ts';
import type { FabricLink, FabricNode, FabricPort, FabricSnapshot } from '../types.ts';
import type { FatTree } from './model.ts';

export function fatTreeSnapshot(t: FatTree): FabricSnapshot {
  const guidOf = new Map(t.nodes.map((n) => [n.name, n.guid]));
  const nodes: FabricNode[] = t.nodes.map((n) => ({
    guid: n.guid,
    type: n.type,
    description: n.name,
    numPorts: n.numPorts,
  }));
  const links: FabricLink[] = [];
  const ports: FabricPort[] = [];
  for (const l of t.links) {
    const a = { nodeGuid: guidOf.get(l.a.node)!, portNum: l.a.port };
    const b = { nodeGuid: guidOf.get(l.b.node)!, portNum: l.b.port };
    links.push({ a, b });
    for (const e of [a, b]) {
      ports.push({
        ...e,
        state: 'Active',
        physState: 'LinkUp',
        widthActive: l.width ?? t.width,
        speedActive: l.speed ?? t.speed,
      });
    }
  }
  return {
    source: 'diags',
    nodes,
    ports,
    links,
    counters: new CounterTableBuilder().build(),
    sms: [],
    cables: [],
    toolFindings: [],
    meta: {},
  };
}
