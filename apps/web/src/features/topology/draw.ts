/**
 * Canvas 2D rendering of a layout. Edges are batched into one path per health style (four
 * strokes), healthy links first and at a level of detail, problem links after them, each as it
 * lies (edges.ts); nodes and labels are culled to the viewport, labels appear only when there
 * is room. Health is told by colour AND by dash pattern / width (see LINK_STYLES, also used by
 * the legend).
 */
import type { LinkHealth, TopoNode } from '@ibwatch/fabric';

type Tier = TopoNode['tier'];
import { healthLook } from '../../lib/status.ts';
import { edgeGeometry, okSnap, projectSegments } from './edges.ts';
import {
  fitLabelLines,
  fitTurnedLabel,
  GLYPH_PX,
  HEALTHS,
  NODE_H,
  type TopoLayout,
} from '@ibwatch/fabric/topology-view';
import { nodeRect, toScreen, type View } from './viewport.ts';

export interface LinkStyle {
  width: number;
  dash: number[];
  colourVar: string;
}

/** Screen-space stroke per health: wider and more broken as it gets worse. */
export const LINK_STYLES: Record<LinkHealth, LinkStyle> = {
  ok: { width: 1, dash: [], colourVar: '--topo-ok' },
  degraded: { width: 2, dash: [8, 4], colourVar: '--warn' },
  errors: { width: 2.5, dash: [2, 3], colourVar: '--bad' },
  down: { width: 3, dash: [10, 3, 2, 3], colourVar: '--crit' },
};

export interface Palette {
  bg: string;
  fg: string;
  muted: string;
  accent: string;
  border: string;
  link: Record<LinkHealth, string>;
  tier: Record<Tier | 'group', string>;
}

export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    bg: v('--panel', '#fff'),
    fg: v('--fg', '#111'),
    muted: v('--muted', '#666'),
    accent: v('--topo-highlight', '#7c3aed'),
    border: v('--border', '#ccc'),
    link: {
      ok: v('--topo-ok', '#94a3b8'),
      degraded: v('--warn', '#b45309'),
      errors: v('--bad', '#c2410c'),
      down: v('--crit', '#b91c1c'),
    },
    tier: {
      core: v('--topo-core', '#1e3a8a'),
      spine: v('--topo-spine', '#1d4ed8'),
      leaf: v('--topo-leaf', '#0369a1'),
      hca: v('--topo-hca', '#475569'),
      group: v('--topo-group', '#64748b'),
      aggregation: v('--topo-aggregation', '#4d7c0f'),
      unknown: v('--topo-unknown', '#78716c'),
    },
  };
}

export interface DrawState {
  layout: TopoLayout;
  view: View;
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
  palette: Palette;
  /** Layout indices to emphasise (host rails, selection); others are dimmed when set. */
  hiNodes: Set<number> | null;
  hiEdges: Set<number> | null;
  selNode: number | null;
  selEdge: number | null;
}

/** Screen coordinates of the segments of one stroke, reused from frame to frame. */
let out = new Float32Array(0);

export function drawTopology(ctx: CanvasRenderingContext2D, s: DrawState): { nodes: number; edges: number } {
  const { layout, view, width, height, palette } = s;
  ctx.setTransform(s.dpr, 0, 0, s.dpr, 0, 0);
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, 0, width, height);
  const dimmed = s.hiEdges !== null || s.hiNodes !== null;
  let drawnEdges = 0;
  let drawnNodes = 0;

  // Edges, one path per health style, healthy first: a problem link is stroked over them.
  const geom = edgeGeometry(layout);
  for (const h of HEALTHS) {
    const xy = geom.xy[h];
    if (out.length < xy.length) out = new Float32Array(xy.length);
    const n = projectSegments(xy, view, width, height, out, h === 'ok' ? okSnap(geom, layout, view) : 1);
    if (n === 0) continue;
    const st = LINK_STYLES[h];
    ctx.beginPath();
    for (let j = 0; j < n * 4; j += 4) {
      ctx.moveTo(out[j], out[j + 1]);
      ctx.lineTo(out[j + 2], out[j + 3]);
    }
    drawnEdges += n;
    ctx.globalAlpha = dimmed ? 0.18 : h === 'ok' ? 0.55 : 1;
    ctx.strokeStyle = palette.link[h];
    ctx.lineWidth = st.width;
    ctx.setLineDash(st.dash);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;

  // Highlighted and selected edges on top.
  const emph = new Set<number>(s.hiEdges ?? []);
  if (s.selEdge !== null) emph.add(s.selEdge);
  for (const i of emph) {
    if (!(i >= 0 && i < layout.edges.length)) continue;
    const a = layout.nodes[layout.edges.a[i]];
    const b = layout.nodes[layout.edges.b[i]];
    const health = HEALTHS[layout.edges.health[i]];
    const [ax, ay] = toScreen(view, a.x, a.y);
    const [bx, by] = toScreen(view, b.x, b.y);
    const st = LINK_STYLES[health];
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.setLineDash([]);
    ctx.strokeStyle = palette.accent;
    ctx.lineWidth = st.width + (i === s.selEdge ? 5 : 3);
    ctx.stroke();
    ctx.setLineDash(st.dash);
    ctx.strokeStyle = palette.link[health];
    ctx.lineWidth = st.width;
    ctx.stroke();
  }
  ctx.setLineDash([]);

  // Nodes.
  const turnedLabels: { text: string; x: number; y: number; fontPx: number; lineHeight: number }[] = [];
  // Screen px from a box's bottom to the top of the next row's boxes (or the canvas' bottom).
  const rowsY = layout.tiers.map((t) => t.y).sort((a, b) => a - b);
  const roomBelow = (worldY: number, bottom: number) => {
    const next = rowsY.find((y) => y > worldY + 1);
    if (next === undefined) return height - bottom - 4;
    const [, top] = toScreen(view, 0, next);
    return top - bottom - NODE_H * Math.max(view.k, 0.5) * 0.5 - 8;
  };
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  for (let i = 0; i < layout.nodes.length; i++) {
    const n = layout.nodes[i];
    const r = nodeRect(view, n);
    if (r.x > width || r.x + r.w < 0 || r.y > height || r.y + r.h < 0) continue;
    drawnNodes++;
    const hi = s.hiNodes?.has(i) ?? false;
    ctx.globalAlpha = dimmed && !hi && i !== s.selNode ? 0.35 : 1;
    ctx.fillStyle = n.kind === 'group' ? palette.tier.group : palette.tier[n.tier];
    ctx.fillRect(r.x, r.y, r.w, r.h);
    if (n.tier === 'unknown' && r.w >= 8) {
      // No tier: outlined dashed, told apart by shape as well as by colour.
      ctx.strokeStyle = palette.fg;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
      ctx.setLineDash([]);
    }
    if (n.health !== 'ok' && r.w >= 8) {
      const st = LINK_STYLES[n.health];
      ctx.strokeStyle = palette.link[n.health];
      ctx.lineWidth = 2;
      ctx.setLineDash(st.dash);
      ctx.strokeRect(r.x - 1.5, r.y - 1.5, r.w + 3, r.h + 3);
      ctx.setLineDash([]);
    }
    if (hi || i === s.selNode) {
      ctx.strokeStyle = palette.accent;
      ctx.lineWidth = i === s.selNode ? 4 : 3;
      ctx.strokeRect(r.x - 4, r.y - 4, r.w + 8, r.h + 8);
    }
    // An Aggregation Node's box is narrow and its label short (`AN`).
    if (r.w >= (n.kind === 'aggregation' ? 16 : 3 * GLYPH_PX) && r.h >= 9) {
      const room = r.w - 4;
      // The health icon where there is room for it; the outline's dash pattern says it anyway.
      const icon = n.health === 'ok' ? '' : healthLook[n.health].icon + ' ';
      // An aggregate box says "32 HCAs", or "32" when narrow; a node its whole name (labels.ts).
      const fit =
        n.kind === 'group'
          ? fitLabelLines(n.label.length * GLYPH_PX <= room ? n.label : String(n.hcas ?? ''), room, r.h)
          : (fitLabelLines(icon + n.label, room, r.h) ?? fitLabelLines(n.label, room, r.h));
      if (fit) {
        ctx.fillStyle = '#fff';
        ctx.font = `${fit.fontPx}px system-ui, sans-serif`;
        const top = r.y + r.h / 2 - ((fit.lines.length - 1) * fit.lineHeight) / 2;
        fit.lines.forEach((line, k) => ctx.fillText(line, r.x + r.w / 2, top + k * fit.lineHeight));
      } else if (n.kind !== 'group') {
        // Too narrow a box (a zoomed-out row of spines): the name turned, whole, below it.
        const turned = fitTurnedLabel(n.label, r.w, roomBelow(n.y, r.y + r.h));
        if (turned) turnedLabels.push({ text: n.label, x: r.x + r.w / 2, y: r.y + r.h + 3, ...turned });
      }
    }
  }
  // Over the edges, on a pill of the background, so that lines crossing them do not hide a letter.
  for (const t of turnedLabels) {
    ctx.save();
    ctx.translate(t.x, t.y);
    ctx.rotate(-Math.PI / 2);
    ctx.font = `${t.fontPx}px system-ui, sans-serif`;
    ctx.textAlign = 'right';
    const len = ctx.measureText(t.text).width;
    ctx.fillStyle = palette.bg;
    ctx.fillRect(-len - 2, -t.lineHeight / 2, len + 4, t.lineHeight);
    ctx.fillStyle = palette.fg;
    ctx.fillText(t.text, 0, 0);
    ctx.restore();
  }
  ctx.globalAlpha = 1;

  // Tier labels, fixed at the left edge.
  ctx.textAlign = 'left';
  ctx.font = '600 11px system-ui, sans-serif';
  for (const t of layout.tiers) {
    const [, y] = toScreen(view, 0, t.y);
    if (y < -10 || y > height + 10) continue;
    // `+ 7 SHARP AN` on a line of its own: one long label covered the row's first switch.
    const lines = tierLabel(t).split('\n');
    lines.forEach((text, i) => {
      ctx.fillStyle = palette.bg;
      ctx.fillRect(2, y - 8 + i * 14, ctx.measureText(text).width + 8, 16);
      ctx.fillStyle = palette.muted;
      ctx.fillText(text, 6, y + i * 14);
    });
  }
  return { nodes: drawnNodes, edges: drawnEdges };
}

/** Row label at the left edge: `LEAF · 8\n+ 7 SHARP AN`, `HCAs · 256`, `NO TIER · 2`. */
export function tierLabel(t: TopoLayout['tiers'][number]): string {
  const name = t.tier === 'hca' ? 'HCAs' : t.tier === 'unknown' ? 'NO TIER' : t.tier.toUpperCase();
  const ans = t.aggregation ? `\n+ ${t.aggregation.toLocaleString()} SHARP AN` : '';
  return `${name} · ${t.count.toLocaleString()}${ans}`;
}
