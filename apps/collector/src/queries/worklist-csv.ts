import { shownState, type WorklistEntry } from '@ibwatch/fabric';
import { toCsv, UTF8_BOM } from '../csv.ts';

/**
 * The worklist as a spreadsheet opens it: BOM first, for the `→` of the action ladder. `state` is
 * what the page and its print view show ({@link shownState}): `cleared` for an entry no longer
 * observed, not its lifecycle's `open`.
 */
export function worklistCsv(entries: WorklistEntry[]): string {
  return (
    UTF8_BOM +
    toCsv(
      [
        'rank',
        'severity',
        'state',
        'end_a',
        'guid_a',
        'port_a',
        'lid_a',
        'rack_a',
        'u_a',
        'end_b',
        'guid_b',
        'port_b',
        'lid_b',
        'rack_b',
        'u_b',
        'reasons',
        'action',
        'cable',
        'first_seen_utc',
        'last_seen_utc',
        // Appended, so sheets that read the columns above by position keep working.
        'impact_hosts',
        'impact_gpus',
        'slurm_jobs',
        'drain_first',
      ],
      entries.map((e) => [
        e.rank,
        e.severity,
        shownState(e.state, e.clearedAt),
        e.a.name,
        e.a.guid,
        e.a.port,
        e.a.lid,
        e.a.rack,
        e.a.u,
        e.b?.name,
        e.b?.guid,
        e.b?.port,
        e.b?.lid,
        e.b?.rack,
        e.b?.u,
        e.reasons.join('; '),
        e.action,
        e.cable,
        new Date(e.firstSeen).toISOString(),
        new Date(e.lastSeen).toISOString(),
        e.impact?.hosts.length,
        e.impact?.gpus,
        e.impact?.jobs.map((j) => `${j.id} ${j.name} (${j.user}, ${j.nodes} nodes)`).join('; '),
        e.impact?.drain.join(' '),
      ]),
    )
  );
}
