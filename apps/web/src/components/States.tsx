import type { ReactNode } from 'react';
import type { ApiError } from '../api/client.ts';

export function Loading({ what = 'data' }: { what?: string }) {
  return (
    <div className="state state-loading" data-testid="loading-state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="state state-empty" data-testid="empty-state">
      {children}
    </div>
  );
}

export function ErrorState({ error, retry }: { error: ApiError | Error; retry?: () => void }) {
  const status = 'status' in error ? (error as ApiError).status : 0;
  return (
    <div className="state state-error" data-testid="error-state" role="alert">
      <strong>✖ Could not load{status ? ` (HTTP ${status})` : ''}:</strong>{' '}
      <span className="error-message">{error.message}</span>
      {retry && (
        <button type="button" onClick={retry} className="btn-small">
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * The usual loading / error / content switch: shows loading only when there is no data yet,
 * and an error banner above stale data when a refresh fails.
 */
export function Async<T>({
  state,
  what,
  children,
}: {
  state: { data: T | undefined; error: ApiError | undefined; loading: boolean; reload: () => void };
  what?: string;
  children: (data: T) => ReactNode;
}) {
  if (state.data === undefined) {
    if (state.error) return <ErrorState error={state.error} retry={state.reload} />;
    return <Loading what={what} />;
  }
  return (
    <>
      {state.error && <ErrorState error={state.error} retry={state.reload} />}
      {children(state.data)}
    </>
  );
}
