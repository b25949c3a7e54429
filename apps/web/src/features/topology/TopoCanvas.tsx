import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { drawTopology, readPalette } from './draw.ts';
import { pickAt } from './hit.ts';
import {
  edgeAt,
  edgeIndexByLinkId,
  type Highlight,
  type Selection,
  type TopoLayout,
} from '@ibwatch/fabric/topology-view';
import { centerOn, fitView, focusOnSegment, minK, pan, zoomAt, type View } from './viewport.ts';

/** Zoom level (world→screen) from which every HCA gets its own box. */
export const EXPAND_K = 0.9;

declare global {
  interface Window {
    __ibwatchTopoStats?: {
      firstRenderMs: number;
      lastFrameMs: number;
      nodes: number;
      links: number;
      drawnNodes: number;
      drawnEdges: number;
      expanded: boolean;
    };
  }
}

export interface FocusRequest {
  guid?: string;
  linkId?: number;
  nonce: number;
}

export interface TopoCanvasProps {
  aggregated: TopoLayout;
  expanded: () => TopoLayout;
  highlight: Highlight | null;
  selection: Selection;
  onPick: (s: Selection) => void;
  focus: FocusRequest | null;
  /** performance.now() when the data arrived: firstRenderMs counts from here (layout included). */
  t0: number;
  counts: { nodes: number; links: number };
  /** Called once, after the first frame has been drawn. */
  onFirstFrame?: () => void;
}

function selectionIndices(layout: TopoLayout, sel: Selection): { node: number | null; edge: number | null } {
  if (!sel) return { node: null, edge: null };
  if (sel.type === 'link') return { node: null, edge: edgeIndexByLinkId(layout).get(sel.id) ?? null };
  if (sel.type === 'node') return { node: layout.nodeOf.get(sel.guid) ?? null, edge: null };
  const i = layout.nodes.findIndex((n) => n.kind === 'group' && (n.leaf ?? '') === sel.leaf);
  return { node: i >= 0 ? i : null, edge: null };
}

export function TopoCanvas(p: TopoCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewRef = useRef<View | null>(null);
  const fitRef = useRef<View | null>(null);
  const sizeRef = useRef({ w: 0, h: 0 });
  const frame = useRef(0);
  const firstDone = useRef(false);
  const props = useRef(p);
  props.current = p;
  const [expandedNow, setExpandedNow] = useState(false);

  const layoutFor = useCallback(
    (k: number) => (k >= EXPAND_K ? props.current.expanded() : props.current.aggregated),
    [],
  );

  const draw = useCallback(() => {
    frame.current = 0;
    const canvas = canvasRef.current;
    const view = viewRef.current;
    if (!canvas || !view) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const t = performance.now();
    const { highlight, selection, counts, t0 } = props.current;
    const layout = layoutFor(view.k);
    let hiNodes: Set<number> | null = null;
    let hiEdges: Set<number> | null = null;
    if (highlight) {
      hiNodes = new Set();
      hiEdges = new Set();
      for (const g of highlight.nodes) {
        const i = layout.nodeOf.get(g);
        if (i !== undefined) hiNodes.add(i);
      }
      const eIdx = edgeIndexByLinkId(layout);
      for (const id of highlight.links) {
        const i = eIdx.get(id);
        if (i !== undefined) hiEdges.add(i);
      }
    }
    const sel = selectionIndices(layout, selection);
    const { w, h } = sizeRef.current;
    const drawn = drawTopology(ctx, {
      layout,
      view,
      width: w,
      height: h,
      dpr: window.devicePixelRatio || 1,
      palette: readPalette(canvas),
      hiNodes,
      hiEdges,
      selNode: sel.node,
      selEdge: sel.edge,
    });
    const end = performance.now();
    const prev = window.__ibwatchTopoStats;
    window.__ibwatchTopoStats = {
      firstRenderMs: firstDone.current && prev ? prev.firstRenderMs : Math.round(end - t0),
      lastFrameMs: Math.round((end - t) * 10) / 10,
      nodes: counts.nodes,
      links: counts.links,
      drawnNodes: drawn.nodes,
      drawnEdges: drawn.edges,
      expanded: layout !== props.current.aggregated,
    };
    if (!firstDone.current) props.current.onFirstFrame?.();
    firstDone.current = true;
    setExpandedNow(layout !== props.current.aggregated);
  }, [layoutFor]);

  const schedule = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(draw);
  }, [draw]);

  const setView = useCallback(
    (v: View) => {
      viewRef.current = v;
      schedule();
    },
    [schedule],
  );

  // Size the backing store to the element and the device pixel ratio.
  useEffect(() => {
    const canvas = canvasRef.current!;
    const ro = new ResizeObserver(() => {
      const w = canvas.clientWidth;
      const h = canvas.clientHeight;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      sizeRef.current = { w, h };
      fitRef.current = fitView(props.current.aggregated, w, h);
      if (!viewRef.current) viewRef.current = fitRef.current;
      else viewRef.current = { ...viewRef.current, kyMin: fitRef.current.kyMin };
      if (frame.current) cancelAnimationFrame(frame.current);
      draw();
    });
    ro.observe(canvas);
    return () => {
      ro.disconnect();
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [draw]);

  // Redraw when highlight/selection change.
  useEffect(schedule, [p.highlight, p.selection, p.aggregated, schedule]);

  // Wheel zoom needs a non-passive listener to stop the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current!;
    const onWheel = (e: WheelEvent) => {
      const v = viewRef.current;
      const fit = fitRef.current;
      if (!v || !fit) return;
      e.preventDefault();
      const r = canvas.getBoundingClientRect();
      setView(zoomAt(v, Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top, minK(fit)));
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [setView]);

  // Centre on a search hit / URL selection.
  useEffect(() => {
    const f = p.focus;
    const v = viewRef.current;
    if (!f || !v) return;
    const k = Math.max(v.k, f.guid ? EXPAND_K * 1.2 : v.k);
    const layout = layoutFor(k);
    const { w, h } = sizeRef.current;
    if (f.guid !== undefined) {
      const i = layout.nodeOf.get(f.guid);
      if (i !== undefined) setView(centerOn(v, layout.nodes[i].x, layout.nodes[i].y, w, h, k));
    } else if (f.linkId !== undefined) {
      const e = edgeIndexByLinkId(layout).get(f.linkId);
      const [a, b] = e === undefined ? [] : [layout.nodes[layout.edges.a[e]], layout.nodes[layout.edges.b[e]]];
      if (a && b) setView(focusOnSegment(v, [a.x, a.y], [b.x, b.y], w, h));
    }
  }, [p.focus, layoutFor, setView]);

  const drag = useRef<{ x: number; y: number; moved: boolean; id: number } | null>(null);
  function onPointerDown(e: PointerEvent<HTMLCanvasElement>) {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
  }
  function onPointerMove(e: PointerEvent<HTMLCanvasElement>) {
    const d = drag.current;
    const v = viewRef.current;
    if (!d || !v) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    d.moved = true;
    e.currentTarget.classList.add('dragging');
    d.x = e.clientX;
    d.y = e.clientY;
    setView(pan(v, dx, dy));
  }
  function onPointerUp(e: PointerEvent<HTMLCanvasElement>) {
    const d = drag.current;
    drag.current = null;
    e.currentTarget.classList.remove('dragging');
    const v = viewRef.current;
    if (!d || d.moved || !v) return;
    const r = e.currentTarget.getBoundingClientRect();
    const layout = layoutFor(v.k);
    const hit = pickAt(layout, v, e.clientX - r.left, e.clientY - r.top);
    if (!hit) return p.onPick(null);
    if (hit.type === 'node') {
      const n = layout.nodes[hit.index];
      p.onPick(n.kind === 'group' ? { type: 'group', leaf: n.leaf ?? '' } : { type: 'node', guid: n.id });
    } else {
      const edge = edgeAt(layout.edges, hit.index);
      if (edge.link >= 0) p.onPick({ type: 'link', id: edge.linkIds[0] });
      else {
        const g = [layout.nodes[edge.a], layout.nodes[edge.b]].find((n) => n.kind === 'group');
        p.onPick(g ? { type: 'group', leaf: g.leaf ?? '' } : null);
      }
    }
  }

  const zoomBy = (f: number) => {
    const v = viewRef.current;
    const fit = fitRef.current;
    if (v && fit) setView(zoomAt(v, f, sizeRef.current.w / 2, sizeRef.current.h / 2, minK(fit)));
  };
  const reset = () => fitRef.current && setView(fitRef.current);

  function onKeyDown(e: KeyboardEvent<HTMLCanvasElement>) {
    const v = viewRef.current;
    if (!v) return;
    const step = 80;
    const keys: Record<string, () => void> = {
      '+': () => zoomBy(1.4),
      '=': () => zoomBy(1.4),
      '-': () => zoomBy(1 / 1.4),
      _: () => zoomBy(1 / 1.4),
      '0': reset,
      ArrowLeft: () => setView(pan(v, step, 0)),
      ArrowRight: () => setView(pan(v, -step, 0)),
      ArrowUp: () => setView(pan(v, 0, step)),
      ArrowDown: () => setView(pan(v, 0, -step)),
      Escape: () => p.onPick(null),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  }

  return (
    <>
      <canvas
        ref={canvasRef}
        tabIndex={0}
        role="img"
        aria-label={
          'Fabric topology map. Drag or arrow keys to pan, wheel or plus/minus to zoom, 0 to ' +
          'fit, Escape to clear the selection. The side panel lists problem links.'
        }
        data-testid="topology-canvas"
        data-expanded={expandedNow ? '1' : '0'}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      />
      <div className="zoom-buttons">
        <button type="button" onClick={() => zoomBy(1.4)} aria-label="Zoom in" data-testid="topology-zoom-in">
          +
        </button>
        <button type="button" onClick={() => zoomBy(1 / 1.4)} aria-label="Zoom out" data-testid="topology-zoom-out">
          −
        </button>
        <button type="button" onClick={reset} aria-label="Fit whole fabric" data-testid="topology-zoom-fit">
          ⤢
        </button>
      </div>
    </>
  );
}
