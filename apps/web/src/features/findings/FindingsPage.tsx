import type { FindingState, Severity } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { FindingsTable } from '../../components/FindingsTable.tsx';
import { NoRows } from '../../components/NoRows.tsx';
import { Async } from '../../components/States.tsx';
import { TokenHint } from '../../components/WriteButton.tsx';
import { ANY_DATA } from '../../lib/coverage.ts';
import { isSeverity, SEVERITIES } from '../../lib/status.ts';
import { serializeQuery, setQuery, useLocation } from '../../router.ts';
import { kindSuggestions } from './findings.ts';

// Lifecycle states, plus `current` (what the latest scans observe) and `cleared` (open, no longer observed).
const STATES: (FindingState | 'current' | 'cleared')[] = ['current', 'cleared', 'open', 'acknowledged', 'resolved'];

export default function FindingsPage() {
  const { query } = useLocation();
  const state = STATES.includes(query.state as FindingState) ? query.state : undefined;
  const severity = isSeverity(query.severity) ? query.severity : undefined;
  const kind = query.kind?.trim() || undefined;
  const api = useApi(`/api/findings${serializeQuery({ state, severity, kind })}`, { refreshMs: 60_000 });
  return (
    <section data-testid="findings-page">
      <h1>Findings</h1>
      <FilterForm
        label="Finding filters"
        fields={[
          {
            key: 'kind',
            label: 'Kind or family',
            placeholder: 'link-degraded',
            suggestions: kindSuggestions(api.data ?? []),
          },
        ]}
        values={{ kind }}
        onApply={(v) => setQuery({ kind: v.kind })}
      >
        <label>
          State
          <select value={state ?? ''} onChange={(e) => setQuery({ state: e.target.value })} data-testid="filter-state">
            <option value="">any</option>
            {STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Severity
          <select
            value={severity ?? ''}
            onChange={(e) => setQuery({ severity: e.target.value })}
            data-testid="filter-severity"
          >
            <option value="">any</option>
            {SEVERITIES.map((s: Severity) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </FilterForm>
      <TokenHint />
      <Async state={api} what="findings">
        {(rows) =>
          rows.length === 0 ? (
            <NoRows feeds={ANY_DATA} what="findings" checked="● No finding matches these filters." />
          ) : (
            <FindingsTable rows={rows} actions reload={api.reload} />
          )
        }
      </Async>
    </section>
  );
}
