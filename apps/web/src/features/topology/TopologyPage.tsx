import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { examplesOf, searchPlaceholders } from '../../lib/placeholders.ts';
import { setQuery, useLocation } from '../../router.ts';
import { DetailsPanel } from './DetailsPanel.tsx';
import { Legend } from './Legend.tsx';
import {
  hostRails,
  indexTopology,
  layoutTopology,
  parseSelection,
  recolourLayout,
  searchTopology,
  serializeSelection,
  type SearchHit,
  type Selection,
  type TopoLayout,
} from '@ibwatch/fabric/topology-view';
import { TopoCanvas, type FocusRequest } from './TopoCanvas.tsx';
import { jobOptions } from './topology-job.ts';
import { useTopology, type TopologyData } from './useTopology.ts';
import './topology.css';

const HIT_LABEL: Record<SearchHit['what'], string> = {
  host: 'host ',
  switch: 'switch ',
  hca: 'HCA ',
  aggregation: 'SHARP AN ',
};

/**
 * The view, drawn first from the collector's first frame (`data.first`) while the page reads the
 * reply (useTopology.ts): until `data.reply` is there, the canvas is complete and the search, the
 * leaf order and the details panel say they are loading.
 */
function TopologyView({ data, drawn }: { data: TopologyData; drawn: () => void }) {
  const { reply, first, t0 } = data;
  const { query } = useLocation();
  const groupBy = query.group === 'name' ? 'name' : 'rail';
  const idx = useMemo(() => (reply ? indexTopology(reply) : null), [reply]);
  const placeholder = useMemo(() => searchPlaceholders(reply ? examplesOf(reply) : undefined).find, [reply]);
  const aggregated = useMemo(() => {
    // The frame is layoutTopology's layout for its leaf order (fabric's topology-view/frame.test.ts),
    // coloured as the reply says once it is in: a sweep may have come between the two requests.
    if (first && (first.groupBy === groupBy || !idx)) {
      if (!idx) return first.layout;
      first.bind(idx);
      return recolourLayout(first.layout, idx);
    }
    return layoutTopology(idx!, { groupBy });
  }, [idx, groupBy, first]);
  // The per-HCA layout is built the first time the user zooms in far enough.
  const expandedCache = useRef<{ key: string; layout: TopoLayout } | null>(null);
  const expanded = useCallback(() => {
    if (!idx) return aggregated;
    const key = groupBy;
    if (expandedCache.current?.key !== key)
      expandedCache.current = { key, layout: layoutTopology(idx, { groupBy, expandHcas: true }) };
    return expandedCache.current.layout;
  }, [idx, groupBy, aggregated]);

  const selKey = query.sel ?? '';
  // Parsed once per URL value so the canvas only redraws when the selection really changes.
  const selection = useMemo(() => parseSelection(selKey), [selKey]);
  const host = query.host ?? null;
  const highlight = useMemo(() => (host && idx ? hostRails(idx, host) : null), [idx, host]);

  const [search, setSearch] = useState(query.q ?? '');
  const hits = useMemo<SearchHit[]>(() => (query.q && idx ? searchTopology(idx, query.q) : []), [idx, query.q]);
  const [focus, setFocus] = useState<FocusRequest | null>(() =>
    selection?.type === 'node'
      ? { guid: selection.guid, nonce: 0 }
      : selection?.type === 'link'
        ? { linkId: selection.id, nonce: 0 }
        : host && idx?.hcasOfHost.get(host)?.[0]
          ? { guid: idx.hcasOfHost.get(host)![0], nonce: 0 }
          : null,
  );

  const select = useCallback((s: Selection) => {
    setQuery({ sel: serializeSelection(s) }, { replace: true });
  }, []);

  function choose(hit: SearchHit) {
    if (hit.what === 'host') setQuery({ host: hit.host, sel: null });
    else setQuery({ sel: serializeSelection({ type: 'node', guid: hit.guid }) });
    setFocus({ guid: hit.guid, nonce: Date.now() });
  }

  function onSearch(e: FormEvent) {
    e.preventDefault();
    if (!idx) return;
    const q = search.trim();
    setQuery({ q: q || null });
    const found = q ? searchTopology(idx, q) : [];
    if (found.length === 1 || (found[0] && found[0].name.toLowerCase() === q.toLowerCase())) choose(found[0]);
  }

  function pickFromPanel(s: Selection) {
    select(s);
    if (s?.type === 'link') setFocus({ linkId: s.id, nonce: Date.now() });
  }

  const counts = idx
    ? { nodes: idx.nodeCount, links: idx.linkCount }
    : { nodes: first!.nodeCount, links: first!.linkCount };
  const loading = idx === null;
  const generatedAt = reply?.generatedAt ?? first!.generatedAt;
  if (counts.nodes === 0) {
    return <Empty>The topology is empty: no topology scan has completed yet. See the Scans page.</Empty>;
  }

  return (
    <>
      <div className="topo-toolbar">
        <form onSubmit={onSearch} className="row" role="search">
          <label>
            Find host, switch or GUID
            <input
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={placeholder}
              size={Math.max(24, placeholder.length + 2)}
              data-testid="topology-search"
              disabled={loading}
            />
          </label>
          <button type="submit" disabled={loading}>
            Find
          </button>
        </form>
        <label>
          Leaf order
          <select
            value={groupBy}
            disabled={loading}
            onChange={(e) => setQuery({ group: e.target.value === 'rail' ? null : e.target.value })}
          >
            <option value="rail">by rail</option>
            <option value="name">by name</option>
          </select>
        </label>
        {host && (
          <p className="badge tone-info" data-testid="topology-host-highlight">
            Rails of {host}: {idx?.hcasOfHost.get(host)?.length ?? 0} HCAs{' '}
            <button
              type="button"
              className="btn-small"
              onClick={() => setQuery({ host: null })}
              aria-label="Clear host highlight"
            >
              ✕
            </button>
          </p>
        )}
        <span className="muted small">
          Topology of <Time at={generatedAt} /> · {counts.nodes.toLocaleString()} nodes ·{' '}
          {counts.links.toLocaleString()} links
        </span>
      </div>
      {query.q && (
        <ul className="search-hits" aria-label="Search results" data-testid="topology-search-hits">
          {hits.length === 0 && <li className="muted">No match for “{query.q}”.</li>}
          {hits.map((h) => (
            <li key={h.what + h.guid}>
              <button type="button" className="btn-small" onClick={() => choose(h)}>
                {HIT_LABEL[h.what]}
                {h.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="topo">
        <div className="topo-main">
          <div className="topo-stage">
            <TopoCanvas
              aggregated={aggregated}
              expanded={expanded}
              highlight={highlight}
              selection={idx ? selection : null}
              onPick={select}
              focus={focus}
              t0={t0}
              counts={counts}
              onFirstFrame={drawn}
            />
          </div>
          <Legend />
        </div>
        <aside className="topo-panel" aria-label="Details">
          {idx ? (
            <DetailsPanel idx={idx} sel={selection} onSelect={pickFromPanel} problems={idx.problems} />
          ) : (
            <p className="muted" data-testid="topology-details-loading">
              Loading the details…
            </p>
          )}
        </aside>
      </div>
    </>
  );
}

export default function TopologyPage() {
  const { query } = useLocation();
  // What the URL asks for when the page opens (a selection needs the reply for its first frame).
  const [opts] = useState(() => jobOptions(query));
  const state = useTopology(opts);
  return (
    <section data-testid="topology-page">
      <h1 className="sr-only">Topology</h1>
      <Async state={state} what="topology">
        {(data) => <TopologyView data={data} drawn={state.drawn} />}
      </Async>
    </section>
  );
}
