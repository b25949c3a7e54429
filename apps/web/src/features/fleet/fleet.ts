import type { BrokenRow, FleetFabric, FleetReply, FleetStatusWord, ScanFreshness } from '@ibwatch/fabric';
import { FLEET_WORD_RANK } from '@ibwatch/fabric';
import type { StatusLook } from '../../lib/status.ts';
import { href } from '../../router.ts';
import { brokenRowHref, lostSince, STATUS_LOOK } from '../overview/overview.ts';

/**
 * Words, icons and tones of a fabric's word on the fleet wall. UNREACHABLE and ERROR are "no
 * signal" like STALE (striped, never a colour of health), each with its own icon.
 */
export const FLEET_LOOK: Record<FleetStatusWord, StatusLook> = {
  ...STATUS_LOOK,
  UNREACHABLE: { icon: '⊘', label: 'UNREACHABLE', tone: 'muted' },
  ERROR: { icon: '⚠', label: 'ERROR', tone: 'muted' },
};

/** The words drawn striped: what the wall cannot vouch for. */
export const NO_SIGNAL: ReadonlySet<FleetStatusWord> = new Set(['STALE', 'UNREACHABLE', 'ERROR']);

/** A page of the fabric's own dashboard: this one for this collector, on the peer's URL otherwise. */
export function onFabric(f: Pick<FleetFabric, 'url'>, path: string): string {
  return f.url === null ? path : `${f.url}${path}`;
}

/** The fabric's overview; `kiosk` keeps kiosk mode. */
export const dashboardHref = (f: Pick<FleetFabric, 'url'>, kiosk = false): string => onFabric(f, href('/', { kiosk }));

/** Where a broken-now row of a tile leads: the row's page on that fabric's own dashboard. */
export const tileRowHref = (f: Pick<FleetFabric, 'url'>, r: BrokenRow): string => onFabric(f, brokenRowHref(r));

/** `3 fabrics: 1 UNREACHABLE, 1 DEGRADED, 1 OK`, worst first. */
export function wordCounts(fabrics: readonly Pick<FleetFabric, 'word'>[]): string {
  const n = new Map<FleetStatusWord, number>();
  for (const f of fabrics) n.set(f.word, (n.get(f.word) ?? 0) + 1);
  const parts = [...n.entries()]
    .sort((a, b) => FLEET_WORD_RANK[b[0]] - FLEET_WORD_RANK[a[0]])
    .map(([w, k]) => `${k} ${w}`);
  return `${fabrics.length} fabric${fabrics.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** `17 switches · 34 HCAs · 322 links (1 degraded, 0 down)`. */
export function countsLine(s: {
  switches: number;
  hcas: number;
  links: number;
  degradedLinks: number;
  downLinks: number;
}): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `${n(s.switches)} switches · ${n(s.hcas)} HCAs · ${n(s.links)} links (${n(s.degradedLinks)} ` +
    `degraded, ${n(s.downLinks)} down)`
  );
}

/**
 * Scan kinds by freshness, stale first: what a tile says about how current its fabric's data is.
 * `asOf`: what the tile shows is as of an answer that is no longer current (the fabric or this
 * page stopped answering), so "fresh" then is unknown now.
 */
export function freshnessLine(
  freshness: readonly ScanFreshness[],
  asOf = false,
): { state: ScanFreshness['state'] | 'unknown'; text: string } {
  const stale = freshness.filter((f) => f.state === 'stale').map((f) => f.kind);
  const pending = freshness.filter((f) => f.state === 'pending').map((f) => f.kind);
  if (stale.length) return { state: 'stale', text: `${stale.join(', ')} scans stale` };
  if (asOf) return { state: 'unknown', text: 'unknown now: no answer since the time above' };
  if (pending.length) return { state: 'pending', text: `waiting for the first ${pending.join(', ')} scan` };
  if (freshness.length === 0) return { state: 'fresh', text: 'no scheduled scans (imports only)' };
  return { state: 'fresh', text: `${freshness.map((f) => f.kind).join(', ')} scans fresh` };
}

/** What the screen says for the whole fleet: its collector's word, or STALE from the first failed poll. */
export interface FleetScreen {
  word: FleetStatusWord;
  unreachableSince: number | null;
}

export function fleetScreen(f: FleetReply, poll: { error: unknown; updatedAt: number | undefined }): FleetScreen {
  const since = lostSince(poll, f.generatedAt);
  return since === null ? { word: f.word, unreachableSince: null } : { word: 'STALE', unreachableSince: since };
}
