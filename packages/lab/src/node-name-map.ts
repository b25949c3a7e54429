/**
 * The infiniband-diags `--node-name-map` file, with the rack location in a trailing comment.
 *
 * Format, one node per line: `0x<node guid> "<name>" # rack=<RACK> u=<U>`. The diags parser
 * (rdma-core `node_name_map.c`) reads the GUID and the quoted name and ignores the rest of the
 * line; verified with `ibnetdiscover --node-name-map`, which printed the mapped name. Rack ids:
 * `R..` compute racks (4 DGX per rack), `N..` the leaf rack of a scalable unit, `S..` spine
 * racks, `C..` core racks, `M01` management (head nodes and their leaf). Reading it back is
 * @ibwatch/parsers' `parseNodeNameMap`, as the collector does.
 */
import type { Topology } from './topology.ts';

/** Writes the node-name-map text (a header comment, then one line per node). */
export function writeNodeNameMap(topo: Topology): string {
  const lines = ['# ibwatch lab node-name-map: 0xGUID "name" # rack=<rack> u=<unit>'];
  for (const n of topo.nodes) lines.push(`${n.guid} "${n.name}" # rack=${n.rack} u=${n.u}`);
  return lines.join('\n') + '\n';
}
