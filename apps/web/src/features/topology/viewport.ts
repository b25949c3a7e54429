/**
 * Pan/zoom state and the maths between world and screen. A fat tree is far wider than tall
 * (300+ leaves side by side, 4 tiers), so the vertical scale never drops below the one that
 * fits the tiers to the screen: `ky = max(k, kyMin)`. Zoomed in, the view is isotropic again.
 */
import type { LayoutNode, TopoLayout } from '@ibwatch/fabric/topology-view';

export interface View {
  k: number;
  kyMin: number;
  tx: number;
  ty: number;
}

export const MAX_K = 8;

export const ky = (v: View): number => Math.max(v.k, v.kyMin);

export function toScreen(v: View, x: number, y: number): [number, number] {
  return [x * v.k + v.tx, y * ky(v) + v.ty];
}

export function toWorld(v: View, sx: number, sy: number): [number, number] {
  return [(sx - v.tx) / v.k, (sy - v.ty) / ky(v)];
}

/** Whole layout in a w×h screen, with a margin (left margin leaves room for tier labels). */
export function fitView(layout: Pick<TopoLayout, 'width' | 'height'>, w: number, h: number): View {
  const padL = 70;
  const pad = 24;
  const k = Math.max(1e-4, (w - padL - pad) / Math.max(layout.width, 1));
  const kyMin = Math.max(k, (h - 2 * pad) / Math.max(layout.height, 1));
  return { k, kyMin, tx: padL, ty: pad };
}

export function minK(fit: View): number {
  return fit.k * 0.5;
}

/** Zoom by `factor` keeping the screen point (sx, sy) fixed. */
export function zoomAt(v: View, factor: number, sx: number, sy: number, minScale: number): View {
  const k = Math.min(MAX_K, Math.max(minScale, v.k * factor));
  const [wx, wy] = toWorld(v, sx, sy);
  const next = { ...v, k };
  return { ...next, tx: sx - wx * k, ty: sy - wy * ky(next) };
}

export function pan(v: View, dx: number, dy: number): View {
  return { ...v, tx: v.tx + dx, ty: v.ty + dy };
}

/** Centre the world point on the screen, zooming in to at least `k`. */
export function centerOn(v: View, x: number, y: number, w: number, h: number, k = v.k): View {
  const next = { ...v, k: Math.min(MAX_K, Math.max(v.k, k)) };
  return { ...next, tx: w / 2 - x * next.k, ty: h / 2 - y * ky(next) };
}

/**
 * Bring a link into view without losing the tree: centre it horizontally, and move vertically
 * only as far as needed to show both its ends (`pad` pixels inside the edges). Centring its
 * middle, as for a node, put an HCA link's middle mid-screen and pushed the core tier off the
 * top, though at the fitted scale every tier was on screen.
 */
export function focusOnSegment(
  v: View,
  a: [number, number],
  b: [number, number],
  w: number,
  h: number,
  pad = 24,
): View {
  const tx = w / 2 - ((a[0] + b[0]) / 2) * v.k;
  const top = Math.min(a[1], b[1]) * ky(v);
  const bottom = Math.max(a[1], b[1]) * ky(v);
  let ty = v.ty;
  if (bottom - top > h - 2 * pad) ty = h / 2 - (top + bottom) / 2;
  else if (top + ty < pad) ty = pad - top;
  else if (bottom + ty > h - pad) ty = h - pad - bottom;
  return { ...v, tx, ty };
}

/** Screen rectangle of a node: world size scaled, but never smaller than a few pixels. */
export function nodeRect(v: View, n: LayoutNode): { x: number; y: number; w: number; h: number } {
  const [cx, cy] = toScreen(v, n.x, n.y);
  const w = Math.max(n.w * v.k, n.kind === 'hca' ? 2 : 4);
  const h = Math.max(n.h * Math.min(ky(v), Math.max(v.k, 0.5)), 6);
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/** Visible world rectangle (for culling). */
export function visibleWorld(v: View, w: number, h: number): { x0: number; y0: number; x1: number; y1: number } {
  const [x0, y0] = toWorld(v, 0, 0);
  const [x1, y1] = toWorld(v, w, h);
  return { x0, y0, x1, y1 };
}
