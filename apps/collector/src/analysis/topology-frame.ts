import type { TopologyReply } from '@ibwatch/fabric';
import { frameStructure, frameTail, type FrameGroupBy, type FrameStructure } from '@ibwatch/fabric/topology-view';
import type { TopologyJson } from '../db/topology-json.ts';

/** The body of GET /api/topology/frame in two parts, as topology-json.ts's: kept head, per-sweep tail. */
export interface FrameParts {
  head: Buffer;
  tail: Buffer;
}

interface Kept {
  /** The topology reply's head the layouts were made from: a new one is a new topology. */
  of: Buffer;
  /** Per grouping: how links reach boxes and edges, and the reply's head as bytes (not also as text). */
  frames: Map<FrameGroupBy, { structure: Pick<FrameStructure, 'edgeOf' | 'boxA' | 'boxB'>; head: Buffer }>;
}

/**
 * GET /api/topology/frame: the topology view's first frame, laid out here once per topology and
 * grouping (~0.3 s of CPU at 45k GPUs, from the columns topology-json.ts keeps) so that a browser
 * draws it without parsing and laying out the 8 MB reply first. A sweep that recolours links
 * changes only the tail: the colours of the boxes and edges whose links are not ok.
 */
export function createTopologyFrames(json: TopologyJson) {
  let kept: Kept | null = null;

  function structureFor(head: Buffer, groupBy: FrameGroupBy) {
    if (kept?.of !== head) kept = { of: head, frames: new Map() };
    let f = kept.frames.get(groupBy);
    if (!f) {
      // The head ends in the comma after `endLids`: an empty problems list closes it.
      const reply = JSON.parse(`${head.toString()}"generatedAt":0,"problems":[]}`) as TopologyReply;
      const { head: json, edgeOf, boxA, boxB } = frameStructure(reply, groupBy);
      f = { structure: { edgeOf, boxA, boxB }, head: Buffer.from(json) };
      kept.frames.set(groupBy, f);
    }
    return f;
  }

  return {
    /** The reply for `groupBy` now; call after `json.ready()` (else the columns are built at once). */
    parts(groupBy: FrameGroupBy, generatedAt: number): FrameParts {
      const { head, problems } = json.parts(generatedAt);
      const f = structureFor(head, groupBy);
      return { head: f.head, tail: Buffer.from(frameTail(f.structure, generatedAt, problems)) };
    },
    /** Lays out the default grouping ahead of the first visitor (server.ts, after json.ready()). */
    warm(): void {
      this.parts('rail', Date.now());
    },
  };
}
export type TopologyFrames = ReturnType<typeof createTopologyFrames>;
