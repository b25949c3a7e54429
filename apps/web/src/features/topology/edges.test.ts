import { describe, expect, it } from 'vitest';
import { generateFatTree, type LinkHealth } from '@ibwatch/fabric';
import { edgeGeometry, okSnap, projectSegments } from './edges.ts';
import { fatTreeReply, layoutOf } from '@ibwatch/fabric/topology-view/fixtures';
import { edgeList } from '@ibwatch/fabric/topology-view';
import { fitView, toScreen, type View, zoomAt } from './viewport.ts';

const HEALTHS: LinkHealth[] = ['ok', 'degraded', 'errors', 'down'];

/** The segments `projectSegments` writes, as rounded strings (for set comparisons). */
function segments(xy: Float64Array, v: View, w: number, h: number, snap: number): string[] {
  const out = new Float32Array(xy.length);
  const n = projectSegments(xy, v, w, h, out, snap);
  return Array.from({ length: n }, (_, i) => [...out.slice(i * 4, i * 4 + 4)].map((x) => Math.round(x)).join(','));
}

describe('edge geometry and its level of detail (10k-GPU fat-tree, one link in 97 not ok)', () => {
  const reply = fatTreeReply(generateFatTree({ gpus: 10_000, tiers: 3 }), 97);
  const layout = layoutOf(reply);
  const g = edgeGeometry(layout);
  const [W, H] = [1600, 1000];
  const fit = fitView(layout, W, H);

  it('holds every edge once, under its health, at its ends', () => {
    expect(HEALTHS.reduce((s, h) => s + g.count[h], 0)).toBe(layout.edges.length);
    expect(g.count.ok).toBeGreaterThan(0);
    expect(g.count.ok).toBeLessThan(layout.edges.length);
    const edges = edgeList(layout.edges);
    const e = edges.find((x) => x.health === 'degraded') ?? edges.find((x) => x.health !== 'ok')!;
    const k = edges.filter((x) => x.health === e.health).indexOf(e);
    const xy = g.xy[e.health];
    expect([...xy.slice(k * 4, k * 4 + 4)]).toEqual([
      layout.nodes[e.a].x,
      layout.nodes[e.a].y,
      layout.nodes[e.b].x,
      layout.nodes[e.b].y,
    ]);
    expect(edgeGeometry(layout)).toBe(g);
  });

  it('projects with the viewport maths and skips segments wholly off screen', () => {
    const zoomed = zoomAt(fit, 16, W / 2, H / 2, 0);
    const all = segments(g.xy.ok, zoomed, 1e9, 1e9, 1).length;
    const shown = segments(g.xy.ok, zoomed, W, H, 1);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(all);
    const e = edgeList(layout.edges).find((x) => x.health === 'ok')!;
    const [ax, ay] = toScreen(fit, layout.nodes[e.a].x, layout.nodes[e.a].y);
    const [bx, by] = toScreen(fit, layout.nodes[e.b].x, layout.nodes[e.b].y);
    expect(segments(g.xy.ok, fit, W, H, 1)).toContain([ax, ay, bx, by].map((x) => Math.round(x)).join(','));
  });

  it('merges healthy links only where they crowd a pixel column, and keeps their picture', () => {
    // This fabric fitted to 1600 px has several links per pixel column: snapped, fewer strokes.
    const snap = okSnap(g, layout, { ...fit, k: fit.k / 4 });
    expect(snap).toBeGreaterThan(1);
    const crowded = { ...fit, k: fit.k / 4 };
    const merged = segments(g.xy.ok, crowded, W, H, snap);
    const plain = segments(g.xy.ok, crowded, W, H, 1);
    expect(merged.length).toBeLessThan(plain.length);
    // No two strokes alike, and every healthy link on screen is stroked, snapped to the grid.
    expect(new Set(merged).size).toBe(merged.length);
    const stroked = new Set(merged);
    const out = new Float32Array(g.xy.ok.length);
    const n = projectSegments(g.xy.ok, crowded, W, H, out, 1);
    const missed: string[] = [];
    for (let i = 0; i < n * 4; i += 4) {
      const key = [...out.slice(i, i + 4)].map((x) => Math.round(x / snap) * snap).join(',');
      if (!stroked.has(key)) missed.push(key);
    }
    expect(missed).toEqual([]);
    // Zoomed in far enough, every link is stroked as it lies.
    expect(okSnap(g, layout, zoomAt(fit, 64, W / 2, H / 2, 0))).toBe(1);
  });

  it('never merges or drops a problem link that is on screen, at any zoom', () => {
    for (const h of ['degraded', 'errors', 'down'] as const) {
      for (const z of [0.25, 1, 4, 32]) {
        const v = { ...fit, k: fit.k * z };
        const n = segments(g.xy[h], v, W, H, 1).length;
        const everywhere = segments(g.xy[h], v, 1e9, 1e9, 1).length;
        expect(everywhere).toBe(g.count[h]);
        if (z <= 1) expect(n).toBe(g.count[h]);
      }
    }
  });
});
