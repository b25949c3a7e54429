/** nccl-tests runs and the bandwidth report. Part of the HTTP API contract (see ../api.ts). */
import { Int, Ms, NullInt, NullNum, NullText, type Static, Str, Strings, Text, Type } from './kit.ts';
import { ScanRowSchema, SeveritySchema } from './common.ts';
import { FindingRowSchema } from './findings.ts';
import { NcclRunScopeSchema, NcclVerdictSchema } from './nccl-vocab.ts';

export * from './nccl-vocab.ts';

export const NcclLabelsSchema = Type.Object({
  cluster: Type.Optional(Text()),
  nodes: Type.Optional(Int()),
  gpuModel: Type.Optional(Text()),
  hcaCount: Type.Optional(Int()),
  runBy: Type.Optional(Text()),
  /** Sample data (the demo's history), not measured on this fabric. */
  demo: Type.Optional(Type.Boolean()),
});

export const NcclRunRowSchema = Type.Object({
  id: Int(),
  /** When it was imported. */
  createdAt: Ms(),
  /** When the run happened: the uploader's startedAt, else its finishedAt, else the import time. */
  at: Ms(),
  /** The window fabric findings are matched in (given with the upload, else the hour before it). */
  startedAt: Ms(),
  finishedAt: Ms(),
  collective: Text(),
  labels: NcclLabelsSchema,
  hosts: Strings(),
  /** Hosts the run spanned: its rank lines' hosts, else the `nodes` label; null when unknown. */
  nodes: NullInt(),
  scope: NcclRunScopeSchema,
  /** Ranks from the log's rank lines (or NCCL's nranks); null when it does not say (a header-less paste). */
  ranks: NullInt(),
  /** GPU model from the rank lines (else the gpuModel label); null when unknown or mixed. */
  gpuModel: NullText(),
  /** Ranks per host when every host had the same number. */
  gpusPerNode: NullInt(),
  /** HCAs per host from `NET/IB : Using ...` (else the hcaCount label). */
  nicsPerNode: NullInt(),
  /** NIC rate (Gb/s) from NCCL's `NET/IB: [0] mlx5_0:... speed=400000` lines. */
  nicGbps: NullNum(),
  ncclVersion: NullText(),
  gdr: Str(['enabled', 'disabled', 'mixed', 'unknown']),
  /** nccl-tests' `# Avg bus bandwidth`: the mean over every size and both placements, small ones included. */
  avgBusbwGBs: NullNum(),
  /**
   * The run's headline figure: the peak busbw over every size, what nccl-tests users quote and
   * what the verdict, report, charts and /metrics use.
   */
  peakBusbwGBs: NullNum(),
  /** Message size of the row {@link peakBusbwGBs} comes from. */
  peakSizeBytes: NullNum(),
  /** busbw at the largest size: what the regression baseline compares. */
  largestBusbwGBs: NullNum(),
  largestSizeBytes: NullNum(),
  /** Target of the run's hardware profile for its collective and scope; null when none applies. */
  targetGBs: NullNum(),
  /** The profile the target comes from (`8x H100, 8x400G`); null when none. */
  targetProfile: NullText(),
  /** Why no target applies ("no target for this hardware: ..."); null when one does. */
  targetNote: NullText(),
  verdict: NcclVerdictSchema,
  regression: Type.Boolean(),
  /**
   * `regression`, `gdr-off` (host-memory fallback from the log's own lines), `gdr-unknown`
   * (host-staging band, no GDR lines).
   */
  flags: Type.Array(Str(['regression', 'gdr-off', 'gdr-unknown'])),
  truncated: Type.Boolean(),
  /** Warnings of its import: rows refused (not finite, implausible, repeated), labels contradicting the log. */
  importWarnings: Int(),
});
export type NcclRunRow = Static<typeof NcclRunRowSchema>;

/** What part of the fabric a run's findings were matched on (see `runFabricScope`). */
export const NcclCorrelationSchema = Type.Object({
  from: Ms(),
  to: Ms(),
  /** The run's hosts found in the topology, with their HCA count. */
  hosts: Type.Array(Type.Object({ host: Text(), hcas: Int() })),
  /** The run's hosts with no HCA in the topology. */
  unmatchedHosts: Strings(),
  links: Int(),
  switches: Int(),
  /** Switch tiers the run's paths reach (`leaf`, `spine`, `core`). */
  tiers: Strings(),
  /**
   * Fabric findings (ports, links, switches) on the run's paths open during its window: the
   * ones `correlatedFindings` lists besides SM and the run's own. The run is flagged when > 0.
   */
  pathFindings: Int(),
  flagged: Type.Boolean(),
});
export type NcclCorrelation = Static<typeof NcclCorrelationSchema>;

const placement = () => Type.Object({ timeUs: NullNum(), algbwGBs: NullNum(), busbwGBs: NullNum(), wrong: NullNum() });

export const NcclRunDetailReplySchema = Type.Object({
  run: NcclRunRowSchema,
  rows: Type.Array(
    Type.Object({
      sizeBytes: Type.Number(),
      type: Text(),
      redop: NullText(),
      outOfPlace: placement(),
      inPlace: placement(),
    }),
  ),
  gdrEvidence: Strings(),
  /**
   * The run's own findings (subjectType `run`), findings open during its window on its hosts'
   * links and the switches above them, and fabric-wide SM findings of that window.
   */
  correlatedFindings: Type.Array(FindingRowSchema),
  correlation: NcclCorrelationSchema,
  importWarnings: Strings(),
});
export type NcclRunDetailReply = Static<typeof NcclRunDetailReplySchema>;

/** `POST /api/nccl-runs` (201): the run imported and the import scan that read it. */
export const NcclImportReplySchema = Type.Object({ id: Int(), scan: ScanRowSchema, run: NcclRunRowSchema });
export type NcclImportReply = Static<typeof NcclImportReplySchema>;

/** The period report: every figure is a run's headline busbw ({@link NcclRunRow.peakBusbwGBs}). */
export const BandwidthReportSchema = Type.Object({
  from: Ms(),
  to: Ms(),
  runs: Int(),
  /** Runs with a target for their collective and scope: the pass rate counts only these. */
  withTarget: Int(),
  passed: Int(),
  /** passed / withTarget; null when no run had a target. */
  passRate: NullNum(),
  byCollective: Type.Array(
    Type.Object({
      collective: Text(),
      scope: NcclRunScopeSchema,
      runs: Int(),
      withTarget: Int(),
      passed: Int(),
      bestGBs: NullNum(),
      medianGBs: NullNum(),
      worstGBs: NullNum(),
      targetGBs: NullNum(),
    }),
  ),
  /** Findings open in the period anywhere in the fabric, by kind. */
  topFabricIssues: Type.Array(Type.Object({ kind: Text(), title: Text(), count: Int(), severity: SeveritySchema })),
});
export type BandwidthReport = Static<typeof BandwidthReportSchema>;
