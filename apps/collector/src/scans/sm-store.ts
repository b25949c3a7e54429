import { evaluateSmHa, type SmObservation } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createSmRepo, type SmRepo } from '../db/sm-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { SM_KINDS, syncFindings } from './findings-sync.ts';
import { FOLDED_BY_FAILOVER, smChanges, smName } from './sm-events.ts';
import { designatedSms, designationOf, knownNow, smPlacer, toObservation } from '../queries/sm-view.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Learns the designated SM ports from this observation when IBWATCH_SM_GUIDS is not set and none
 * are known yet, or a re-learn was asked for (which also forgets known SMs not answering now).
 * Returns the timeline row that says so, or null.
 */
function learnDesignated(config: Config, repo: SmRepo, sms: readonly SmObservation[], at: number): string | null {
  if (config.smGuids || sms.length === 0) return null;
  const learned = repo.learned();
  if (learned && learned.guids.length > 0 && !learned.relearn) return null;
  const guids = sms.map((s) => s.guid);
  repo.setLearned(guids, at);
  const forgotten = learned?.relearn ? repo.forgetNotAnswering(guids) : 0;
  return (
    `designated SMs ${learned?.relearn ? 're-learned' : 'learned'}: ${sms.map(smName).join(', ')}` +
    (forgotten ? `; ${forgotten} SM(s) not answering forgotten` : '')
  );
}

/**
 * Stores one SM observation and its consequences: every SM seen is remembered with its last
 * state (a dead standby stays listed, not seen since T), HA verdicts judged against the designated
 * SM ports and everything known, re-asserted on every observation while they hold (so "no standby"
 * cannot resolve itself while the standby is dead), and timeline rows, one per failover.
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
  const place = smPlacer(repo, names);
  const named = sms.map((s) => {
    const p = place(s.guid);
    return {
      ...s,
      nodeDescription: s.nodeDescription ?? p.name ?? undefined,
      portNum: s.portNum ?? p.portNum ?? undefined,
    };
  });
  const before = repo.known();
  const prevAt = repo.observedAt();
  const previous =
    prevAt === null ? null : before.filter((k) => k.answering).map((k) => toObservation(k, place(k.guid)));
  const lastMaster = repo.lastMaster();
  const lastMasterRow = lastMaster ? before.find((k) => k.guid === lastMaster.guid) : undefined;

  repo.record(scanId, at, named);
  const learnedDetail = learnDesignated(config, repo, named, at);
  const designation = designationOf(config, repo, place);
  const designated = designatedSms(designation, place);
  const { missing } = knownNow(repo, designation, place);
  const ha = evaluateSmHa({
    current: named,
    previous: previous ?? undefined,
    previousAt: prevAt === null ? undefined : iso(prevAt),
    lastMaster: lastMaster
      ? {
          sm: lastMasterRow
            ? toObservation(lastMasterRow, place(lastMaster.guid))
            : { guid: lastMaster.guid, priority: 0, state: 'MASTER' },
          at: iso(lastMaster.at),
        }
      : undefined,
    known: missing,
    designation: designated,
    now: iso(at),
  });
  if (ha.master) repo.setLastMaster(ha.master, at);

  writeEvents(repo, scanId, at, learnedDetail, {
    previous,
    current: named,
    seenBefore: new Set(before.map((k) => k.guid)),
    ha,
    lastMasterAt: lastMaster?.at ?? prevAt,
    isDesignated: (guid) => designated?.isDesignated(guid) ?? true,
    nodeName: (guid) => named.find((s) => s.guid === guid)?.nodeDescription ?? place(guid).name,
  });
  const findings = syncFindings(createFindingsRepo(db), ha.verdicts, SM_KINDS, at, config.autoResolveMin * 60_000);
  // A rogue SM long gone leaves the list after the scan history's retention; designated ones stay.
  const keep = repo.known().filter((k) => designated?.isDesignated(k.guid) ?? true);
  repo.pruneKnown(
    at - config.retention.scanDays * 86_400_000,
    keep.map((k) => k.guid),
  );
  return { sms: named.length, status: ha.status, master: ha.master ?? '', findingsOpened: findings.opened };
}

function writeEvents(
  repo: SmRepo,
  scanId: number,
  at: number,
  learnedDetail: string | null,
  input: Parameters<typeof smChanges>[0],
): void {
  if (learnedDetail)
    repo.addEvent({ at, kind: 'learned', fromGuid: null, toGuid: null, detail: learnedDetail }, scanId);
  const changes = smChanges(input);
  const foldable: number[] = [];
  for (const c of changes) {
    const id = repo.addEvent(
      { at, kind: c.kind, fromGuid: c.fromGuid, toGuid: c.toGuid, detail: c.detail, after: c.after },
      scanId,
    );
    if (c.foldable) foldable.push(id);
    if (c.kind === 'failover' && c.fromGuid && c.toGuid)
      repo.fold(id, {
        ids: foldable,
        after: c.after ?? at,
        kinds: FOLDED_BY_FAILOVER,
        guids: [c.fromGuid, c.toGuid],
      });
  }
}
