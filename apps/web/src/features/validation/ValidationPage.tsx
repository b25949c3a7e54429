import type { BaselineValidationReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Empty, Async } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { KIND_LABEL, linkText } from './validation.ts';

function Report({ r }: { r: BaselineValidationReply }) {
  if (!r.baseline)
    return (
      <Empty>
        No as-built cabling set. Take it from the current topology with <code>ibwatch baseline set</code>, or from an
        ibnetdiscover topology file with <code>ibwatch baseline import FILE</code>.
      </Empty>
    );
  return (
    <>
      <p data-testid="validation-summary">
        As-built of <Time at={r.baseline.setAt} /> ({r.baseline.source}, {r.baseline.links.toLocaleString()} links)
        against the {r.linksNow.toLocaleString()} links now, checked <Time at={r.checkedAt} />:{' '}
        {r.rows.length === 0
          ? 'cabled as built.'
          : (Object.keys(KIND_LABEL) as (keyof typeof KIND_LABEL)[])
              .filter((k) => r.counts[k] > 0)
              .map((k) => `${r.counts[k]} ${KIND_LABEL[k].toLowerCase()}`)
              .join(', ')}
      </p>
      {r.rows.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="validation-table">
            <thead>
              <tr>
                <th scope="col">Difference</th>
                <th scope="col">As built</th>
                <th scope="col">Now</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {r.rows.map((x) => (
                <tr
                  key={`${x.kind}|${linkText(x.asBuilt)}|${linkText(x.now)}`}
                  data-testid="validation-row"
                  data-kind={x.kind}
                >
                  <td>{KIND_LABEL[x.kind]}</td>
                  <td>{linkText(x.asBuilt)}</td>
                  <td>{linkText(x.now)}</td>
                  <td>{x.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export default function ValidationPage() {
  const state = useApi('/api/baseline/validation', { refreshMs: 300_000 });
  return (
    <section data-testid="validation-page">
      <div className="page-head">
        <h1>Topology validation</h1>
        <div className="row no-print">
          <a href="/api/baseline/validation.csv" className="button-link" data-testid="validation-csv" download>
            ⇩ CSV
          </a>
          <button type="button" onClick={() => window.print()} data-testid="validation-print">
            Print
          </button>
        </div>
      </div>
      <div className="print-only print-header">
        <strong>ibwatch topology validation</strong> · generated {state.updatedAt ? <Time at={state.updatedAt} /> : '—'}
      </div>
      <Async state={state} what="the topology validation">
        {(r) => <Report r={r} />}
      </Async>
    </section>
  );
}
