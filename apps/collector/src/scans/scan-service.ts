import { gzipSync } from 'node:zlib';
import type { ScanKind, ScanRow } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createScansRepo, type ScanOutcome } from '../db/scans-repo.ts';
import type { NcclLabels, NcclWindow } from './nccl-import.ts';

/** What a source hands back: parsed data plus the raw outputs and tool versions behind it. */
export interface Collected<T> {
  data: T;
  raw: { name: string; text: string }[];
  toolVersions: Record<string, string>;
  warnings: string[];
  /** Some of the data could not be read (a tool failed but others worked): status 'partial'. */
  partial?: boolean;
}

/** A scan step that failed for a reason worth showing as is (tool missing, timeout, parse error). */
export class ScanError extends Error {
  constructor(message: string, readonly raw: { name: string; text: string }[] = []) {
    super(message);
    this.name = 'ScanError';
  }
}

export type Trigger = ScanRow['trigger'];

/**
 * The one scan pipeline behind the scheduler, the API's "scan now" and the CLI:
 * record a running scan -> collect (run tools, parse) -> store and analyse in ONE transaction
 * that also marks the scan finished. A crash anywhere leaves the previous state plus a
 * 'running' row, which the next start marks failed.
 */
export async function runPipeline<T>(
  db: Db,
  kind: ScanKind,
  trigger: Trigger,
  collect: () => Promise<Collected<T>>,
  store: (scanId: number, at: number, collected: Collected<T>) => Record<string, number | string>,
  now: () => number = Date.now,
): Promise<ScanRow> {
  const scans = createScansRepo(db);
  const startedAt = now();
  const scanId = scans.start(kind, trigger, startedAt);
  let collected: Collected<T>;
  try {
    collected = await collect();
  } catch (err) {
    const raw = err instanceof ScanError ? err.raw : [];
    db.transaction(() => {
      keepRaw(scans, scanId, now(), raw);
      scans.finish(scanId, now(), { status: 'failed', error: messageOf(err) });
    })();
    return scans.get(scanId)!;
  }
  try {
    db.transaction(() => {
      const at = now();
      const summary = store(scanId, at, collected);
      keepRaw(scans, scanId, at, collected.raw);
      const outcome: ScanOutcome = {
        status: collected.partial || collected.warnings.length > 0 ? 'partial' : 'ok',
        warnings: collected.warnings,
        toolVersions: collected.toolVersions,
        summary,
        error: collected.partial ? collected.warnings[0] ?? null : null,
      };
      scans.finish(scanId, at, outcome);
    })();
  } catch (err) {
    // The transaction rolled back: nothing of this scan is stored, earlier data is intact.
    db.transaction(() => {
      keepRaw(scans, scanId, now(), collected.raw);
      scans.finish(scanId, now(), { status: 'failed', error: `storing failed: ${messageOf(err)}`, warnings: collected.warnings });
    })();
  }
  return scans.get(scanId)!;
}

function keepRaw(scans: ReturnType<typeof createScansRepo>, scanId: number, at: number, raw: { name: string; text: string }[]): void {
  for (const r of raw) {
    const buf = Buffer.from(r.text, 'utf8');
    scans.addRawOutput(scanId, r.name, at, buf.length, gzipSync(buf, { level: 6 }));
  }
}

export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

export interface ScanService {
  run(kind: 'pm' | 'sm' | 'topology' | 'ibdiagnet', trigger: Trigger): Promise<ScanRow>;
  importIbdiagnet(dir: string, trigger: Trigger): Promise<ScanRow>;
  importNccl(
    text: string, labels: NcclLabels, name: string, trigger: Trigger, window?: NcclWindow,
  ): Promise<{ scan: ScanRow; runId: number | null }>;
  isRunning(kind: string): boolean;
}
