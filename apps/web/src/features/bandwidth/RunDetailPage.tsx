import { formatBytes, ranksText, runHardwareText, type NcclRunDetailReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { verdictLook } from '../../lib/status.ts';
import { formatGBs, gdrText, nodesText, targetText } from './bandwidth.ts';
import { Correlation } from './Correlation.tsx';
import { SizeChart } from './SizeChart.tsx';
import './bandwidth.css';

const num = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d));

function RunView({ d }: { d: NcclRunDetailReply }) {
  const r = d.run;
  return (
    <>
      <h1>
        Run #{r.id}: {r.collective}
      </h1>
      {r.verdict === 'host-memory-fallback' && (
        <div className="banner tone-crit" role="alert" data-testid="host-memory-fallback">
          ⚠ HOST-MEMORY FALLBACK: the run's own NCCL_DEBUG lines show GPUDirect RDMA disabled, so NCCL staged traffic
          through host memory. Check nvidia-peermem and the GDR evidence below.
        </div>
      )}
      {r.flags.includes('gdr-unknown') && (
        <div className="banner tone-warn" data-testid="gdr-unknown">
          ◆ In the host-staging band (50-100 GB/s); GDR state unknown: rerun with NCCL_DEBUG=INFO. The log has no
          GPUDirect RDMA lines, so nothing here says whether NCCL used it.
        </div>
      )}
      {r.regression && (
        <div className="banner tone-warn" data-testid="run-regression">
          ▼ REGRESSION: busbw at the largest size dropped against earlier runs of {r.collective} with the same labels.
        </div>
      )}
      {d.importWarnings.length > 0 && (
        <div className="banner tone-warn" data-testid="run-import-warnings">
          ⚠ The import of this run warned ({d.importWarnings.length}):
          <ul>
            {d.importWarnings.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: warnings are a fixed list and may repeat
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <section className="card" data-testid="nccl-run-summary" data-verdict={r.verdict}>
        <dl className="kv">
          <dt>Verdict</dt>
          <dd>
            <Badge look={verdictLook[r.verdict]} />
          </dd>
          <dt>Peak busbw</dt>
          <dd data-testid="run-headline">
            <strong>{formatGBs(r.peakBusbwGBs)}</strong>
            {r.peakSizeBytes !== null && <> at {formatBytes(r.peakSizeBytes)}</>}{' '}
            <span className="muted">— the best over every size: what the verdict uses</span>
          </dd>
          <dt>Largest size</dt>
          <dd data-testid="run-largest">
            {formatGBs(r.largestBusbwGBs)}
            {r.largestSizeBytes !== null && <> at {formatBytes(r.largestSizeBytes)}</>}{' '}
            <span className="muted">— what regressions compare</span>
          </dd>
          <dt>Target</dt>
          <dd data-testid="run-target">{targetText(r)}</dd>
          <dt>Hardware</dt>
          <dd data-testid="run-hardware">{runHardwareText(r)}</dd>
          <dt>Avg bus bandwidth</dt>
          <dd data-testid="run-avg-busbw">
            {formatGBs(r.avgBusbwGBs)}{' '}
            <span className="muted">
              — nccl-tests' <code># Avg bus bandwidth</code>: the mean over every size, small ones included; not what
              the verdict uses
            </span>
          </dd>
          <dt>When</dt>
          <dd>
            <Time at={r.at} />
            {Math.abs(r.createdAt - r.at) > 60_000 && (
              <span className="muted">
                {' '}
                (imported <Time at={r.createdAt} />)
              </span>
            )}
          </dd>
          <dt>Nodes / ranks</dt>
          <dd data-testid="run-ranks">
            {nodesText(r)} / {ranksText(r.ranks)}
          </dd>
          <dt>GDR</dt>
          <dd data-testid="run-gdr">{gdrText(r.gdr)}</dd>
          <dt>NCCL</dt>
          <dd>{r.ncclVersion ?? '—'}</dd>
          <dt>Labels</dt>
          <dd>
            {Object.entries(r.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(' · ') || '—'}
          </dd>
          {r.truncated && (
            <>
              <dt>Input</dt>
              <dd className="mismatch">✂ output was truncated; sizes may be missing</dd>
            </>
          )}
        </dl>
      </section>
      <SizeChart d={d} />
      <div className="grid-2">
        <section className="card" aria-labelledby="run-gdr-h">
          <h2 id="run-gdr-h">GDR evidence</h2>
          {d.gdrEvidence.length === 0 ? (
            <p className="muted">No GDR lines in the output (run with NCCL_DEBUG=INFO to get them).</p>
          ) : (
            <pre className="evidence" data-testid="run-gdr-evidence">
              {d.gdrEvidence.join('\n')}
            </pre>
          )}
        </section>
        <section className="card" aria-labelledby="run-hosts">
          <h2 id="run-hosts">Hosts ({r.hosts.length})</h2>
          <ul className="hosts">
            {r.hosts.map((h) => (
              <li key={h}>
                <Link href={`/topology?host=${encodeURIComponent(h)}`}>{h}</Link>
                {d.correlation.unmatchedHosts.includes(h) && <span className="muted"> (not in the topology)</span>}
              </li>
            ))}
          </ul>
        </section>
      </div>
      <Correlation d={d} />
      <h2>Sizes</h2>
      {d.rows.length === 0 ? (
        <Empty>No size rows were parsed from this run.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="run-sizes">
            <thead>
              <tr>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">Type</th>
                <th scope="col">Op</th>
                <th scope="col" className="num">
                  Out-of-place time <span className="unit">(µs)</span>
                </th>
                <th scope="col" className="num">
                  algbw
                </th>
                <th scope="col" className="num">
                  busbw
                </th>
                <th scope="col" className="num">
                  In-place time <span className="unit">(µs)</span>
                </th>
                <th scope="col" className="num">
                  algbw
                </th>
                <th scope="col" className="num">
                  busbw
                </th>
                <th scope="col" className="num">
                  #wrong
                </th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((x, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are in size order; zero-byte rows may repeat
                <tr key={i}>
                  <td className="num">{formatBytes(x.sizeBytes)}</td>
                  <td>{x.type}</td>
                  <td>{x.redop ?? '—'}</td>
                  <td className="num">{num(x.outOfPlace.timeUs, 1)}</td>
                  <td className="num">{num(x.outOfPlace.algbwGBs)}</td>
                  <td className="num">{num(x.outOfPlace.busbwGBs)}</td>
                  <td className="num">{num(x.inPlace.timeUs, 1)}</td>
                  <td className="num">{num(x.inPlace.algbwGBs)}</td>
                  <td className="num">{num(x.inPlace.busbwGBs)}</td>
                  <td className={(x.outOfPlace.wrong ?? 0) + (x.inPlace.wrong ?? 0) > 0 ? 'num mismatch' : 'num'}>
                    {(x.outOfPlace.wrong ?? 0) + (x.inPlace.wrong ?? 0)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export default function RunDetailPage({ id }: { id: number }) {
  const state = useApi(`/api/nccl/runs/${id}`);
  return (
    <section data-testid="nccl-run-detail">
      <p className="muted small no-print">
        <Link href="/bandwidth">← Bandwidth</Link>
      </p>
      <Async state={state} what={`run #${id}`}>
        {(d) => <RunView d={d} />}
      </Async>
    </section>
  );
}
