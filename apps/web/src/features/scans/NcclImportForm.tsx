import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../../api/client.ts';
import { useToken } from '../../api/token.ts';
import { Link } from '../../components/Link.tsx';
import { TokenHint } from '../../components/WriteButton.tsx';
import { buildNcclLabels, buildRunStart, replyWarnings } from './scans.ts';

type Fields = Record<'cluster' | 'nodes' | 'gpuModel' | 'hcaCount' | 'runBy', string>;
const EMPTY: Fields = { cluster: '', nodes: '', gpuModel: '', hcaCount: '', runBy: '' };
const LABELS: [keyof Fields, string][] = [
  ['cluster', 'Cluster'],
  ['nodes', 'Nodes'],
  ['gpuModel', 'GPU model'],
  ['hcaCount', 'HCAs per node'],
  ['runBy', 'Run by'],
];

/** Paste nccl-tests output + labels → POST /api/nccl-runs. */
export function NcclImportForm() {
  const token = useToken();
  const [text, setText] = useState('');
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [runStart, setRunStart] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string; runId?: number; warnings?: string[] } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { labels, errors } = buildNcclLabels(fields);
    const start = buildRunStart(runStart, Date.now());
    if (start.error) errors.push(start.error);
    if (!text.trim()) errors.unshift('paste the nccl-tests output first');
    if (errors.length) {
      setMsg({ ok: false, text: errors.join('; ') });
      return;
    }
    setBusy(true);
    setMsg(null);
    try {
      // The contract does not type this reply; a run id is used when present.
      const body = start.startedAt === undefined ? { text, labels } : { text, labels, startedAt: start.startedAt };
      const reply = await api.post('/api/nccl-runs', body);
      const id = reply && typeof reply === 'object' ? (reply as Record<string, unknown>).id : undefined;
      const warnings = replyWarnings(reply);
      setMsg({
        ok: true,
        text: warnings.length ? `Imported with ${warnings.length} warning(s).` : 'Imported.',
        runId: typeof id === 'number' ? id : undefined,
        warnings,
      });
      setText('');
    } catch (err) {
      setMsg({ ok: false, text: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="nccl-import">
      <h2 id="nccl-import">Import nccl-tests output</h2>
      <TokenHint />
      <form onSubmit={submit} className="import-form" data-testid="nccl-import-form">
        <label className="block">
          <span>
            Output of <code>all_reduce_perf</code> (or another nccl-tests binary)
          </span>
          <textarea
            rows={8}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
            data-testid="nccl-import-text"
            placeholder="# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 ..."
          />
        </label>
        <div className="row wrap">
          {LABELS.map(([k, label]) => (
            <label key={k}>
              {label}
              <input
                value={fields[k]}
                inputMode={k === 'nodes' || k === 'hcaCount' ? 'numeric' : undefined}
                onChange={(e) => setFields({ ...fields, [k]: e.target.value })}
                data-testid={`nccl-label-${k}`}
              />
            </label>
          ))}
          <label>
            Run started at <span className="muted small">(blank: now)</span>
            <input
              type="datetime-local"
              value={runStart}
              onChange={(e) => setRunStart(e.target.value)}
              data-testid="nccl-run-at"
            />
          </label>
        </div>
        <button type="submit" disabled={!token || busy} data-testid="nccl-import-submit">
          {busy ? 'Importing…' : 'Import run'}
        </button>
        {msg && (
          <p
            role={msg.ok ? 'status' : 'alert'}
            className={msg.ok ? 'tone-ok' : 'write-error'}
            data-testid="nccl-import-result"
          >
            {msg.ok ? '● ' : '✖ '}
            {msg.text}
            {msg.runId !== undefined && (
              <>
                {' '}
                <Link href={`/bandwidth/runs/${msg.runId}`}>Open run #{msg.runId}</Link>
              </>
            )}
          </p>
        )}
        {msg?.warnings && msg.warnings.length > 0 && (
          <ul className="write-warnings" data-testid="nccl-import-warnings">
            {msg.warnings.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list whose lines may repeat
              <li key={i}>⚠ {w}</li>
            ))}
          </ul>
        )}
      </form>
    </section>
  );
}
