/**
 * Findings, their history, the whoami reply and the reseat worklist.
 * Part of the HTTP API contract (see ../api.ts).
 */
import type { FindingState, Severity } from './common.ts';
import type { LinkEnd } from './topology.ts';

export interface FindingRow {
  id: number;
  kind: string;
  severity: Severity;
  state: FindingState;
  subjectType: 'port' | 'link' | 'sm' | 'run' | 'fabric';
  subjectKey: string;
  title: string;
  evidence: Record<string, unknown>;
  firstSeen: number;
  lastSeen: number;
  /**
   * When the first scan evaluating this kind no longer saw the condition; null while the latest
   * one still sees it. A cleared finding is not broken now; it resolves after the clean period.
   */
  clearedAt: number | null;
  resolvedAt: number | null;
  acknowledgedBy: string | null;
  /** `/api/findings` and `/api/findings/:id` only: the blast radius of the finding's worklist entry. */
  impact?: FindingImpact;
}

/** A finding's blast radius in brief (its worklist entry's {@link EntryImpact}). */
export interface FindingImpact {
  kind: EntryImpact['kind'];
  hosts: number;
  gpus: number;
  /** Running Slurm jobs behind the cable. */
  jobs: number;
  /** The hosts to drain first. */
  drain: string[];
}

/**
 * One step of a finding's history. `event` is `opened`, `cleared` (no longer observed),
 * `observed-again`, `acknowledged` or `resolved` (through the API), or `auto-resolved` (stayed
 * cleared for IBWATCH_AUTO_RESOLVE_MIN); the collector may add other lifecycle steps, so render
 * an unknown one as it is. `by` is the name of the token that
 * made an API change (IBWATCH_TOKENS), null for the collector's own; `note` is the reason given.
 */
export interface FindingEvent {
  at: number;
  event: string;
  by: string | null;
  note: string | null;
}

/** `GET /api/findings/:id`, and the reply of acknowledge and resolve: the finding with its history, oldest first. */
export interface FindingDetail extends FindingRow {
  history: FindingEvent[];
}

/** `GET /api/whoami`: the name of the bearer token sent, null without a valid one. */
export interface WhoamiReply {
  name: string | null;
}

export interface WorklistEntry {
  rank: number;
  findingIds: number[];
  linkKey: string;
  severity: Severity;
  state: FindingState;
  a: LinkEnd;
  b: LinkEnd | null;
  reasons: string[];
  action: string;
  cable: string | null;
  firstSeen: number;
  lastSeen: number;
  /** Set when no finding of the entry is observed any more (cleared at, latest of them); null while one is. */
  clearedAt: number | null;
  /** Who the cable hurts (docs/impact.md); absent only on entries built without the topology. */
  impact?: EntryImpact;
}

/** A running Slurm job on hosts behind a cable. */
export interface ImpactJob {
  id: string;
  name: string;
  user: string;
  /** The job's node count (all its nodes, not only those behind the cable). */
  nodes: number;
  /** Its hosts behind the cable. */
  hosts: string[];
}

/** The blast radius of a worklist entry's cable, with the Slurm jobs on its hosts. */
export interface EntryImpact {
  kind: 'hca-link' | 'leaf-uplink' | 'spine-core' | 'unknown';
  hosts: string[];
  gpus: number;
  rails: number[];
  /** Leaf uplink / spine–core link: what the cable costs the lower switch's uplinks. */
  uplink: {
    switch: string;
    uplinks: number;
    totalGbps: number;
    lostGbps: number;
    share: number;
    switchShare: number;
  } | null;
  /** Spine–core link: the pods it joins, the spine's first. */
  pods: string[];
  /** Running jobs on the hosts, most nodes first. */
  jobs: ImpactJob[];
  /** Drain these nodes first: the hosts behind the cable with a running job, sorted. */
  drain: string[];
  /** When the jobs were read by squeue; null when Slurm is off or was never read. */
  jobsAt: number | null;
}
