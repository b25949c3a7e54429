/**
 * The edges of a layout as the canvas strokes them: world coordinates in typed arrays, one
 * array per health (built once per layout), projected to the screen each frame without
 * allocating. At 45k GPUs the fabric view has ~93k leaf–spine and spine–core links across
 * ~1,500 px, about 60 per pixel column: building a [x, y] pair per end and stroking every
 * segment cost more than a 60 Hz frame. Healthy links are therefore drawn at a level of
 * detail: where many share a pixel column their ends snap to a coarser grid and a segment that
 * another one already covers is stroked once. Problem links are never merged or dropped: each
 * is stroked as it lies, after the healthy ones, so it stays on top at every zoom.
 * Pure (no DOM): unit-tested in edges.test.ts.
 */
import type { LinkHealth } from '@ibwatch/fabric';
import { HEALTHS, type TopoLayout } from '@ibwatch/fabric/topology-view';
import { ky, type View } from './viewport.ts';

export interface EdgeGeometry {
  /** Per health: ax, ay, bx, by in world units for each edge drawn in that style. */
  xy: Record<LinkHealth, Float64Array>;
  /** Edges per health. */
  count: Record<LinkHealth, number>;
}

const geometryCache = new WeakMap<TopoLayout, EdgeGeometry>();

/** The layout's edges grouped by health (cached per layout). */
export function edgeGeometry(layout: TopoLayout): EdgeGeometry {
  const hit = geometryCache.get(layout);
  if (hit) return hit;
  const E = layout.edges;
  const codes = new Int32Array(HEALTHS.length);
  for (let e = 0; e < E.length; e++) codes[E.health[e]]++;
  const count = Object.fromEntries(HEALTHS.map((h, c) => [h, codes[c]])) as Record<LinkHealth, number>;
  const xy = HEALTHS.map((h) => new Float64Array(count[h] * 4));
  // Node centres once, not a property read per edge end.
  const nx = new Float64Array(layout.nodes.length);
  const ny = new Float64Array(layout.nodes.length);
  layout.nodes.forEach((n, i) => {
    nx[i] = n.x;
    ny[i] = n.y;
  });
  const at = new Int32Array(HEALTHS.length);
  for (let e = 0; e < E.length; e++) {
    const c = E.health[e];
    const arr = xy[c];
    const j = at[c];
    const a = E.a[e];
    const b = E.b[e];
    arr[j] = nx[a];
    arr[j + 1] = ny[a];
    arr[j + 2] = nx[b];
    arr[j + 3] = ny[b];
    at[c] = j + 4;
  }
  const g = { xy: Object.fromEntries(HEALTHS.map((h, c) => [h, xy[c]])) as Record<LinkHealth, Float64Array>, count };
  geometryCache.set(layout, g);
  return g;
}

/**
 * Grid (in CSS pixels) the ends of healthy links snap to: 1 (as they lie) unless the layout
 * puts many links in each pixel column at this zoom. 16 per column and more (the 45k-GPU
 * fabric fitted to the screen: ~60) snap to 4 px, 8 and more to 2 px.
 */
export function okSnap(g: EdgeGeometry, layout: Pick<TopoLayout, 'width'>, view: View): number {
  const perPx = g.count.ok / Math.max(1, layout.width * view.k);
  return perPx >= 16 ? 4 : perPx >= 8 ? 2 : 1;
}

/** Margin (px) outside the canvas within which a segment still counts as visible. */
const M = 4;
/**
 * Open-addressing table of the segments written this frame: both ends as exact keys, and the
 * frame (generation) a slot is from, so that a frame starts empty without clearing it.
 */
const SLOTS = 1 << 18;
const keyA = new Float64Array(SLOTS);
const keyB = new Float64Array(SLOTS);
const gens = new Uint32Array(SLOTS);
let gen = 0;
let used = 0;

/**
 * Writes the on-screen segments of `xy` to `out` (ax, ay, bx, by in CSS pixels) and returns
 * how many. Segments wholly outside the w×h screen are skipped; with `snap` > 1 the ends are
 * rounded to that grid and a segment equal to one already written is skipped (healthy links
 * only: see okSnap). `out` must hold `xy.length` numbers.
 */
export function projectSegments(
  xy: Float64Array,
  view: View,
  w: number,
  h: number,
  out: Float32Array,
  snap = 1,
): number {
  const kx = view.k;
  const kyv = ky(view);
  const { tx, ty } = view;
  const merge = snap > 1;
  if (merge) {
    if (++gen === 0xffffffff) {
      gens.fill(0);
      gen = 1;
    }
    used = 0;
  }
  let n = 0;
  for (let j = 0; j < xy.length; j += 4) {
    let ax = xy[j] * kx + tx;
    let ay = xy[j + 1] * kyv + ty;
    let bx = xy[j + 2] * kx + tx;
    let by = xy[j + 3] * kyv + ty;
    if ((ax < -M && bx < -M) || (ax > w + M && bx > w + M) || (ay < -M && by < -M) || (ay > h + M && by > h + M))
      continue;
    if (merge) {
      ax = Math.round(ax / snap) * snap;
      ay = Math.round(ay / snap) * snap;
      bx = Math.round(bx / snap) * snap;
      by = Math.round(by / snap) * snap;
      if (seen(ax, ay, bx, by)) continue;
    }
    out[n * 4] = ax;
    out[n * 4 + 1] = ay;
    out[n * 4 + 2] = bx;
    out[n * 4 + 3] = by;
    n++;
  }
  return n;
}

/** Whether this frame already wrote the segment (true); records it otherwise. */
function seen(ax: number, ay: number, bx: number, by: number): boolean {
  // Ends this far off screen, or a table half full, are not merged: drawn, never lost.
  const far = 1 << 20;
  if (Math.abs(ax) >= far || Math.abs(ay) >= far || Math.abs(bx) >= far || Math.abs(by) >= far) return false;
  if (used >= SLOTS / 2) return false;
  // Exact keys: integers below 2^21 each, 2^42 a pair.
  const a = (ax + far) * 2 * far + (ay + far);
  const b = (bx + far) * 2 * far + (by + far);
  let i = (Math.imul(ax, 73856093) ^ Math.imul(ay, 19349663) ^ Math.imul(bx, 83492791) ^ by) & (SLOTS - 1);
  for (;;) {
    if (gens[i] !== gen) {
      gens[i] = gen;
      keyA[i] = a;
      keyB[i] = b;
      used++;
      return false;
    }
    if (keyA[i] === a && keyB[i] === b) return true;
    i = (i + 1) & (SLOTS - 1);
  }
}
