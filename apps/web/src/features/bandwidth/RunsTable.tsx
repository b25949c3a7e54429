import { formatBytes, ranksText, type NcclRunRow } from '@ibwatch/fabric';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { Time } from '../../components/Time.tsx';
import { flagLook, verdictLook } from '../../lib/status.ts';
import { formatGBs, gdrText, nodesText } from './bandwidth.ts';

const at = (size: number | null) => (size === null ? '' : ` at ${formatBytes(size)}`);

/** The runs of the period, newest first: the same columns and words as the CSV. */
export function RunsTable({ runs }: { runs: NcclRunRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">When</th>
            <th scope="col">Collective</th>
            <th scope="col">Nodes / ranks</th>
            <th scope="col">GPU</th>
            <th scope="col">Verdict</th>
            <th scope="col" className="num">
              Peak busbw
            </th>
            <th scope="col" className="num">
              Largest size
            </th>
            <th scope="col">Target</th>
            <th scope="col">GDR</th>
          </tr>
        </thead>
        <tbody>
          {[...runs]
            .sort((a, b) => b.at - a.at || b.id - a.id)
            .map((r) => (
              <tr
                key={r.id}
                data-testid="nccl-run-row"
                data-verdict={r.verdict}
                data-regression={r.regression ? '1' : '0'}
                data-flags={r.flags.join(' ')}
              >
                <td>
                  <Link href={`/bandwidth/runs/${r.id}`}>#{r.id}</Link>
                </td>
                <td>
                  <Time at={r.at} short />
                </td>
                <td>{r.collective}</td>
                <td>
                  {nodesText(r)} / {ranksText(r.ranks)}
                </td>
                <td className="small">
                  {r.gpuModel ?? '—'}
                  {r.gpusPerNode !== null && <span className="muted"> ×{r.gpusPerNode}/node</span>}
                </td>
                <td>
                  <Badge look={verdictLook[r.verdict]} />
                  {r.flags
                    .filter((f) => f !== 'gdr-off')
                    .map((f) => (
                      <Badge key={f} look={flagLook[f]} testid={`nccl-run-flag-${f}`} />
                    ))}
                  {r.truncated && <span className="badge tone-warn">✂ TRUNCATED</span>}
                  {r.importWarnings > 0 && (
                    <span className="badge tone-warn" title="see the run's import warnings">
                      ⚠ {r.importWarnings} WARNING{r.importWarnings === 1 ? '' : 'S'}
                    </span>
                  )}
                </td>
                <td className="num" data-testid="nccl-run-busbw">
                  {formatGBs(r.peakBusbwGBs)}
                </td>
                <td className="num muted" data-testid="nccl-run-largest">
                  {formatGBs(r.largestBusbwGBs)}
                  {at(r.largestSizeBytes)}
                </td>
                <td data-testid="nccl-run-target">
                  {r.targetGBs === null ? (
                    <span className="muted" title={r.targetNote ?? undefined}>
                      no target
                    </span>
                  ) : (
                    <>
                      {formatGBs(r.targetGBs)} <span className="muted small">{r.targetProfile}</span>
                    </>
                  )}
                </td>
                <td>{gdrText(r.gdr)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
