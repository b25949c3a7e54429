/**
 * The infiniband-diags `--node-name-map` file, with the rack location in a trailing comment.
 *
 * Format, one node per line: `0x<node guid> "<name>" # rack=<RACK> u=<U>`. The diags parser
 * (rdma-core `node_name_map.c`) reads the GUID and the quoted name and ignores the rest of the
 * line; verified with `ibnetdiscover --node-name-map`, which printed the mapped name. Rack ids:
 * `R..` compute racks (4 DGX per rack), `N..` the leaf rack of a scalable unit, `S..` spine
 * racks, `C..` core racks, `M01` management (head nodes and their leaf).
 */
import type { Guid } from '@ibwatch/fabric';
import type { Topology } from './topology.ts';

/** Writes the node-name-map text (a header comment, then one line per node). */
export function writeNodeNameMap(topo: Topology): string {
  const lines = ['# ibwatch lab node-name-map: 0xGUID "name" # rack=<rack> u=<unit>'];
  for (const n of topo.nodes) lines.push(`${n.guid} "${n.name}" # rack=${n.rack} u=${n.u}`);
  return lines.join('\n') + '\n';
}

/** One parsed node-name-map entry. */
export interface NodeNameMapEntry {
  guid: Guid;
  name: string;
  rack?: string;
  u?: number;
}

/**
 * Parses node-name-map text (ours or a site's). Lines without a GUID and a quoted name are
 * skipped; the rack comment is optional.
 */
export function parseNodeNameMap(text: string): NodeNameMapEntry[] {
  const out: NodeNameMapEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(0x[0-9a-fA-F]{1,16})\s+"([^"]*)"(.*)$/.exec(line);
    if (!m) continue;
    const entry: NodeNameMapEntry = { guid: '0x' + m[1].slice(2).toLowerCase().padStart(16, '0'), name: m[2] };
    const rack = /rack=(\S+)/.exec(m[3]);
    const u = /\bu=(\d+)/.exec(m[3]);
    if (rack) entry.rack = rack[1];
    if (u) entry.u = Number(u[1]);
    out.push(entry);
  }
  return out;
}
