/**
 * The lab's names for the generated fat-tree. The generator and its model live in @ibwatch/fabric
 * (fat-tree/), the one fabric generator that the lab, benchmarks and tests share.
 */
export {
  fatTreeNodesByName as nodesByName,
  fatTreePortTable as portTable,
  type FatTree as Topology,
  type FatTreeEnd as TopoEnd,
  type FatTreeLink as TopoLink,
  type FatTreeNode as TopoNode,
  type FatTreeRole as TopoRole,
  type FatTreeShape as TopologyShape,
} from '@ibwatch/fabric';
