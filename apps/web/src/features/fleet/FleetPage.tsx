import { useApi } from '../../api/useApi.ts';
import { UpdatedAt } from '../../components/UpdatedAt.tsx';
import { Async } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { useLocation } from '../../router.ts';
import { FabricTile } from './FabricTile.tsx';
import { FLEET_LOOK, fleetScreen, NO_SIGNAL, wordCounts } from './fleet.ts';
import './fleet.css';

const REFRESH_MS = 15_000;
const KIOSK_REFRESH_MS = 10_000;

/**
 * The fleet wall: one tile per fabric (this collector's and every IBWATCH_PEERS one), read by
 * this collector (`/api/fleet`), so the browser needs to reach only this one. The fleet's word
 * is the worst of the tiles'.
 */
export default function FleetPage() {
  const { query } = useLocation();
  const kiosk = query.kiosk === '1';
  const refreshMs = kiosk ? KIOSK_REFRESH_MS : REFRESH_MS;
  const state = useApi('/api/fleet', { refreshMs });
  const now = Date.now();
  return (
    <section className={`fleet${kiosk ? ' kiosk-layout' : ''}`} data-testid="fleet">
      <div className="page-head">
        <h1>Fleet</h1>
        <UpdatedAt poll={state} refreshMs={refreshMs} />
      </div>
      <Async state={state} what="fleet">
        {(f) => {
          const screen = fleetScreen(f, state);
          const look = FLEET_LOOK[screen.word];
          const lost = screen.unreachableSince !== null;
          return (
            <>
              <section
                className={`fleet-banner tone-${look.tone}${NO_SIGNAL.has(screen.word) ? ' no-signal' : ''}`}
                data-testid="fleet-status"
                data-status={screen.word}
                aria-label={`Fleet status ${look.label}`}
                aria-live="polite"
              >
                <p className="fleet-banner-word">
                  <span aria-hidden="true">{look.icon}</span> <span data-testid="fleet-status-word">{look.label}</span>
                </p>
                <p className="fleet-banner-counts" data-testid="fleet-counts">
                  {wordCounts(f.fabrics)}
                </p>
              </section>
              {lost && (
                <p className="banner stale-banner" data-testid="stale-banner" data-kind="collector" role="alert">
                  ◷ This collector has not answered since <Time at={screen.unreachableSince} />: every tile below is as
                  it was then.
                </p>
              )}
              <ol className="fleet-grid" data-count={f.fabrics.length}>
                {f.fabrics.map((fabric) => (
                  <FabricTile
                    key={fabric.name}
                    f={fabric}
                    now={now}
                    kiosk={kiosk}
                    rows={f.fabrics.length > 4 ? 3 : 5}
                    lost={lost}
                  />
                ))}
              </ol>
              {f.fabrics.length === 1 && (
                <p className="muted" data-testid="fleet-no-peers">
                  No other fabric is listed. Give each fabric's collector a name (<code>IBWATCH_FABRIC_NAME</code>) and
                  list the others in <code>IBWATCH_PEERS=name=http://host:port,...</code> to see them here.
                </p>
              )}
            </>
          );
        }}
      </Async>
    </section>
  );
}
