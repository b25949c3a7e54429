import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TopologyReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { setQuery, useLocation } from '../../router.ts';
import { DetailsPanel } from './DetailsPanel.tsx';
import { layoutTopology, type TopoLayout } from './layout.ts';
import { Legend } from './Legend.tsx';
import {
  hostRails,
  indexTopology,
  parseSelection,
  searchTopology,
  serializeSelection,
  type SearchHit,
  type Selection,
} from './model.ts';
import { TopoCanvas, type FocusRequest } from './TopoCanvas.tsx';
import './topology.css';

const HIT_LABEL: Record<SearchHit['what'], string> = {
  host: 'host ',
  switch: 'switch ',
  hca: 'HCA ',
  aggregation: 'SHARP AN ',
};

function TopologyView({ reply }: { reply: TopologyReply }) {
  const t0 = useRef(performance.now()).current;
  const { query } = useLocation();
  const groupBy = query.group === 'name' ? 'name' : 'rail';
  const idx = useMemo(() => indexTopology(reply), [reply]);
  const aggregated = useMemo(() => layoutTopology(idx, { groupBy }), [idx, groupBy]);
  // The per-HCA layout is built the first time the user zooms in far enough.
  const expandedCache = useRef<{ key: string; layout: TopoLayout } | null>(null);
  const expanded = useCallback(() => {
    const key = groupBy;
    if (expandedCache.current?.key !== key)
      expandedCache.current = { key, layout: layoutTopology(idx, { groupBy, expandHcas: true }) };
    return expandedCache.current.layout;
  }, [idx, groupBy]);

  const selKey = query.sel ?? '';
  // Parsed once per URL value so the canvas only redraws when the selection really changes.
  const selection = useMemo(() => parseSelection(selKey), [selKey]);
  const host = query.host ?? null;
  const highlight = useMemo(() => (host ? hostRails(idx, host) : null), [idx, host]);

  const [search, setSearch] = useState(query.q ?? '');
  const hits = useMemo<SearchHit[]>(() => (query.q ? searchTopology(idx, query.q) : []), [idx, query.q]);
  const [focus, setFocus] = useState<FocusRequest | null>(() =>
    selection?.type === 'node'
      ? { guid: selection.guid, nonce: 0 }
      : selection?.type === 'link'
        ? { linkId: selection.id, nonce: 0 }
        : host && idx.hcasOfHost.get(host)?.[0]
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
    const q = search.trim();
    setQuery({ q: q || null });
    const found = q ? searchTopology(idx, q) : [];
    if (found.length === 1 || (found[0] && found[0].name.toLowerCase() === q.toLowerCase())) choose(found[0]);
  }

  function pickFromPanel(s: Selection) {
    select(s);
    if (s?.type === 'link') setFocus({ linkId: s.id, nonce: Date.now() });
  }

  if (idx.nodeCount === 0) {
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
              placeholder="dgx-0042, leaf-r3-07, 0x0002c9…"
              data-testid="topology-search"
            />
          </label>
          <button type="submit">Find</button>
        </form>
        <label>
          Leaf order
          <select
            value={groupBy}
            onChange={(e) => setQuery({ group: e.target.value === 'rail' ? null : e.target.value })}
          >
            <option value="rail">by rail</option>
            <option value="name">by name</option>
          </select>
        </label>
        {host && (
          <p className="badge tone-info" data-testid="topology-host-highlight">
            Rails of {host}: {idx.hcasOfHost.get(host)?.length ?? 0} HCAs{' '}
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
          Topology of <Time at={reply.generatedAt} /> · {idx.nodeCount.toLocaleString()} nodes ·{' '}
          {idx.linkCount.toLocaleString()} links
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
              selection={selection}
              onPick={select}
              focus={focus}
              t0={t0}
              counts={{ nodes: idx.nodeCount, links: idx.linkCount }}
            />
          </div>
          <Legend />
        </div>
        <aside className="topo-panel" aria-label="Details">
          <DetailsPanel idx={idx} sel={selection} onSelect={pickFromPanel} problems={idx.problems} />
        </aside>
      </div>
    </>
  );
}

export default function TopologyPage() {
  const state = useApi('/api/topology');
  return (
    <section data-testid="topology-page">
      <h1 className="sr-only">Topology</h1>
      <Async state={state} what="topology">
        {(reply) => <TopologyView reply={reply} />}
      </Async>
    </section>
  );
}
