import {
  cutText,
  evaluateNcclRun,
  ncclHardware,
  ncclOutcome,
  roundGBs,
  TEXT_LIMITS,
  type NcclRun as FabricNcclRun,
  type ScanRow,
} from '@ibwatch/fabric';
import { parseNcclTests, ParseError, type NcclRun } from '@ibwatch/parsers';
import type { Db } from '../db/open-db.ts';
import type { Config } from '../config.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { ScanError } from '../sources/types.ts';
import { runPipeline } from './pipeline.ts';
import type { StoredHook, Trigger } from './types.ts';
import { syncFindings } from './findings-sync.ts';
import {
  checkLabels,
  resolveWindow,
  windowProblems,
  type NcclLabels,
  type NcclWindow,
} from '../queries/nccl-checks.ts';

const best = (a: number | undefined, b: number | undefined) => Math.max(a ?? 0, b ?? 0);

/** Host names and GDR evidence lines cut to their limits (text-limits.ts), with a warning when any was. */
function limitNcclText(run: NcclRun, name: string): string[] {
  let cut = 0;
  const limit = (text: string, max: number) => {
    if (text.length > max) cut++;
    return cutText(text, max);
  };
  run.hosts = run.hosts.map((h) => limit(h, TEXT_LIMITS.hostName));
  for (const e of run.gdr.evidence) e.text = limit(e.text, TEXT_LIMITS.evidenceLine);
  return cut ? [`${name}: ${cut} host names or NCCL_DEBUG lines too long, cut`] : [];
}

/**
 * Imports one nccl-tests output: parse, judge against the target for its collective and
 * scope, compare with the rolling baseline of runs with the same labels, and flag GPUDirect
 * RDMA fallbacks. A cut-off output is stored as partial with the rows it has; rows that are
 * not measurements and labels that contradict the log are warnings (scan `partial`). A window
 * that `windowProblems` refuses fails the import (the API refuses it with 400 first).
 */
export async function importNcclText(
  db: Db,
  config: Config,
  text: string,
  labels: NcclLabels,
  name: string,
  trigger: Trigger,
  window: NcclWindow = {},
  onStored?: StoredHook,
): Promise<{ scan: ScanRow; runId: number | null }> {
  let runId: number | null = null;
  const scan = await runPipeline(
    db,
    'import-nccl',
    trigger,
    async () => {
      const badWindow = windowProblems(window, Date.now());
      if (badWindow.length > 0) throw new ScanError(`${name}: ${badWindow.join('; ')}`);
      try {
        const r = parseNcclTests(text, { file: name, maxBusBwGBs: config.ncclMaxBusbwGBs });
        const warnings = r.warnings.map((w) => `${w.file ?? name}:${w.line ?? '?'}: ${w.message}`);
        warnings.push(...limitNcclText(r.value, name));
        const checked = checkLabels(r.value, labels);
        warnings.push(...checked.warnings.map((w) => `${name}: ${w}`));
        if (r.value.truncated)
          warnings.unshift(
            `${name}: output ends without "# Avg bus bandwidth" (cut short); stored the ${r.value.rows.length} ` +
              `complete rows`,
          );
        return {
          data: { run: r.value, nodes: checked.nodes },
          raw: [{ name, text: text.slice(0, 4 << 20) }],
          toolVersions: r.value.ncclVersion ? { nccl: r.value.ncclVersion } : ({} as Record<string, string>),
          warnings,
          partial: r.value.truncated,
        };
      } catch (err) {
        if (err instanceof ParseError) throw new ScanError(err.message, [{ name, text: text.slice(0, 1 << 20) }]);
        throw err;
      }
    },
    (scanId, importedAt, c) => {
      const run: NcclRun = c.data.run;
      const nodes = c.data.nodes;
      const when = resolveWindow(window, importedAt);
      const repo = createNcclRepo(db);
      const collective = run.collective ?? 'unknown';
      // Keys sorted: the baseline matches stored labels as JSON text, whatever order a client sent.
      const storedLabels = Object.fromEntries(
        Object.entries({ ...labels, nodes })
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      const labelSet = Object.fromEntries(Object.entries(storedLabels).map(([k, v]) => [k, String(v)]));
      // The baseline is the runs with the same labels that happened before this one.
      const history: FabricNcclRun[] = repo
        .baseline(collective, JSON.stringify(storedLabels), when.at, 10)
        .map((h, i) => {
          const t = new Date(h.at).toISOString();
          return {
            id: `h${i}`,
            collective,
            nodes,
            startedAt: t,
            finishedAt: t,
            rows: [{ sizeBytes: h.size, busbwGBs: h.busbw }],
            gdr: 'unknown',
            labels: labelSet,
          };
        });
      const hardware = ncclHardware({ devices: run.devices, ibDevices: run.ibDevices, labels });
      const input: FabricNcclRun = {
        id: `pending-${scanId}`,
        collective,
        nodes,
        startedAt: new Date(when.at).toISOString(),
        finishedAt: new Date(when.at).toISOString(),
        rows: run.rows.map((r) => ({
          sizeBytes: r.sizeBytes,
          busbwGBs: best(r.outOfPlace?.busbwGBs, r.inPlace?.busbwGBs),
        })),
        // Mixed: some inter-node channels run without GDRDMA, i.e. partly through host memory.
        avgBusBwGBs: run.avgBusBwGBs,
        gdr: run.gdr.status === 'mixed' ? 'disabled' : run.gdr.status,
        hardware,
        labels: labelSet,
      };
      const { summary, verdicts } = evaluateNcclRun(input, { history, profiles: config.ncclProfiles });
      const { verdict, flags } = ncclOutcome(summary, verdicts);
      runId = repo.insert({
        createdAt: importedAt,
        ...when,
        scanId,
        collective,
        labels: storedLabels,
        hosts: run.hosts,
        nodes: nodes ?? null,
        // Rank lines or NCCL's nranks only: a header-less paste does not say, and its rows are no count.
        ranks: run.nRanks ?? (run.devices.length || null),
        gpuModel: hardware.gpuModel ?? null,
        gpusPerNode: hardware.gpusPerNode ?? null,
        nicsPerNode: hardware.nicsPerNode ?? null,
        nicGbps: hardware.nicGbps ?? null,
        ncclVersion: run.ncclVersion ?? null,
        gdr: run.gdr.status,
        gdrEvidence: run.gdr.evidence.map((e) => `${e.line}: ${e.text}`),
        avgBusbwGBs: run.avgBusBwGBs ?? null,
        // Every row kept by the parser has a finite busbw, so a run with rows has a headline.
        peakBusbwGBs: summary.peakSizeBytes === undefined ? null : summary.peakBusBwGBs,
        peakSizeBytes: summary.peakSizeBytes ?? null,
        largestBusbwGBs: summary.largestBusBwGBs ?? null,
        largestSizeBytes: summary.largestSizeBytes ?? null,
        targetGBs: summary.target?.minBusBwGBs ?? null,
        targetProfile: summary.profile ?? null,
        targetNote: summary.noTarget ?? null,
        verdict,
        regression: flags.includes('regression'),
        flags,
        truncated: run.truncated,
        warnings: c.warnings,
        rows: run.rows.map((r) => ({
          sizeBytes: r.sizeBytes,
          type: r.type,
          redop: r.redop ?? null,
          outOfPlace: {
            timeUs: r.outOfPlace?.timeUs ?? null,
            algbwGBs: r.outOfPlace?.algbwGBs ?? null,
            busbwGBs: r.outOfPlace?.busbwGBs ?? null,
            wrong: r.outOfPlace?.wrong ?? null,
          },
          inPlace: {
            timeUs: r.inPlace?.timeUs ?? null,
            algbwGBs: r.inPlace?.algbwGBs ?? null,
            busbwGBs: r.inPlace?.busbwGBs ?? null,
            wrong: r.inPlace?.wrong ?? null,
          },
        })),
      });
      // Findings are about this run: re-key them to the stored run id. Runs are events, so
      // nothing auto-resolves here (inScope matches no other run's findings).
      const runKey = String(runId);
      const own = verdicts.map((v) => ({
        ...v,
        subject: { kind: 'run' as const, runId: runKey },
        title: `Run #${runKey}: ${v.title}`,
      }));
      syncFindings(createFindingsRepo(db), own, () => false, importedAt, 1);
      onStored?.(scanId, runId);
      return {
        runId: runId!,
        collective,
        verdict,
        gdr: run.gdr.status,
        peakBusbwGBs: roundGBs(summary.peakBusBwGBs),
        rows: run.rows.length,
      };
    },
  );
  return { scan, runId: scan.status === 'failed' ? null : runId };
}
