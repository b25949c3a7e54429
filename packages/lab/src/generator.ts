/** The fat-tree generator, under the lab's names; it lives in @ibwatch/fabric (fat-tree/generate.ts). */
export {
  generateFatTree as generateTopology,
  planFatTree as planTopology,
  type FatTreeOptions as TopologyOptions,
} from '@ibwatch/fabric';
