import type { ReactNode } from 'react';
import { useApi } from '../api/useApi.ts';
import { coverage, type Feeds, noDataAdvice } from '../lib/coverage.ts';
import { Link } from './Link.tsx';
import { Empty } from './States.tsx';
import { Time } from './Time.tsx';

/**
 * The empty state of a view: "checked and nothing found" only once a scan that fills the view
 * has completed, else "no data yet" and what to do. Reads the summary only when shown.
 */
export function NoRows({ feeds, what, checked }: { feeds: Feeds; what: string; checked: ReactNode }) {
  const { data, error } = useApi('/api/summary');
  if (!data) {
    return (
      <div data-testid="no-rows" data-coverage="unknown">
        <Empty>
          No {what}. {error ? 'Could not tell whether any scan has completed yet.' : 'Checking for completed scans…'}
        </Empty>
      </div>
    );
  }
  const c = coverage(data, feeds);
  if (c.state === 'checked') {
    return (
      <div data-testid="no-rows" data-coverage="checked">
        <Empty>
          {checked}{' '}
          <span className="muted small">
            (checked by the {c.kinds[0]} scan of <Time at={c.lastOkAt} short />)
          </span>
        </Empty>
      </div>
    );
  }
  return (
    <div data-testid="no-rows" data-coverage="no-data" data-import-only={c.importOnly}>
      <Empty>
        <strong>No data yet:</strong> no scan or import has completed, so there are no {what} to show, and no all-clear
        either.{' '}
        {noDataAdvice(
          c,
          data.freshness.map((f) => f.kind),
        )}{' '}
        <Link href="/scans">Scans</Link> shows their progress and errors.
      </Empty>
    </div>
  );
}
