import type { PortRow } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { searchPlaceholders } from '../../lib/placeholders.ts';
import { href, portHref, setQuery, useLocation } from '../../router.ts';
import {
  nextSort,
  PAGE_SIZES,
  pageInfo,
  parsePortsQuery,
  portStateText,
  portsApiPath,
  sortDirection,
  type PortsListState,
} from './ports.ts';

/** The API's state filter: Down is a link that went down, Unused a port never cabled. */
const STATES: { value: string; label: string }[] = [
  { value: 'Active', label: 'Active' },
  { value: 'Down', label: 'Down (link went down)' },
  { value: 'Unused', label: 'Unused (never cabled)' },
  { value: 'Initialize', label: 'Initialize' },
  { value: 'Armed', label: 'Armed' },
];

/** The remote end now, else where the port was last connected. */
export function RemoteCell({ p }: { p: Pick<PortRow, 'remote' | 'lastRemote' | 'unused'> }) {
  if (p.remote)
    return (
      <Link href={portHref(p.remote.guid, p.remote.port)}>
        {p.remote.name} port {p.remote.port}
      </Link>
    );
  if (p.lastRemote)
    return (
      <span className="muted">
        was{' '}
        <Link href={portHref(p.lastRemote.guid, p.lastRemote.port)}>
          {p.lastRemote.name} port {p.lastRemote.port}
        </Link>{' '}
        (<Time at={p.lastRemote.lastSeen} short />)
      </span>
    );
  return <span className="muted">{p.unused ? 'never cabled' : 'none'}</span>;
}

function SortHeader({ s, k, label }: { s: PortsListState; k: string; label: string }) {
  const dir = sortDirection(s.sort, k);
  return (
    <th scope="col" aria-sort={dir}>
      <button
        type="button"
        className="sort-button"
        onClick={() => setQuery({ sort: nextSort(s.sort, k), offset: null })}
      >
        {label} {dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : ''}
      </button>
    </th>
  );
}

function Table({ s, rows }: { s: PortsListState; rows: PortRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <SortHeader s={s} k="name" label="Port" />
            <SortHeader s={s} k="lid" label="LID" />
            <SortHeader s={s} k="state" label="State" />
            <th scope="col">Width / speed</th>
            <th scope="col">Remote end</th>
            <SortHeader s={s} k="findings" label="Open findings" />
            <SortHeader s={s} k="lastSeen" label="Last seen" />
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={`${p.guid}/${p.port}`} data-testid="port-row" data-guid={p.guid} data-port={p.port}>
              <td>
                <Link href={portHref(p.guid, p.port)}>
                  {p.name} <strong>port {p.port}</strong>
                </Link>
                <div className="mono small muted">{p.guid}</div>
              </td>
              <td>{p.lid ?? '—'}</td>
              <td data-testid="port-row-state">
                {portStateText(p)}
                <div className="small muted">{p.physState ?? ''}</div>
                {p.stale && <div className="small stale">◌ not in the latest scan</div>}
              </td>
              <td>{p.widthActive || p.speedActive ? `${p.widthActive ?? '?'} ${p.speedActive ?? '?'}` : '—'}</td>
              <td>
                <RemoteCell p={p} />
              </td>
              <td className="num">{p.openFindings > 0 ? `▲ ${p.openFindings}` : '0'}</td>
              <td>
                <Time at={p.lastSeen} short />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function PortsPage() {
  const { query } = useLocation();
  const s = parsePortsQuery(query);
  const state = useApi(portsApiPath(s));
  const examples = searchPlaceholders(useApi('/api/summary').data?.exampleNames);
  return (
    <section data-testid="ports-page">
      <h1>Ports</h1>
      <FilterForm
        label="Port filters"
        fields={[{ key: 'q', label: 'Name, GUID or LID', placeholder: examples.node }]}
        values={{ q: s.q }}
        onApply={(v) => setQuery({ q: v.q, offset: null })}
      >
        <label>
          State
          <select
            value={s.state}
            onChange={(e) => setQuery({ state: e.target.value, offset: null })}
            data-testid="filter-state"
          >
            <option value="">any</option>
            {STATES.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per page
          <select
            value={s.limit}
            onChange={(e) => setQuery({ limit: e.target.value, offset: null })}
            aria-label="Ports per page"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
      </FilterForm>
      <Async state={state} what="ports">
        {(r) => {
          if (r.items.length === 0) return <Empty>No port matches these filters.</Empty>;
          const pi = pageInfo(r.total, s.limit, s.offset, r.items.length);
          const base = { ...query };
          return (
            <>
              <Table s={s} rows={r.items} />
              <nav className="pager" aria-label="Pages">
                <Link
                  href={href('/ports', { ...base, offset: pi.prevOffset || null })}
                  aria-disabled={pi.prevOffset === null}
                  data-testid="ports-prev"
                >
                  ← Previous
                </Link>
                <span data-testid="ports-range">
                  {pi.from.toLocaleString()}–{pi.to.toLocaleString()} of {pi.total.toLocaleString()}
                </span>
                <Link
                  href={href('/ports', { ...base, offset: pi.nextOffset ?? s.offset })}
                  aria-disabled={pi.nextOffset === null}
                  data-testid="ports-next"
                >
                  Next →
                </Link>
              </nav>
            </>
          );
        }}
      </Async>
    </section>
  );
}
