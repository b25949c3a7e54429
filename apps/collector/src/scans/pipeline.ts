import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { ScanKind, ScanRow } from '@ibwatch/fabric';
import { writeTransaction, type Db } from '../db/open-db.ts';
import { writeDeferringCheckpoint } from '../db/wal-checkpoint.ts';
import { createScansRepo, type ScanOutcome } from '../db/scans-repo.ts';
import { ScanError, type Collected, type RawOutput } from '../sources/types.ts';
import { NOT_RECORDED, STORING_FAILED } from '../queries/scan-failure.ts';
import type { Trigger } from './types.ts';
import { observeScan } from '../metrics/registry.ts';

const RAW_PM_EVERY_MS = 3_600_000;
const gzipAsync = promisify(gzip);

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
  // Every outcome, failures included, counts on /metrics (in-process counters since start).
  const row = await pipeline(db, kind, trigger, collect, store, now);
  observeScan(db, row);
  return row;
}

async function pipeline<T>(
  db: Db,
  kind: ScanKind,
  trigger: Trigger,
  collect: () => Promise<Collected<T>>,
  store: (scanId: number, at: number, collected: Collected<T>) => Record<string, number | string>,
  now: () => number,
): Promise<ScanRow> {
  const scans = createScansRepo(db);
  const startedAt = now();
  let scanId: number;
  try {
    scanId = scans.start(kind, trigger, startedAt);
  } catch (err) {
    // The database refuses writes (read-only file, disk full): nothing can be recorded, so the
    // caller gets an unsaved failed row (id 0) with the reason instead of an exception.
    return unsaved(kind, trigger, startedAt, now(), `${NOT_RECORDED}${messageOf(err)}`);
  }
  let collected: Collected<T>;
  try {
    collected = await collect();
  } catch (err) {
    const raw = err instanceof ScanError ? err.raw : [];
    return finishFailed(db, scans, scanId, { kind, trigger, startedAt }, now, raw, await packRaw(raw), {
      status: 'failed',
      error: messageOf(err),
    });
  }
  // The store below is one synchronous transaction (the whole point: all or nothing) that
  // holds the event loop; parsing just held it too. Let queued API requests run in between,
  // and gzip the raw outputs that will probably be kept off the loop (zlib's thread pool):
  // level-6 gzip of a 24 MB PM sweep was a stall of its own.
  let packed: Buffer[] | undefined;
  const status = collected.partial || collected.warnings.length > 0 ? 'partial' : 'ok';
  if (kind !== 'pm' || status !== 'ok' || !hasRawSince(scans, kind, Date.now() - RAW_PM_EVERY_MS)) {
    packed = await packRaw(collected.raw);
  }
  await nextTurn();
  // A PM sweep, the write that recurs every minute or faster (~22 MB of WAL at 45k GPUs), leaves
  // the copy of its WAL into the database file to a worker thread (wal-checkpoint.ts).
  const write = kind === 'pm' ? writeDeferringCheckpoint : writeTransaction;
  try {
    write(db, () => {
      const at = now();
      const summary = store(scanId, at, collected);
      const outcome: ScanOutcome = {
        status: collected.partial || collected.warnings.length > 0 ? 'partial' : 'ok',
        warnings: [...collected.warnings, ...(collected.notes ?? [])],
        toolVersions: collected.toolVersions,
        summary,
        error: collected.partial ? (collected.warnings[0] ?? null) : null,
      };
      // A clean PM sweep of 60k ports is ~24 MB of text (~2.8 MB gzipped): keeping every one
      // for days would dominate the database (pnpm bench). Keep one clean sweep an hour, and
      // every sweep that was partial; other kinds run rarely and always keep theirs.
      if (kind !== 'pm' || outcome.status !== 'ok' || !scans.hasRawOutputSince(kind, at - RAW_PM_EVERY_MS)) {
        keepRaw(scans, scanId, at, collected.raw, packed);
      }
      // Finished now, not at `at` (the time the data is stored as of): the scan's duration
      // must include storing it, which at 10k GPUs is most of an ibdiagnet import.
      scans.finish(scanId, now(), outcome);
    });
  } catch (err) {
    // The transaction rolled back: nothing of this scan is stored, earlier data is intact.
    packed ??= await packRaw(collected.raw);
    return finishFailed(db, scans, scanId, { kind, trigger, startedAt }, now, collected.raw, packed, {
      status: 'failed',
      error: `${STORING_FAILED}${messageOf(err)}`,
      warnings: collected.warnings,
    });
  }
  return scans.get(scanId)!;
}

/**
 * Marks a scan failed, keeping its raw output when there is room. When even that write fails
 * (disk full, database turned read-only) it retries without the raw output, and failing that
 * leaves the row 'running' for the next start to mark interrupted: the caller always gets a
 * row with the reason, never an exception, so a scheduler tick or an API call cannot crash.
 */
function finishFailed(
  db: Db,
  scans: ReturnType<typeof createScansRepo>,
  scanId: number,
  what: { kind: ScanKind; trigger: Trigger; startedAt: number },
  now: () => number,
  raw: RawOutput[],
  packed: Buffer[] | undefined,
  outcome: ScanOutcome,
): ScanRow {
  for (const withRaw of raw.length ? [true, false] : [false]) {
    try {
      writeTransaction(db, () => {
        if (withRaw) keepRaw(scans, scanId, now(), raw, packed);
        scans.finish(scanId, now(), outcome);
      });
      return scans.get(scanId)!;
    } catch (err) {
      outcome = {
        ...outcome,
        error: `${outcome.error ?? 'failed'} (and recording the failure failed: ${messageOf(err)})`,
      };
    }
  }
  return {
    ...unsaved(what.kind, what.trigger, what.startedAt, now(), outcome.error ?? 'failed'),
    id: scanId,
    warnings: outcome.warnings ?? [],
  };
}

function unsaved(kind: ScanKind, trigger: Trigger, startedAt: number, at: number, error: string): ScanRow {
  return {
    id: 0,
    kind,
    trigger,
    status: 'failed',
    startedAt,
    finishedAt: at,
    durationMs: at - startedAt,
    error,
    warnings: [],
    toolVersions: {},
    summary: {},
  };
}

/** Whether a raw output was kept since `at`; on a read error, "no" (the transaction decides again). */
function hasRawSince(scans: ReturnType<typeof createScansRepo>, kind: ScanKind, at: number): boolean {
  try {
    return scans.hasRawOutputSince(kind, at);
  } catch {
    return false;
  }
}

/**
 * Gzips raw outputs on zlib's thread pool, so the transaction that keeps them does not: a failed
 * 45k PM sweep's ~24 MB gzipped inside it held the event loop for 25 s on a loaded machine.
 * `undefined` when gzip failed (keepRaw then gzips inside the transaction).
 */
async function packRaw(raw: RawOutput[]): Promise<Buffer[] | undefined> {
  if (!raw.length) return undefined;
  try {
    return await Promise.all(raw.map((r) => gzipAsync(bytesOf(r), { level: 6 })));
  } catch {
    return undefined;
  }
}

function keepRaw(
  scans: ReturnType<typeof createScansRepo>,
  scanId: number,
  at: number,
  raw: RawOutput[],
  packed?: Buffer[],
): void {
  raw.forEach((r, i) => {
    const bytes = bytesOf(r);
    scans.addRawOutput(scanId, r.name, at, bytes.length, packed?.[i] ?? gzipSync(bytes, { level: 6 }));
  });
}

function bytesOf(r: RawOutput): Uint8Array {
  return typeof r.text === 'string' ? Buffer.from(r.text, 'utf8') : r.text;
}

export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
