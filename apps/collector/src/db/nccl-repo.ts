import type { NcclRunDetailReply, NcclRunRow, NcclVerdict } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

export interface NewNcclRun {
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  scanId: number | null;
  collective: string;
  labels: NcclRunRow['labels'];
  hosts: string[];
  ranks: number;
  ncclVersion: string | null;
  gdr: NcclRunRow['gdr'];
  gdrEvidence: string[];
  avgBusbwGBs: number | null;
  peakBusbwGBs: number | null;
  targetGBs: number | null;
  verdict: NcclVerdict;
  regression: boolean;
  truncated: boolean;
  rows: NcclRunDetailReply['rows'];
}

interface RunDbRow {
  id: number;
  created_at: number;
  collective: string;
  labels: string;
  hosts: string;
  ranks: number;
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

function toRow(r: RunDbRow): NcclRunRow {
  return {
    id: r.id,
    createdAt: r.created_at,
    collective: r.collective,
    labels: JSON.parse(r.labels) as NcclRunRow['labels'],
    hosts: JSON.parse(r.hosts) as string[],
    ranks: r.ranks,
    ncclVersion: r.nccl_version,
    gdr: r.gdr as NcclRunRow['gdr'],
    avgBusbwGBs: r.avg_busbw,
    peakBusbwGBs: r.peak_busbw,
    targetGBs: r.target,
    verdict: r.verdict as NcclVerdict,
    regression: r.regression === 1,
    truncated: r.truncated === 1,
  };
}

/** nccl-tests runs and their per-size result rows. */
export function createNcclRepo(db: Db) {
  const insertRun = db.prepare(
    `INSERT INTO nccl_runs (created_at, started_at, finished_at, scan_id, collective, labels, hosts, ranks, nccl_version, gdr, gdr_evidence, avg_busbw,
       peak_busbw, target, verdict, regression, truncated)
     VALUES (@createdAt, @startedAt, @finishedAt, @scanId, @collective, @labels, @hosts, @ranks, @ncclVersion, @gdr, @gdrEvidence, @avgBusbwGBs,
       @peakBusbwGBs, @targetGBs, @verdict, @regression, @truncated)`,
  );
  const insertResult = db.prepare(
    `INSERT INTO nccl_results (run_id, size_bytes, type, redop, oop_time, oop_algbw, oop_busbw, oop_wrong, ip_time, ip_algbw, ip_busbw, ip_wrong)
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
    list(q: { collective?: string; from?: number; to?: number; limit: number }): NcclRunRow[] {
      return (
        db
          .prepare(
            `SELECT * FROM nccl_runs WHERE (@collective IS NULL OR collective = @collective) AND (@from IS NULL OR created_at >= @from)
             AND (@to IS NULL OR created_at <= @to) ORDER BY created_at DESC, id DESC LIMIT @limit`,
          )
          .all({
            collective: q.collective ?? null,
            from: q.from ?? null,
            to: q.to ?? null,
            limit: q.limit,
          }) as RunDbRow[]
      ).map(toRow);
    },
    get(
      id: number,
    ): { run: NcclRunRow; rows: NcclRunDetailReply['rows']; gdrEvidence: string[]; window: [number, number] } | null {
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
        window: [r.started_at, r.finished_at],
      };
    },
    /** Peak busbw and import time of earlier runs with the same collective and labels (newest first), for the regression baseline. */
    baseline(collective: string, labelsJson: string, limit: number): { peak: number; createdAt: number }[] {
      return db
        .prepare(
          'SELECT peak_busbw AS peak, created_at AS createdAt FROM nccl_runs WHERE collective = ? AND labels = ? AND peak_busbw IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT ?',
        )
        .all(collective, labelsJson, limit) as { peak: number; createdAt: number }[];
    },
    trend(from: number, to: number): { at: number; busbwGBs: number; collective: string; verdict: NcclVerdict }[] {
      return db
        .prepare(
          'SELECT created_at AS at, peak_busbw AS busbwGBs, collective, verdict FROM nccl_runs WHERE created_at BETWEEN ? AND ? AND peak_busbw IS NOT NULL ORDER BY created_at',
        )
        .all(from, to) as { at: number; busbwGBs: number; collective: string; verdict: NcclVerdict }[];
    },
  };
}
export type NcclRepo = ReturnType<typeof createNcclRepo>;
