import type { ScanFreshness } from '@ibwatch/fabric';
import { Time } from '../../components/Time.tsx';
import { STATUS_LOOK, type ScreenStatus } from './overview.ts';

/** The one status word, big enough to read across the room, and why. */
export function StatusBanner({ status }: { status: ScreenStatus }) {
  const look = STATUS_LOOK[status.word];
  return (
    <section
      className={`status-banner tone-${look.tone} status-${status.word.toLowerCase()}`}
      data-testid="fabric-status"
      data-status={status.word}
      aria-label={`Fabric status ${look.label}`}
      aria-live="polite"
    >
      <p className="status-word">
        <span aria-hidden="true">{look.icon}</span> <span data-testid="fabric-status-word">{look.label}</span>
      </p>
      {status.reasons.length ? (
        <ul className="status-reasons" data-testid="fabric-status-reasons">
          {status.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      ) : (
        <p className="status-reasons">Every cable, subnet manager and scan is as it should be.</p>
      )}
    </section>
  );
}

/**
 * One banner per scan kind whose data is stale, and one when the collector itself stopped
 * answering: what the page shows of them is older than it looks.
 */
export function StaleBanners({
  freshness,
  unreachableSince,
}: {
  freshness: ScanFreshness[];
  unreachableSince: number | null;
}) {
  const stale = freshness.filter((f) => f.state === 'stale');
  const pending = freshness.filter((f) => f.state === 'pending');
  return (
    <>
      {unreachableSince !== null && (
        <p className="banner stale-banner" data-testid="stale-banner" data-kind="collector" role="alert">
          ◷ The collector has not answered since <Time at={unreachableSince} />: everything below is as it was then.
        </p>
      )}
      {stale.map((f) => (
        <p key={f.kind} className="banner stale-banner" data-testid="stale-banner" data-kind={f.kind} role="alert">
          ◷ <strong>{f.kind}</strong> scans are stale: {f.reason}. What this page shows from them may be old.
        </p>
      ))}
      {pending.length > 0 && (
        <p className="muted small" data-testid="pending-scans">
          Waiting for the first {pending.map((f) => f.kind).join(', ')} scan since the collector started.
        </p>
      )}
    </>
  );
}
