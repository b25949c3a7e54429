/**
 * A pasted iblinkinfo as link-health observations: its ports (placed through the topology: a
 * switch's by its GUID, a CA's by the port GUID on its line) judged by the live topology scan's
 * link rules, over the stored links whose two ends are both in the paste. A link seen before
 * with an end now Down is link-down; a width or speed below IBWATCH_EXPECTED_RATE is degraded.
 * Only findings about those ports and links are opened or cleared: a paste of one switch says
 * nothing of the rest of the fabric. The next topology scan judges everything again.
 */
import {
  evaluateLinks,
  type FabricLink,
  type FabricPort,
  type FabricSnapshot,
  type Guid,
  type PortRef,
  tableFromPortCounters,
} from '@ibwatch/fabric';
import type { LinkInfoPort } from '@ibwatch/parsers';
import type { Config } from '../config.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { allLinkEnds, allNodes, iteratePortGuids } from '../db/graph-queries.ts';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { TOPOLOGY_KINDS, syncFindings } from './findings-sync.ts';
import { endsOfSubjectKey, refreshLinkHealth } from './link-health-store.ts';

const endOf = (p: PortRef) => `${p.nodeGuid}/${p.portNum}`;

export function storeIblinkinfoPaste(
  db: Db,
  config: Config,
  names: NameBook,
  at: number,
  pasted: readonly LinkInfoPort[],
): Record<string, number> {
  const nodeOfPort = new Map<Guid, Guid>(iteratePortGuids(db) as Iterable<[Guid, Guid]>);
  const ports: FabricPort[] = [];
  const byLid = new Map<string, PortRef>();
  let unplaced = 0;
  for (const p of pasted) {
    const nodeGuid = p.nodeGuid ?? (p.portGuid ? nodeOfPort.get(p.portGuid) : undefined);
    if (nodeGuid === undefined) {
      unplaced++;
      continue;
    }
    const port: FabricPort = { nodeGuid, portNum: p.portNum, lid: p.lid, state: p.state, physState: p.physState };
    if (p.widthActive) port.widthActive = p.widthActive;
    if (p.speedActive) port.speedActive = p.speedActive;
    ports.push(port);
    byLid.set(`${p.lid}/${p.portNum}`, port);
  }
  const ends = new Set(ports.map(endOf));
  const links: FabricLink[] = [];
  for (const p of pasted) {
    const a = byLid.get(`${p.lid}/${p.portNum}`);
    const b = p.peer && byLid.get(`${p.peer.lid}/${p.peer.portNum}`);
    if (a && b && endOf(a) < endOf(b)) links.push({ a, b });
  }
  const known = allLinkEnds(db)
    .map((r) => ({ a: { nodeGuid: r.ag, portNum: r.ap }, b: { nodeGuid: r.bg, portNum: r.bp } }))
    .filter((l) => ends.has(endOf(l.a)) && ends.has(endOf(l.b)));
  const nodes = allNodes(db);
  const desc = new Map(nodes.map((n) => [n.guid, n.description]));
  const snapshot = (p: FabricPort[], l: FabricLink[]): FabricSnapshot => ({
    source: 'diags',
    nodes,
    ports: p,
    links: l,
    counters: tableFromPortCounters([]),
    sms: [],
    cables: [],
    toolFindings: [],
    meta: {},
  });
  const verdicts = evaluateLinks(snapshot(ports, links), {
    previous: snapshot([], known),
    previousLinkEndsActive: true,
    expected: config.expectedRate,
    nodeName: (g) => names.name(g, desc.get(g)),
  });
  // Findings about the pasted ports and the links between them, and nothing else.
  const repo = createFindingsRepo(db);
  const inPaste = (key: string) => endsOfSubjectKey(key).every((e) => ends.has(e));
  const scoped = { ...repo, liveKeys: () => repo.liveKeys().filter((f) => inPaste(f.subjectKey)) };
  const sync = syncFindings(scoped, verdicts, TOPOLOGY_KINDS, at, config.autoResolveMin * 60_000);
  refreshLinkHealth(db, ends);
  return {
    ports: pasted.length,
    placed: ports.length,
    unplaced,
    links: links.length,
    notActive: ports.filter((p) => p.state !== 'Active').length,
    findings: verdicts.length,
    findingsOpened: sync.opened,
    findingsCleared: sync.cleared,
  };
}
