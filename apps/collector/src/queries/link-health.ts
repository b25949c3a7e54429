import type { LinkHealth } from '@ibwatch/fabric';

const RANK: Record<string, number> = { ok: 0, errors: 1, degraded: 2, down: 3 };

/** Health of a link from the finding kinds open on it or on either end. */
function healthOf(kind: string): 'down' | 'degraded' | 'errors' {
  if (kind === 'link-down') return 'down';
  if (kind.startsWith('link-degraded-')) return 'degraded';
  return 'errors';
}

/** The worst health among current findings (down > degraded > errors > ok) and its reason. */
export function worstHealth(findings: Iterable<{ kind: string; reason: string }>): {
  health: LinkHealth;
  reason: string | null;
} {
  let best: { health: LinkHealth; reason: string | null } = { health: 'ok', reason: null };
  for (const f of findings) {
    const h = healthOf(f.kind);
    if (RANK[h]! > RANK[best.health]!) best = { health: h, reason: f.reason };
  }
  return best;
}
