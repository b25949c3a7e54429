/**
 * How a stored scan's failure reads to whoever must answer for it. The pipeline writes the
 * prefixes below into `scans.error`; the API, the CLI and the drop directory read them back
 * through {@link failureKind}, without depending on the pipeline itself.
 */
import type { ScanRow } from '@ibwatch/fabric';

/** How a failure to store a scan's data begins (see {@link failureKind}). */
export const STORING_FAILED = 'storing failed: ';
/** How a failure to record the scan at all begins. */
export const NOT_RECORDED = 'could not record the scan: ';
/** SQLite's words for "another connection holds the lock": SQLITE_BUSY and SQLITE_LOCKED. */
const BUSY = /database is locked|database table is locked/;

/**
 * Why a scan failed, for whoever must answer for it: `input` (the tool output or upload could
 * not be used: the sender's to fix), `busy` (another writer held the database past the busy
 * timeout: nothing was wrong with the data, try again), `storage` (the database refused the
 * write: full, read-only). Undefined when the scan did not fail.
 */
export type FailureKind = 'input' | 'busy' | 'storage';

export function failureKind(row: ScanRow): FailureKind | undefined {
  if (row.status !== 'failed') return undefined;
  const e = row.error ?? '';
  if (!e.startsWith(STORING_FAILED) && !e.startsWith(NOT_RECORDED)) return 'input';
  return BUSY.test(e) ? 'busy' : 'storage';
}

/** Seconds a client told "busy" (503) should wait before it tries again. */
export const RETRY_AFTER_S = 2;

/** Whether an error thrown by better-sqlite3 is SQLITE_BUSY / SQLITE_LOCKED (any extended code). */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
