import type { HotLink, TrafficHotReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { enumParam, href, portHref, useLocation } from '../../router.ts';
import { formatPct, formatTicks, HOT_SORTS, hotRows, tierPath, type HotSort } from './traffic.ts';

const WINDOWS = ['1', '6', '24', '168'] as const;
const WINDOW_LABEL: Record<(typeof WINDOWS)[number], string> = { '1': '1h', '6': '6h', '24': '24h', '168': '7d' };
const SORT_LABEL: Record<HotSort, string> = {
  util: 'Utilisation',
  peak: 'Peak',
  wait: 'XmitWait',
  name: 'Name',
};

function Row({ l }: { l: HotLink }) {
  return (
    <tr data-testid="hot-link" data-guid={l.guid} data-port={l.port} data-uplink={l.uplink ? '1' : '0'}>
      <td>
        <Link href={portHref(l.guid, l.port)}>
          {l.name} · port {l.port}
        </Link>
      </td>
      <td>
        {tierPath(l)}
        {l.uplink && <span className="badge tone-warn"> uplink</span>}
      </td>
      <td>{l.remote ? `${l.remote.name} · port ${l.remote.port}` : <span className="muted">none</span>}</td>
      <td className="mono">{l.rate ?? <span className="muted">unknown</span>}</td>
      <td className="num" data-testid="hot-util">
        {formatPct(Math.max(l.txAvgPct, l.rxAvgPct))}
        <div className="small muted">
          tx {formatPct(l.txAvgPct)} · rx {formatPct(l.rxAvgPct)}
        </div>
      </td>
      <td className="num">{formatPct(Math.max(l.txMaxPct, l.rxMaxPct))}</td>
      <td className="num" data-testid="hot-wait">
        {formatTicks(l.waitAvgTps)}
        <div className="small muted">max {formatTicks(l.waitMaxTps)}</div>
      </td>
    </tr>
  );
}

function HotTable({ r, sort }: { r: TrafficHotReply; sort: HotSort }) {
  const { query, path } = useLocation();
  const rows = hotRows(r.byUtilisation, r.byXmitWait, sort);
  if (rows.length === 0)
    return <Empty>No traffic measured in this window: rates need two PM sweeps of the data counters.</Empty>;
  const head = (s: HotSort, label: string) => (
    <th scope="col" aria-sort={s === sort ? 'descending' : undefined}>
      <Link href={href(path, { ...query, sort: s })} data-testid={`hot-sort-${s}`}>
        {label}
      </Link>
    </th>
  );
  return (
    <div className="table-wrap">
      <table className="table" data-testid="hot-links">
        <thead>
          <tr>
            {head('name', 'Port')}
            <th scope="col">Tier</th>
            <th scope="col">Remote end</th>
            <th scope="col">Rate</th>
            {head('util', `${SORT_LABEL.util} (avg)`)}
            {head('peak', `${SORT_LABEL.peak} (hourly max)`)}
            {head('wait', `${SORT_LABEL.wait} (ticks/s)`)}
          </tr>
        </thead>
        <tbody>
          {rows.map((l) => (
            <Row key={`${l.guid}/${l.port}`} l={l} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function HotLinksPage() {
  const { query, path } = useLocation();
  const hours = enumParam(query, 'hours', WINDOWS, '1');
  const sort = enumParam(query, 'sort', HOT_SORTS, 'util');
  const state = useApi(`/api/traffic/hot${href('', { hours, limit: 50 })}`, { refreshMs: 30_000 });
  return (
    <section data-testid="hot-links-page">
      <div className="page-head">
        <h1>Hot links</h1>
        <nav className="range-picker" aria-label="Window">
          {WINDOWS.map((w) => (
            <Link
              key={w}
              href={href(path, { ...query, hours: w })}
              aria-current={w === hours ? 'true' : undefined}
              data-testid={`hot-window-${WINDOW_LABEL[w]}`}
            >
              {WINDOW_LABEL[w]}
            </Link>
          ))}
        </nav>
      </div>
      <p className="muted small">
        Utilisation: % of the link's data rate (width × lane rate, 4X NDR = 400 Gb/s), busier direction; averages and
        hourly maxima over the window. XmitWait: ticks per second the port had data to send and no credit (congestion).
      </p>
      <Async state={state} what="hot links">
        {(r) => <HotTable r={r} sort={sort} />}
      </Async>
    </section>
  );
}
