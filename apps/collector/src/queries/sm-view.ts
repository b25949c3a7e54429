/**
 * The subnet managers as operators think of them: every SM ibwatch knows (answering or "not seen
 * since T"), which SM ports are designated and where that list comes from, and the verdicts and
 * status word of the latest observation. Used by the SM scan, the API and the CLI alike, so the
 * status a scan records is the status every view shows.
 */
import {
  evaluateSmHa,
  type DesignatedSms,
  type KnownSm,
  type SmDesignation,
  type SmEventRow,
  type SmHaResult,
  type SmObservation,
  type SmReply,
  type SmRow,
  type SmSummary,
} from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import { createSmRepo, type KnownSmRow, type SmRepo } from '../db/sm-repo.ts';
import { hostOf, type NameBook } from '../names.ts';
import { createScansRepo } from '../db/scans-repo.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Where an SM sits: its node's name (name map, else NodeDescription) and port, by port GUID. */
export interface SmPlace {
  name: string | null;
  nodeGuid: string | null;
  portNum: number | null;
}

/** Looks up SM places, each GUID once per call of this function. */
export function smPlacer(repo: SmRepo, names: NameBook): (guid: string) => SmPlace {
  const cache = new Map<string, SmPlace>();
  return (guid) => {
    let p = cache.get(guid);
    if (!p) {
      const port = repo.portOf(guid);
      p = {
        name: names.nameOrNull(guid) ?? (port ? (names.nameOrNull(port.nodeGuid) ?? (port.description || null)) : null),
        nodeGuid: port?.nodeGuid ?? null,
        portNum: port?.portNum ?? null,
      };
      cache.set(guid, p);
    }
    return p;
  };
}

/** The designated SM ports and where they come from: IBWATCH_SM_GUIDS, else the learned list. */
export function designationOf(config: Config, repo: SmRepo, place: (guid: string) => SmPlace): SmDesignation {
  const learned = repo.learned();
  const base: Omit<SmDesignation, 'neverSeen'> = config.smGuids
    ? { source: 'config', guids: config.smGuids, learnedAt: null, relearnPending: false }
    : learned && learned.guids.length > 0
      ? { source: 'learned', guids: learned.guids, learnedAt: learned.learnedAt, relearnPending: learned.relearn }
      : { source: 'none', guids: [], learnedAt: null, relearnPending: learned?.relearn ?? false };
  const seen = new Set<string>();
  for (const k of repo.known()) {
    seen.add(k.guid);
    const node = place(k.guid).nodeGuid;
    if (node) seen.add(node);
  }
  return { ...base, neverSeen: base.guids.filter((g) => !seen.has(g)) };
}

/**
 * The designation as the analysis needs it, or undefined when none exists yet. A GUID is
 * designated when listed as the SM's port GUID or as its node GUID (IBWATCH_SM_GUIDS written from
 * a node-name map carries node GUIDs, which differ from an HCA's port GUID).
 */
export function designatedSms(d: SmDesignation, place: (guid: string) => SmPlace): DesignatedSms | undefined {
  if (d.source === 'none') return undefined;
  const set = new Set(d.guids);
  return {
    count: set.size,
    isDesignated: (guid) => set.has(guid) || set.has(place(guid).nodeGuid ?? ''),
  };
}

export function toObservation(k: KnownSmRow, place: SmPlace): SmObservation {
  return {
    guid: k.guid,
    lid: k.lid ?? undefined,
    priority: k.priority,
    state: k.state,
    activityCount: k.activityCount === null ? undefined : BigInt(k.activityCount),
    nodeDescription: k.name ?? place.name ?? undefined,
    portNum: place.portNum ?? undefined,
  };
}

/** What is known now: the SMs answering the latest observation, and every known one not answering. */
export function knownNow(
  repo: SmRepo,
  d: SmDesignation,
  place: (guid: string) => SmPlace,
): { current: SmObservation[]; missing: KnownSm[]; rows: KnownSmRow[] } {
  const rows = repo.known();
  const current: SmObservation[] = [];
  const missing: KnownSm[] = [];
  for (const k of rows) {
    const o = toObservation(k, place(k.guid));
    if (k.answering) current.push(o);
    else
      missing.push({
        guid: o.guid,
        nodeDescription: o.nodeDescription,
        portNum: o.portNum,
        last: { state: k.state, priority: k.priority, at: iso(k.lastSeen) },
      });
  }
  for (const g of d.neverSeen) {
    const p = place(g);
    missing.push({ guid: g, nodeDescription: p.name ?? undefined, portNum: p.portNum ?? undefined });
  }
  return { current, missing, rows };
}

/** Every known SM for the SM table, answering ones first. */
export function smRows(
  rows: readonly KnownSmRow[],
  d: DesignatedSms | undefined,
  place: (guid: string) => SmPlace,
  names: NameBook,
): SmRow[] {
  return rows.map((k) => {
    const p = place(k.guid);
    const name = k.name ?? p.name;
    return {
      guid: k.guid,
      lid: k.lid,
      name,
      priority: k.priority,
      state: k.state,
      activityCount: k.activityCount,
      lastSeen: k.lastSeen,
      firstSeen: k.firstSeen,
      answering: k.answering,
      designated: d?.isDesignated(k.guid) ?? true,
      nodeGuid: p.nodeGuid,
      portNum: p.portNum,
      host: name ? hostOf(name) : null,
      rack: names.rack(k.guid) ?? (p.nodeGuid ? names.rack(p.nodeGuid) : null),
    };
  });
}

/** Everything the SM page and `ibwatch sm` show, from what is stored. */
export function smState(db: Db, config: Config, names: NameBook, now: number) {
  const repo = createSmRepo(db);
  const place = smPlacer(repo, names);
  const designation = designationOf(config, repo, place);
  const designated = designatedSms(designation, place);
  const { current, missing, rows } = knownNow(repo, designation, place);
  const observedAt = repo.observedAt();
  const ha: SmHaResult | null =
    observedAt === null
      ? null
      : evaluateSmHa({ current, known: missing, designation: designated, now: iso(observedAt) });
  const lastEvent = repo.events(1)[0];
  const master = ha?.master ? current.find((s) => s.guid === ha.master) : undefined;
  const summary: SmSummary = {
    status: ha?.status ?? 'unknown',
    masterGuid: master?.guid ?? null,
    masterName: master?.nodeDescription ?? null,
    masterCount: current.filter((s) => s.state === 'MASTER').length,
    standbyCount: current.filter((s) => s.state === 'STANDBY' && (designated?.isDesignated(s.guid) ?? true)).length,
    failoversLast24h: repo.failoversSince(now - 86_400_000),
    lastChangeAt: lastEvent?.at ?? null,
    missingCount: ha?.verdicts.filter((v) => v.kind === 'sm-not-seen').length ?? 0,
    rogueCount: ha?.verdicts.filter((v) => v.kind === 'sm-rogue').length ?? 0,
    observedAt,
  };
  const nameOf = (guid: string | null) => (guid ? (rows.find((r) => r.guid === guid)?.name ?? place(guid).name) : null);
  return {
    summary,
    sms: smRows(rows, designated, place, names),
    designation,
    events: (limit: number): SmEventRow[] =>
      repo.events(limit).map((e) => ({ ...e, fromName: nameOf(e.fromGuid), toName: nameOf(e.toGuid) })),
  };
}

type SmDeps = { db: Db; config: Config; names: NameBook };

/** The SM status word and counts (the overview, the fleet summary, /metrics). */
export function smSummary(deps: SmDeps, now: number): SmSummary {
  return smState(deps.db, deps.config, deps.names, now).summary;
}

/** The SM page's reply (also what `ibwatch sm --json` prints). */
export function smReply(deps: SmDeps, now: number, events: number): SmReply {
  const s = smState(deps.db, deps.config, deps.names, now);
  return {
    summary: s.summary,
    sms: s.sms,
    events: s.events(events),
    designation: s.designation,
    lastScan: createScansRepo(deps.db).list({ limit: 1, kind: 'sm' })[0] ?? null,
  };
}
