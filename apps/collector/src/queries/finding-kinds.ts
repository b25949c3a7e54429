/** Finding kinds each scan kind evaluates (and so may clear or resolve). */
export const PM_KINDS = (k: string) =>
  ['symbol-errors', 'link-error-recovery', 'link-downed', 'congestion', 'link-flapping', 'errors-since-clear'].includes(
    k,
  ) ||
  k.startsWith('counter-rate:') ||
  k.startsWith('counter-saturated:');
export const TOPOLOGY_KINDS = (k: string) =>
  k.startsWith('link-degraded-') || k === 'link-down' || k.startsWith('topology-') || k.startsWith('baseline-');
export const SM_KINDS = (k: string) => k.startsWith('sm-');
/** Kinds the traffic part of a PM sweep evaluates (traffic-store.ts), synced on their own. */
export const TRAFFIC_KINDS = (k: string) => k === 'port-xmit-wait';
