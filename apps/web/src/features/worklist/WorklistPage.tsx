import type { LinkEnd, Severity, WorklistEntry } from '@ibwatch/fabric';
import { api } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { WatchCount } from '../watch/WatchCount.tsx';
import { Badge } from '../../components/Badge.tsx';
import { FilterForm } from '../../components/FilterForm.tsx';
import { Link } from '../../components/Link.tsx';
import { NoRows } from '../../components/NoRows.tsx';
import { Async } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { TokenHint, WriteButton } from '../../components/WriteButton.tsx';
import { LINK_DATA } from '../../lib/coverage.ts';
import { searchPlaceholders } from '../../lib/placeholders.ts';
import { lifecycleLook, SEVERITIES, severityLook } from '../../lib/status.ts';
import { portHref, setQuery, useLocation } from '../../router.ts';
import {
  describeFilters,
  hostList,
  impactSummary,
  parseWorklistFilters,
  racksOf,
  worklistApiPath,
  worklistCsvHref,
} from './worklist.ts';
import './worklist.css';

function End({ end }: { end: LinkEnd | null }) {
  if (!end) return <span className="muted">remote end unknown</span>;
  return (
    <div className="end">
      <Link href={portHref(end.guid, end.port)}>
        <strong>{end.name}</strong> port {end.port}
      </Link>
      <div className="mono small">{end.guid}</div>
      <div className="small">LID {end.lid ?? '—'}</div>
    </div>
  );
}

/** Who the cable hurts: hosts, GPUs, uplink share, the Slurm jobs and the nodes to drain first. */
function Impact({ e }: { e: WorklistEntry }) {
  const i = e.impact;
  if (!i) return <span className="muted">—</span>;
  return (
    <div data-testid="worklist-impact" data-gpus={i.gpus} data-jobs={i.jobs.length}>
      <div>{impactSummary(i)}</div>
      {i.jobs.length > 0 && (
        <ul className="reasons small" data-testid="worklist-jobs">
          {i.jobs.map((j) => (
            <li key={j.id}>
              job {j.id} <strong>{j.name}</strong> ({j.user}, {j.nodes} {j.nodes === 1 ? 'node' : 'nodes'})
            </li>
          ))}
        </ul>
      )}
      {i.drain.length > 0 && (
        <div className="drain" data-testid="worklist-drain" title={i.drain.join(' ')}>
          Drain first: <span className="mono">{hostList(i.drain, 8)}</span>
        </div>
      )}
      {i.jobsAt === null && i.hosts.length > 0 && <div className="small muted">Slurm jobs not read</div>}
    </div>
  );
}

async function forAll(ids: number[], fn: (id: number) => Promise<unknown>) {
  for (const id of ids) await fn(id);
}

function Row({ e, reload, focus }: { e: WorklistEntry; reload: () => void; focus: boolean }) {
  // The overview's broken-now rows link here with ?focus=<linkKey>: that entry is marked and in view.
  const ref = (el: HTMLTableRowElement | null) => {
    if (el && focus) el.scrollIntoView({ block: 'center' });
  };
  return (
    <tr
      ref={ref}
      data-testid="worklist-row"
      data-link-key={e.linkKey}
      data-severity={e.severity}
      data-state={e.state}
      data-cleared={e.clearedAt !== null ? '1' : '0'}
      className={focus ? 'is-focus' : undefined}
      aria-current={focus ? 'true' : undefined}
    >
      <td className="checkbox-cell print-only">
        <span aria-hidden="true" />
      </td>
      <td className="num">{e.rank}</td>
      <td>
        <Badge look={severityLook[e.severity]} />
      </td>
      <td>
        <End end={e.a} />
      </td>
      <td>
        <End end={e.b} />
      </td>
      <td>{racksOf(e)}</td>
      <td>
        <ul className="reasons">
          {e.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
        {e.cable && <div className="small muted">Cable: {e.cable}</div>}
        <div className="small muted">
          Since <Time at={e.firstSeen} short />
        </div>
      </td>
      <td>
        <Impact e={e} />
      </td>
      <td>{e.action}</td>
      <td>
        <Badge look={lifecycleLook(e.state, e.clearedAt)} />
        {e.clearedAt !== null && e.state !== 'resolved' && (
          <div className="small muted">
            no longer seen since <Time at={e.clearedAt} short />
          </div>
        )}
        <div className="row wrap no-print actions">
          {e.state === 'open' && (
            <WriteButton
              label="Acknowledge"
              testid="worklist-ack"
              ariaLabel={`Acknowledge rank ${e.rank}`}
              action={() => forAll(e.findingIds, (id) => api.post(`/api/findings/${id}/ack`))}
              onDone={reload}
            />
          )}
          {e.state !== 'resolved' && (
            <WriteButton
              label="Mark fixed"
              testid="worklist-resolve"
              ariaLabel={`Mark rank ${e.rank} fixed`}
              action={() => forAll(e.findingIds, (id) => api.post(`/api/findings/${id}/resolve`))}
              onDone={reload}
            />
          )}
        </div>
      </td>
    </tr>
  );
}

export default function WorklistPage() {
  const { query } = useLocation();
  const filters = parseWorklistFilters(query);
  const state = useApi(worklistApiPath(filters), { refreshMs: 60_000 });
  const examples = searchPlaceholders(useApi('/api/summary').data?.exampleNames);
  return (
    <section data-testid="worklist-page" className="worklist">
      <div className="page-head">
        <h1>Reseat worklist</h1>
        <div className="row no-print">
          <a href={worklistCsvHref(filters)} className="button-link" data-testid="worklist-csv" download>
            ⇩ CSV
          </a>
          <button type="button" onClick={() => window.print()} data-testid="worklist-print">
            Print
          </button>
        </div>
      </div>
      <p className="small no-print" data-testid="worklist-watch">
        <WatchCount /> <span className="muted">: not on this list yet, error rates rising towards it</span>
      </p>
      <div className="print-only print-header" data-testid="worklist-print-header">
        <strong>ibwatch reseat worklist</strong> · generated {state.updatedAt ? <Time at={state.updatedAt} /> : '—'} ·
        filters: {describeFilters(filters)}
      </div>
      <FilterForm
        label="Worklist filters"
        fields={[
          { key: 'switch', label: 'Switch', placeholder: examples.switch },
          { key: 'rack', label: 'Rack', placeholder: examples.rack },
        ]}
        values={{ switch: filters.switch, rack: filters.rack }}
        onApply={(v) => setQuery({ switch: v.switch, rack: v.rack })}
      >
        <label>
          Order
          <select
            value={filters.sort ?? ''}
            onChange={(e) => setQuery({ sort: e.target.value })}
            data-testid="worklist-sort"
          >
            <option value="">most urgent first</option>
            <option value="rack">walking order (rack, U, port)</option>
            <option value="impact">impact (jobs, GPUs)</option>
          </select>
        </label>
        <label>
          Severity
          <select
            value={filters.severity ?? ''}
            onChange={(e) => setQuery({ severity: e.target.value })}
            data-testid="filter-severity"
          >
            <option value="">any</option>
            {SEVERITIES.map((s: Severity) => (
              <option key={s} value={s}>
                {severityLook[s].icon} {s}
              </option>
            ))}
          </select>
        </label>
      </FilterForm>
      <TokenHint />
      <Async state={state} what="worklist">
        {(rows) =>
          rows.length === 0 ? (
            <NoRows
              feeds={LINK_DATA}
              what="links to inspect"
              checked={`● Nothing to reseat${Object.keys(filters).length ? ` for ${describeFilters(filters)}` : ''}.`}
            />
          ) : (
            <div className="table-wrap">
              <table className="table worklist-table">
                <caption className="sr-only">
                  Physical links to inspect,{' '}
                  {filters.sort === 'rack'
                    ? 'in rack walking order'
                    : filters.sort === 'impact'
                      ? 'most jobs and GPUs affected first'
                      : 'most urgent first'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className="checkbox-cell print-only">
                      ✓
                    </th>
                    <th scope="col" className="num">
                      #
                    </th>
                    <th scope="col">Severity</th>
                    <th scope="col">End A (switch)</th>
                    <th scope="col">End B</th>
                    <th scope="col">Rack</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Impact</th>
                    <th scope="col">Action</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((e) => (
                    <Row key={e.linkKey} e={e} reload={state.reload} focus={e.linkKey === query.focus} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </section>
  );
}
