/**
 * Hit-testing in screen space, with the same geometry the canvas draws (nodeRect, centre to
 * centre edges), so what you click is what you see. Pure; tested in hit.test.ts.
 */
import type { TopoLayout } from '@ibwatch/fabric/topology-view';
import { nodeRect, toScreen, type View } from './viewport.ts';

export type Pick = { type: 'node'; index: number } | { type: 'edge'; index: number } | null;

/** Distance from point p to segment a-b. */
export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  const qx = ax + t * dx - px;
  const qy = ay + t * dy - py;
  return Math.sqrt(qx * qx + qy * qy);
}

/** What is under screen point (sx, sy)? Nodes win over edges; edges within `tol` px. */
export function pickAt(layout: TopoLayout, v: View, sx: number, sy: number, tol = 5): Pick {
  // Later nodes draw on top, so search backwards.
  for (let i = layout.nodes.length - 1; i >= 0; i--) {
    const r = nodeRect(v, layout.nodes[i]);
    if (sx >= r.x - 1 && sx <= r.x + r.w + 1 && sy >= r.y - 1 && sy <= r.y + r.h + 1) return { type: 'node', index: i };
  }
  let best = -1;
  let bestD = tol;
  for (let i = 0; i < layout.edges.length; i++) {
    const a = layout.nodes[layout.edges.a[i]];
    const b = layout.nodes[layout.edges.b[i]];
    const [ax, ay] = toScreen(v, a.x, a.y);
    const [bx, by] = toScreen(v, b.x, b.y);
    // Cheap reject by bounding box before the distance.
    if (
      sx < Math.min(ax, bx) - tol ||
      sx > Math.max(ax, bx) + tol ||
      sy < Math.min(ay, by) - tol ||
      sy > Math.max(ay, by) + tol
    )
      continue;
    const d = segmentDistance(sx, sy, ax, ay, bx, by);
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best >= 0 ? { type: 'edge', index: best } : null;
}
