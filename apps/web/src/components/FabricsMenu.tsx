import { useApi } from '../api/useApi.ts';
import { Link } from './Link.tsx';

/**
 * "Fabrics": the fleet wall (every fabric on one screen) and links to the collectors of the
 * other fabrics (one collector per fabric, IBWATCH_PEERS). Nothing is shown when this collector
 * has no peers.
 */
export function FabricsMenu() {
  const { data } = useApi('/api/peers');
  if (!data || data.peers.length === 0) return null;
  return (
    <details className="fabrics-menu" data-testid="fabrics-menu">
      <summary>Fabrics</summary>
      <ul>
        <li>
          <Link href="/fleet" data-testid="fleet-link">
            Fleet wall: every fabric
          </Link>
        </li>
        {data.peers.map((p) => (
          <li key={p.url}>
            <a href={p.url} rel="noopener noreferrer" data-testid="fabric-peer">
              {p.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
