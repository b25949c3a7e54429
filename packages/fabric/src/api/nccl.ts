/** nccl-tests runs and the bandwidth report. Part of the HTTP API contract (see ../api.ts). */
import type { Severity } from './common.ts';
import type { FindingRow } from './findings.ts';

export type NcclVerdict = 'pass' | 'fail' | 'host-memory-fallback' | 'unknown';

/** One host (NVLink only) or several (over the fabric); null when the log and labels do not say. */
export type NcclRunScope = 'single-node' | 'multi-node' | null;

export interface NcclRunRow {
  id: number;
  /** When it was imported. */
  createdAt: number;
  /** When the run happened: the uploader's startedAt, else its finishedAt, else the import time. */
  at: number;
  /** The window fabric findings are matched in (given with the upload, else the hour before it). */
  startedAt: number;
  finishedAt: number;
  collective: string;
  labels: {
    cluster?: string;
    nodes?: number;
    gpuModel?: string;
    hcaCount?: number;
    runBy?: string;
    /** Sample data (the demo's history), not measured on this fabric. */
    demo?: boolean;
  };
  hosts: string[];
  /** Hosts the run spanned: its rank lines' hosts, else the `nodes` label; null when unknown. */
  nodes: number | null;
  scope: NcclRunScope;
  ranks: number;
  ncclVersion: string | null;
  gdr: 'enabled' | 'disabled' | 'mixed' | 'unknown';
  /** nccl-tests' `# Avg bus bandwidth`: the mean over every size and both placements, small ones included. */
  avgBusbwGBs: number | null;
  /**
   * The run's headline figure: the peak busbw at large messages (>= 1 GiB, else the largest
   * size), what nccl-tests users quote and what the verdict, report, charts and /metrics use.
   */
  peakBusbwGBs: number | null;
  /** Message size of the row {@link peakBusbwGBs} comes from. */
  peakSizeBytes: number | null;
  /** Target for the run's collective and scope; null when none applies. */
  targetGBs: number | null;
  verdict: NcclVerdict;
  regression: boolean;
  truncated: boolean;
  /** Warnings of its import: rows refused (not finite, implausible, repeated), labels contradicting the log. */
  importWarnings: number;
}

/** What part of the fabric a run's findings were matched on (see `runFabricScope`). */
export interface NcclCorrelation {
  from: number;
  to: number;
  /** The run's hosts found in the topology, with their HCA count. */
  hosts: { host: string; hcas: number }[];
  /** The run's hosts with no HCA in the topology. */
  unmatchedHosts: string[];
  links: number;
  switches: number;
  /** Switch tiers the run's paths reach (`leaf`, `spine`, `core`). */
  tiers: string[];
  /**
   * Fabric findings (ports, links, switches) on the run's paths open during its window: the
   * ones `correlatedFindings` lists besides SM and the run's own. The run is flagged when > 0.
   */
  pathFindings: number;
  flagged: boolean;
}

export interface NcclRunDetailReply {
  run: NcclRunRow;
  rows: {
    sizeBytes: number;
    type: string;
    redop: string | null;
    outOfPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
    inPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
  }[];
  gdrEvidence: string[];
  /**
   * The run's own findings (subjectType `run`), findings open during its window on its hosts'
   * links and the switches above them, and fabric-wide SM findings of that window.
   */
  correlatedFindings: FindingRow[];
  correlation: NcclCorrelation;
  importWarnings: string[];
}

/** The period report: every figure is a run's headline busbw ({@link NcclRunRow.peakBusbwGBs}). */
export interface BandwidthReport {
  from: number;
  to: number;
  runs: number;
  /** Runs with a target for their collective and scope: the pass rate counts only these. */
  withTarget: number;
  passed: number;
  /** passed / withTarget; null when no run had a target. */
  passRate: number | null;
  byCollective: {
    collective: string;
    scope: NcclRunScope;
    runs: number;
    withTarget: number;
    passed: number;
    bestGBs: number | null;
    medianGBs: number | null;
    worstGBs: number | null;
    targetGBs: number | null;
  }[];
  /** Findings open in the period anywhere in the fabric, by kind. */
  topFabricIssues: { kind: string; title: string; count: number; severity: Severity }[];
}
