import { Time } from './Time.tsx';

/** "Updated at … · refreshes every N s" of a polled wall page (empty before the first answer). */
export function UpdatedAt({
  poll,
  refreshMs,
}: {
  poll: { updatedAt: number | undefined; loading: boolean };
  refreshMs: number;
}) {
  return (
    <p className="updated" aria-live="polite" data-testid="updated-at">
      {poll.updatedAt ? (
        <>
          Updated at <Time at={poll.updatedAt} /> · refreshes every {refreshMs / 1000} s
          {poll.loading && <span className="muted"> · refreshing…</span>}
        </>
      ) : null}
    </p>
  );
}
