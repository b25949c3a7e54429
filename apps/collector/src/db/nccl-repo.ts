import {
  NCCL_FLAG_WORDS,
  ncclScope,
  type NcclFlag,
  type FabricSummary,
  type NcclRunDetailReply,
  type NcclRunRow,
  type NcclVerdict,
  type ReportRun,
  type ScopeGraph,
} from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

type FabricSummaryTrend = FabricSummary['ncclTrend'];

export interface NewNcclRun {
  createdAt: number;
  /** When the run happened (see NcclRunRow.at). */
  at: number;
  startedAt: number;
  finishedAt: number;
  scanId: number | null;
  collective: string;
  labels: NcclRunRow['labels'];
  hosts: string[];
  nodes: number | null;
  /** null when the log does not say (stored as 0: the column is NOT NULL since 0001). */
  ranks: number | null;
  gpuModel: string | null;
  gpusPerNode: number | null;
  nicsPerNode: number | null;
  nicGbps: number | null;
  ncclVersion: string | null;
  gdr: NcclRunRow['gdr'];
  gdrEvidence: string[];
  avgBusbwGBs: number | null;
  peakBusbwGBs: number | null;
  peakSizeBytes: number | null;
  largestBusbwGBs: number | null;
  largestSizeBytes: number | null;
  targetGBs: number | null;
  targetProfile: string | null;
  targetNote: string | null;
  verdict: NcclVerdict;
  regression: boolean;
  flags: NcclFlag[];
  truncated: boolean;
  warnings: string[];
  rows: NcclRunDetailReply['rows'];
}

interface RunDbRow {
  id: number;
  created_at: number;
  at: number;
  nodes: number | null;
  peak_size: number | null;
  warnings: string;
  collective: string;
  labels: string;
  hosts: string;
  ranks: number;
  gpu_model: string | null;
  gpus_per_node: number | null;
  nics_per_node: number | null;
  nic_gbps: number | null;
  largest_busbw: number | null;
  largest_size: number | null;
  target_profile: string | null;
  target_note: string | null;
  flags: string;
  nccl_version: string | null;
  gdr: string;
  gdr_evidence: string;
  avg_busbw: number | null;
  peak_busbw: number | null;
  target: number | null;
  verdict: string;
  regression: number;
  truncated: number;
  started_at: number;
  finished_at: number;
}

/** Flags in one order everywhere, whichever wrote them (the import or migration 0022). */
const FLAG_ORDER = Object.keys(NCCL_FLAG_WORDS) as NcclFlag[];

function toRow(r: RunDbRow): NcclRunRow {
  return {
    id: r.id,
    createdAt: r.created_at,
    at: r.at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    collective: r.collective,
    labels: JSON.parse(r.labels) as NcclRunRow['labels'],
    hosts: JSON.parse(r.hosts) as string[],
    nodes: r.nodes,
    scope: ncclScope(r.nodes) ?? null,
    ranks: r.ranks > 0 ? r.ranks : null,
    gpuModel: r.gpu_model,
    gpusPerNode: r.gpus_per_node,
    nicsPerNode: r.nics_per_node,
    nicGbps: r.nic_gbps,
    ncclVersion: r.nccl_version,
    gdr: r.gdr as NcclRunRow['gdr'],
    avgBusbwGBs: r.avg_busbw,
    peakBusbwGBs: r.peak_busbw,
    peakSizeBytes: r.peak_size,
    largestBusbwGBs: r.largest_busbw,
    largestSizeBytes: r.largest_size,
    targetGBs: r.target,
    targetProfile: r.target_profile,
    targetNote: r.target_note,
    verdict: r.verdict as NcclVerdict,
    regression: r.regression === 1,
    flags: FLAG_ORDER.filter((f) => (JSON.parse(r.flags) as string[]).includes(f)),
    truncated: r.truncated === 1,
    importWarnings: (JSON.parse(r.warnings) as string[]).length,
  };
}

/** nccl-tests runs and their per-size result rows. */
export function createNcclRepo(db: Db) {
  const insertRun = db.prepare(
    `INSERT INTO nccl_runs (created_at, at, started_at, finished_at, scan_id, collective, labels, hosts,
       nodes, ranks, gpu_model, gpus_per_node, nics_per_node, nic_gbps, nccl_version, gdr, gdr_evidence,
       avg_busbw, peak_busbw, peak_size, largest_busbw, largest_size, target, target_profile, target_note,
       verdict, regression, flags, truncated, warnings)
     VALUES (@createdAt, @at, @startedAt, @finishedAt, @scanId, @collective, @labels, @hosts,
       @nodes, @ranks, @gpuModel, @gpusPerNode, @nicsPerNode, @nicGbps, @ncclVersion, @gdr, @gdrEvidence,
       @avgBusbwGBs, @peakBusbwGBs, @peakSizeBytes, @largestBusbwGBs, @largestSizeBytes, @targetGBs,
       @targetProfile, @targetNote, @verdict, @regression, @flags, @truncated, @warnings)`,
  );
  const insertResult = db.prepare(
    `INSERT INTO nccl_results (run_id, size_bytes, type, redop, oop_time, oop_algbw, oop_busbw, oop_wrong,
    ip_time, ip_algbw, ip_busbw, ip_wrong)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    insert(run: NewNcclRun): number {
      const id = Number(
        insertRun.run({
          ...run,
          labels: JSON.stringify(run.labels),
          hosts: JSON.stringify(run.hosts),
          gdrEvidence: JSON.stringify(run.gdrEvidence),
          warnings: JSON.stringify(run.warnings),
          ranks: run.ranks ?? 0,
          flags: JSON.stringify(run.flags),
          regression: run.regression ? 1 : 0,
          truncated: run.truncated ? 1 : 0,
        }).lastInsertRowid,
      );
      for (const r of run.rows) {
        const o = r.outOfPlace;
        const i = r.inPlace;
        insertResult.run(
          id,
          r.sizeBytes,
          r.type,
          r.redop,
          o.timeUs,
          o.algbwGBs,
          o.busbwGBs,
          o.wrong,
          i.timeUs,
          i.algbwGBs,
          i.busbwGBs,
          i.wrong,
        );
      }
      return id;
    },
    /** Runs by the time they happened (`at`), newest first. */
    list(q: { collective?: string; from?: number; to?: number; limit: number }): NcclRunRow[] {
      return (
        db
          .prepare(
            `SELECT * FROM nccl_runs WHERE (@collective IS NULL OR collective = @collective) AND (@from IS
            NULL OR at >= @from)
             AND (@to IS NULL OR at <= @to) ORDER BY at DESC, id DESC LIMIT @limit`,
          )
          .all({
            collective: q.collective ?? null,
            from: q.from ?? null,
            to: q.to ?? null,
            limit: q.limit,
          }) as RunDbRow[]
      ).map(toRow);
    },
    get(id: number): {
      run: NcclRunRow;
      rows: NcclRunDetailReply['rows'];
      gdrEvidence: string[];
      warnings: string[];
      window: [number, number];
    } | null {
      const r = db.prepare('SELECT * FROM nccl_runs WHERE id = ?').get(id) as RunDbRow | undefined;
      if (!r) return null;
      const rows = (
        db.prepare('SELECT * FROM nccl_results WHERE run_id = ? ORDER BY size_bytes').all(id) as {
          size_bytes: number;
          type: string;
          redop: string | null;
          oop_time: number | null;
          oop_algbw: number | null;
          oop_busbw: number | null;
          oop_wrong: number | null;
          ip_time: number | null;
          ip_algbw: number | null;
          ip_busbw: number | null;
          ip_wrong: number | null;
        }[]
      ).map((x) => ({
        sizeBytes: x.size_bytes,
        type: x.type,
        redop: x.redop,
        outOfPlace: { timeUs: x.oop_time, algbwGBs: x.oop_algbw, busbwGBs: x.oop_busbw, wrong: x.oop_wrong },
        inPlace: { timeUs: x.ip_time, algbwGBs: x.ip_algbw, busbwGBs: x.ip_busbw, wrong: x.ip_wrong },
      }));
      return {
        run: toRow(r),
        rows,
        gdrEvidence: JSON.parse(r.gdr_evidence) as string[],
        warnings: JSON.parse(r.warnings) as string[],
        window: [r.started_at, r.finished_at],
      };
    },
    /**
     * The largest size's busbw of the runs with the same collective and labels that happened
     * before `before`, newest first, for the regression baseline (runs without one are no baseline).
     */
    baseline(
      collective: string,
      labelsJson: string,
      before: number,
      limit: number,
    ): { busbw: number; size: number; at: number }[] {
      return db
        .prepare(
          `SELECT largest_busbw AS busbw, largest_size AS size, at FROM nccl_runs WHERE collective = ? AND labels = ?
             AND at < ? AND largest_busbw IS NOT NULL
           ORDER BY at DESC, id DESC LIMIT ?`,
        )
        .all(collective, labelsJson, before, limit) as { busbw: number; size: number; at: number }[];
    },
    /** What the period report reads of the runs that happened in [from, to]. */
    reportRuns(from: number, to: number): ReportRun[] {
      return (
        db
          .prepare(
            `SELECT collective, nodes, peak_busbw AS peakBusbwGBs, target AS targetGBs, verdict FROM nccl_runs
             WHERE at BETWEEN ? AND ?`,
          )
          .all(from, to) as (Omit<ReportRun, 'scope'> & { nodes: number | null })[]
      ).map(({ nodes, ...r }) => ({ ...r, scope: ncclScope(nodes) ?? null }));
    },
    /** Each run's headline in [from, to] by the time it happened, for the overview's trend. */
    trend(from: number, to: number): FabricSummaryTrend {
      return (
        db
          .prepare(
            `SELECT at, peak_busbw AS busbwGBs, collective, verdict, nodes FROM nccl_runs
             WHERE at BETWEEN ? AND ? AND peak_busbw IS NOT NULL ORDER BY at`,
          )
          .all(from, to) as (Omit<FabricSummaryTrend[number], 'scope'> & { nodes: number | null })[]
      ).map(({ nodes, ...p }) => ({ ...p, scope: ncclScope(nodes) ?? null }));
    },
    /** The latest run (by its time) of each collective, for /metrics. */
    latestPerCollective(): { collective: string; cluster: string | null; busbwGBs: number | null; gdr: string }[] {
      return db
        .prepare(
          `SELECT collective, cluster, busbwGBs, gdr FROM (
             SELECT collective, json_extract(labels, '$.cluster') AS cluster, peak_busbw AS busbwGBs, gdr,
               ROW_NUMBER() OVER (PARTITION BY collective ORDER BY at DESC, id DESC) AS n FROM nccl_runs)
           WHERE n = 1 ORDER BY collective`,
        )
        .all() as { collective: string; cluster: string | null; busbwGBs: number | null; gdr: string }[];
    },
    /** Nodes (with their inferred tier) and every link ever seen: what a run's fabric scope is read from. */
    scopeGraph(): ScopeGraph {
      const nodes = db
        .prepare('SELECT guid, type, description, tier FROM nodes')
        .all() as ScopeGraph['nodes'][number][];
      const links = (
        db
          .prepare(
            `SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp
             FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id`,
          )
          .raw()
          .all() as [string, number, string, number][]
      ).map(([ag, ap, bg, bp]) => ({ a: { nodeGuid: ag, portNum: ap }, b: { nodeGuid: bg, portNum: bp } }));
      return { nodes, links };
    },
  };
}
export type NcclRepo = ReturnType<typeof createNcclRepo>;
