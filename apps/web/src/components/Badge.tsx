import type { StatusLook } from '../lib/status.ts';

/** Icon + label + tone class: colour is never the only signal. */
export function Badge({ look, testid, big = false }: { look: StatusLook; testid?: string; big?: boolean }) {
  return (
    <span className={`badge tone-${look.tone}${big ? ' badge-big' : ''}`} data-testid={testid}>
      <span aria-hidden="true">{look.icon}</span> {look.label}
    </span>
  );
}
