import { evaluateSmHa, type SmObservation } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createSmRepo } from '../db/sm-repo.ts';
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
 * Stores one SM observation and its consequences: HA verdicts (no master, split brain,
 * failover, lost standby, priority), and timeline events for every change, so an operator
 * sees when the standby took over even if it happened between two glances at the wall.
 */
export function storeSm(db: Db, config: Config, names: NameBook, scanId: number, at: number, sms: SmObservation[]): Record<string, number | string> {
  const repo = createSmRepo(db);
  const previous = repo.previous(scanId);
  const prevAt = db.prepare('SELECT MAX(at) FROM sm_observations WHERE scan_id < ?').pluck().get(scanId) as number | null;
  const named = sms.map((s) => ({ ...s, nodeDescription: s.nodeDescription ?? names.nameOrNull(s.guid) ?? undefined }));
  repo.record(scanId, at, named, (g) => names.nameOrNull(g));
  const ha = evaluateSmHa({ current: named, previous: previous.length ? previous : undefined, now: iso(at), previousAt: prevAt ? iso(prevAt) : undefined });

  const label = (guid: string | null | undefined) => (guid ? `${names.nameOrNull(guid) ?? guid}` : '?');
  if (ha.failover) {
    repo.addEvent({ at, kind: 'failover', fromGuid: ha.failover.from, toGuid: ha.failover.to,
      detail: `master moved from ${label(ha.failover.from)} to ${label(ha.failover.to)}` }, scanId);
  }
  const prevByGuid = new Map(previous.map((s) => [s.guid, s]));
  for (const s of named) {
    const p = prevByGuid.get(s.guid);
    if (p && p.state !== s.state) {
      repo.addEvent({ at, kind: 'state-change', fromGuid: s.guid, toGuid: null, detail: `${label(s.guid)}: ${p.state} -> ${s.state} (priority ${s.priority})` }, scanId);
    }
    if (!p && previous.length) repo.addEvent({ at, kind: 'state-change', fromGuid: s.guid, toGuid: null, detail: `${label(s.guid)} appeared as ${s.state} (priority ${s.priority})` }, scanId);
  }
  const seen = new Set(named.map((s) => s.guid));
  for (const p of previous) {
    if (!seen.has(p.guid)) repo.addEvent({ at, kind: 'standby-lost', fromGuid: p.guid, toGuid: null, detail: `${label(p.guid)} (was ${p.state}) no longer answers` }, scanId);
  }
  const before = previous.length ? status(previous) : 'ok';
  const now = status(named);
  if (now !== before) {
    repo.addEvent({ at, kind: now === 'ok' ? 'recovered' : now, fromGuid: null, toGuid: ha.master ?? null,
      detail: now === 'ok' ? `one master again: ${label(ha.master)}` : now === 'no-master' ? 'no SM is MASTER' : `${named.filter((s) => s.state === 'MASTER').length} SMs claim MASTER` }, scanId);
  }
  const findings = syncFindings(createFindingsRepo(db), ha.verdicts, SM_KINDS, at, config.autoResolveSweeps);
  return { sms: named.length, status: now, master: ha.master ?? '', findingsOpened: findings.opened };
}
