import { evaluateSmHa, type SmObservation } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createSmRepo, type SmRepo } from '../db/sm-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { SM_KINDS, syncFindings } from './findings-sync.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function status(sms: readonly SmObservation[]): 'ok' | 'no-master' | 'split-brain' {
  const masters = sms.filter((s) => s.state === 'MASTER').length;
  return masters === 1 ? 'ok' : masters === 0 ? 'no-master' : 'split-brain';
}

/**
 * Name of an SM by its (port) GUID: the name map's entry for the node that owns the port, else
 * that node's description; null when the port is not in the topology yet.
 */
export function smNamer(repo: SmRepo, names: NameBook): (guid: string) => string | null {
  const cache = new Map<string, string | null>();
  return (guid) => {
    if (!cache.has(guid)) {
      const node = repo.nodeOf(guid);
      cache.set(
        guid,
        names.nameOrNull(guid) ?? (node ? (names.nameOrNull(node.guid) ?? (node.description || null)) : null),
      );
    }
    return cache.get(guid)!;
  };
}

/**
 * Stores one SM observation and its consequences: HA verdicts (no master, split brain,
 * failover, lost standby, priority), and timeline events for every change, so an operator
 * sees when the standby took over even if it happened between two glances at the wall.
 */
export function storeSm(
  db: Db,
  config: Config,
  names: NameBook,
  scanId: number,
  at: number,
  sms: SmObservation[],
): Record<string, number | string> {
  const repo = createSmRepo(db);
  const previous = repo.previous(scanId);
  const prevAt = db.prepare('SELECT MAX(at) FROM sm_observations WHERE scan_id < ?').pluck().get(scanId) as
    | number
    | null;
  const nameOf = smNamer(repo, names);
  const named = sms.map((s) => ({ ...s, nodeDescription: s.nodeDescription ?? nameOf(s.guid) ?? undefined }));
  repo.record(scanId, at, named, nameOf);
  // A failover spans sweeps with no MASTER: the standby waits out sminfo_polling_timeout x
  // polling_retry_number first, and meanwhile `saquery SMIR` fails with "Query SA failed:
  // Connection timed out". Judged against the last sweep that saw one master, the change is
  // still a failover and the dead master stays reported as lost until it answers again.
  const base = previous.length === 0 || status(previous) === 'ok' ? null : repo.lastWithOneMaster(scanId);
  const haPrevious = base?.sms ?? previous;
  const haPrevAt = base?.at ?? prevAt;
  const ha = evaluateSmHa({
    current: named,
    previous: haPrevious.length ? haPrevious : undefined,
    now: iso(at),
    previousAt: haPrevAt ? iso(haPrevAt) : undefined,
  });

  const label = (guid: string | null | undefined) => (guid ? `${nameOf(guid) ?? guid}` : '?');
  if (ha.failover) {
    repo.addEvent(
      {
        at,
        kind: 'failover',
        fromGuid: ha.failover.from,
        toGuid: ha.failover.to,
        detail: `master moved from ${label(ha.failover.from)} to ${label(ha.failover.to)}`,
      },
      scanId,
    );
  }
  const prevByGuid = new Map(previous.map((s) => [s.guid, s]));
  for (const s of named) {
    const p = prevByGuid.get(s.guid);
    if (p && p.state !== s.state) {
      repo.addEvent(
        {
          at,
          kind: 'state-change',
          fromGuid: s.guid,
          toGuid: null,
          detail: `${label(s.guid)}: ${p.state} -> ${s.state} (priority ${s.priority})`,
        },
        scanId,
      );
    }
    if (!p && previous.length)
      repo.addEvent(
        {
          at,
          kind: 'state-change',
          fromGuid: s.guid,
          toGuid: null,
          detail: `${label(s.guid)} appeared as ${s.state} (priority ${s.priority})`,
        },
        scanId,
      );
  }
  const seen = new Set(named.map((s) => s.guid));
  for (const p of previous) {
    if (!seen.has(p.guid))
      repo.addEvent(
        {
          at,
          kind: 'standby-lost',
          fromGuid: p.guid,
          toGuid: null,
          detail: `${label(p.guid)} (was ${p.state}) no longer answers`,
        },
        scanId,
      );
  }
  const before = previous.length ? status(previous) : 'ok';
  const now = status(named);
  if (now !== before) {
    repo.addEvent(
      {
        at,
        kind: now === 'ok' ? 'recovered' : now,
        fromGuid: null,
        toGuid: ha.master ?? null,
        detail:
          now === 'ok'
            ? `one master again: ${label(ha.master)}`
            : now === 'no-master'
              ? 'no SM is MASTER'
              : `${named.filter((s) => s.state === 'MASTER').length} SMs claim MASTER`,
      },
      scanId,
    );
  }
  const findings = syncFindings(createFindingsRepo(db), ha.verdicts, SM_KINDS, at, config.autoResolveMin * 60_000);
  return { sms: named.length, status: now, master: ha.master ?? '', findingsOpened: findings.opened };
}
