/**
 * Findings, their history, the whoami reply and the reseat worklist.
 * Part of the HTTP API contract (see ../api.ts).
 */
import { Dict, Int, Ms, NullMs, NullText, Nullable, type Static, Str, Strings, Text, Type } from './kit.ts';
import { FindingStateSchema, SeveritySchema } from './common.ts';
import { LinkEndSchema } from './topology.ts';

/** What a cable joins, which decides its blast radius (docs/impact.md). */
const ImpactKindSchema = Str(['hca-link', 'leaf-uplink', 'spine-core', 'unknown'] as const);

/** A running Slurm job on hosts behind a cable. */
export const ImpactJobSchema = Type.Object({
  id: Text(),
  name: Text(),
  user: Text(),
  /** The job's node count (all its nodes, not only those behind the cable). */
  nodes: Int(),
  /** Its hosts behind the cable. */
  hosts: Strings(),
});
export type ImpactJob = Static<typeof ImpactJobSchema>;

/** The blast radius of a worklist entry's cable, with the Slurm jobs on its hosts (docs/impact.md). */
export const EntryImpactSchema = Type.Object({
  kind: ImpactKindSchema,
  hosts: Strings(),
  gpus: Int(),
  rails: Type.Array(Int()),
  /** Leaf uplink / spine–core link: what the cable costs the lower switch's uplinks. */
  uplink: Nullable(
    Type.Object({
      switch: Text(),
      uplinks: Int(),
      totalGbps: Type.Number(),
      lostGbps: Type.Number(),
      share: Type.Number(),
      switchShare: Type.Number(),
    }),
  ),
  /** Spine–core link: the pods it joins, the spine's first. */
  pods: Strings(),
  /** Running jobs on the hosts, most nodes first. */
  jobs: Type.Array(ImpactJobSchema),
  /** Drain these nodes first: the hosts behind the cable with a running job, sorted. */
  drain: Strings(),
  /** When the jobs were read by squeue; null when Slurm is off or was never read. */
  jobsAt: NullMs(),
});
export type EntryImpact = Static<typeof EntryImpactSchema>;

/** A finding's blast radius in brief (its worklist entry's {@link EntryImpact}). */
export const FindingImpactSchema = Type.Object({
  kind: ImpactKindSchema,
  hosts: Int(),
  gpus: Int(),
  /** Running Slurm jobs behind the cable. */
  jobs: Int(),
  /** The hosts to drain first. */
  drain: Strings(),
});
export type FindingImpact = Static<typeof FindingImpactSchema>;

const findingRowProperties = {
  id: Int(),
  kind: Text(),
  /** What the latest scan that observed it said. */
  severity: SeveritySchema,
  /** The worst severity it ever had (a finding critical at 00:45 and major later peaks critical). */
  peakSeverity: SeveritySchema,
  state: FindingStateSchema,
  subjectType: Str(['port', 'link', 'sm', 'run', 'fabric']),
  subjectKey: Text(),
  title: Text(),
  evidence: Dict(Type.Unknown()),
  firstSeen: Ms(),
  lastSeen: Ms(),
  /**
   * When the first scan evaluating this kind no longer saw the condition; null while the latest
   * one still sees it. A cleared finding is not broken now; it resolves after the clean period.
   */
  clearedAt: NullMs(),
  resolvedAt: NullMs(),
  acknowledgedBy: NullText(),
  /** `/api/findings` and `/api/findings/:id` only: the blast radius of the finding's worklist entry. */
  impact: Type.Optional(FindingImpactSchema),
};
export const FindingRowSchema = Type.Object(findingRowProperties);
export type FindingRow = Static<typeof FindingRowSchema>;

/**
 * One step of a finding's history. `event` is `opened`, `cleared` (no longer observed),
 * `window-ended` (an event's window passed), `severity` (note `critical → major`),
 * `observed-again`, `acknowledged` or `resolved` (through the API), or `auto-resolved` (stayed
 * cleared for IBWATCH_AUTO_RESOLVE_MIN); the collector may add other lifecycle steps, so render
 * an unknown one as it is. `by` is the name of the token that
 * made an API change (IBWATCH_TOKENS), null for the collector's own; `note` is the reason given.
 */
export const FindingEventSchema = Type.Object({ at: Ms(), event: Text(), by: NullText(), note: NullText() });
export type FindingEvent = Static<typeof FindingEventSchema>;

/** `GET /api/findings/:id`, and the reply of acknowledge and resolve: the finding with its history, oldest first. */
export const FindingDetailSchema = Type.Object({ ...findingRowProperties, history: Type.Array(FindingEventSchema) });
export type FindingDetail = Static<typeof FindingDetailSchema>;

/** `GET /api/whoami`: the name of the bearer token sent, null without a valid one. */
export const WhoamiReplySchema = Type.Object({ name: NullText() });
export type WhoamiReply = Static<typeof WhoamiReplySchema>;

export const WorklistEntrySchema = Type.Object({
  rank: Int(),
  findingIds: Type.Array(Int()),
  linkKey: Text(),
  severity: SeveritySchema,
  state: FindingStateSchema,
  a: LinkEndSchema,
  b: Nullable(LinkEndSchema),
  reasons: Strings(),
  action: Text(),
  cable: NullText(),
  firstSeen: Ms(),
  lastSeen: Ms(),
  /** Set when no finding of the entry is observed any more (cleared at, latest of them); null while one is. */
  clearedAt: NullMs(),
  /** Who the cable hurts (docs/impact.md); absent only on entries built without the topology. */
  impact: Type.Optional(EntryImpactSchema),
  /**
   * Fixes of this cable in the last 14 days after which it erred again (oldest first): each
   * climbs the action ladder one step. Empty when none.
   */
  reopenedAfterFix: Type.Array(Type.Object({ fixedAt: Ms(), reopenedAt: Ms() })),
});
export type WorklistEntry = Static<typeof WorklistEntrySchema>;
