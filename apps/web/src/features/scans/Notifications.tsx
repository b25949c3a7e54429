import { useApi } from '../../api/useApi.ts';
import { Async } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';

const TARGET_LABEL: Record<string, string> = { alertmanager: 'Alertmanager', webhook: 'Webhook' };

/**
 * Where findings are pushed and the deliveries that failed after all their tries
 * (`/api/notifications`, docs/alerting.md): an operator sees here that alerts stopped leaving.
 */
export function Notifications() {
  const state = useApi('/api/notifications', { refreshMs: 30_000 });
  return (
    <section className="card" aria-labelledby="notifications" data-testid="notifications">
      <h2 id="notifications">Notifications</h2>
      <Async state={state} what="notifications">
        {({ targets, failures }) => (
          <>
            {targets.length === 0 ? (
              <p className="muted" data-testid="notify-none">
                Findings are not pushed anywhere: set IBWATCH_ALERTMANAGER_URL or IBWATCH_WEBHOOK_URL.
              </p>
            ) : (
              <ul data-testid="notify-targets">
                {targets.map((t) => (
                  <li key={t.name} data-testid="notify-target" data-target={t.name}>
                    {TARGET_LABEL[t.name] ?? t.name} <code>{t.origin}</code>: {t.active.toLocaleString()} active
                    {t.lastSentAt !== null && (
                      <>
                        , last delivery <Time at={t.lastSentAt} />
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {failures.length > 0 && (
              <table className="table">
                <caption>Failed deliveries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Target</th>
                    <th scope="col">Event</th>
                    <th scope="col">Finding</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last error</th>
                    <th scope="col">Last tried</th>
                    <th scope="col">Delivered</th>
                  </tr>
                </thead>
                <tbody>
                  {failures.map((f) => (
                    <tr key={f.id} data-testid="notify-failure" data-target={f.target}>
                      <td>{TARGET_LABEL[f.target] ?? f.target}</td>
                      <td>{f.event}</td>
                      <td>{f.findingId ?? 'all active'}</td>
                      <td>{f.attempts}</td>
                      <td>
                        <code>{f.error}</code>
                      </td>
                      <td>
                        <Time at={f.lastAt} />
                      </td>
                      <td>{f.deliveredAt === null ? 'not yet' : <Time at={f.deliveredAt} />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Async>
    </section>
  );
}
