import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileKind } from '../input/input-file.ts';
import { createDropDirRepo } from '../db/drop-dir-repo.ts';
import type { Db } from '../db/open-db.ts';
import { failureKind } from '../queries/scan-failure.ts';
import { NCCL_FILE_MAX_BYTES, readNcclFile } from '../sources/nccl-file.ts';
import { messageOf } from './pipeline.ts';
import type { ScanService } from './types.ts';

type Log = { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void };

/**
 * A watched drop directory for nccl-tests outputs: job scripts copy their stdout here, and
 * each file is imported once, then moved to `imported/` or `failed/` (never deleted, so a
 * failed import can be fixed and dropped again). Polling, not inotify: it also works on NFS.
 * A file still growing (modified in the last 2 s) waits for the next round.
 *
 * What it must survive (issue 14):
 * - Anything it cannot read is skipped with one warning and the rest goes on: a dangling
 *   symlink used to fail the whole scan of the directory, every 5 s, importing nothing. Only
 *   regular files are taken; a symbolic link is refused (the directory is writable by job
 *   users, and a link could make the collector read, and show the first line of, a file they
 *   cannot read themselves), as are FIFOs and devices (input-file.ts in @ibwatch/parsers).
 * - A content is imported once. Its SHA-256 is recorded in the transaction that stores the
 *   run (drop_dir_files), so a file that cannot be moved afterwards (a read-only directory:
 *   EROFS, imported again every 5 s before) or is dropped again is not imported again.
 * - A database another writer held too long, or one refusing writes, is not the file's fault:
 *   the file stays and is tried again next round (it is not moved to failed/).
 */
export function startDropDirWatcher(dir: string, deps: { scans: ScanService; db: Db; log: Log }, everyMs = 5000) {
  const { scans, log } = deps;
  const files = createDropDirRepo(deps.db);
  /** What was last logged about each name: a file in the same state is not reported every round. */
  const said = new Map<string, string>();
  /** Files left where they are on purpose (imported but not movable), by their stat: not read again. */
  const settled = new Map<string, string>();
  const once = (name: string, why: string, fields: Record<string, unknown> = {}) => {
    if (said.get(name) === why) return;
    said.set(name, why);
    log.warn({ file: join(dir, name), ...fields }, why);
  };

  for (const sub of ['imported', 'failed']) {
    try {
      mkdirSync(join(dir, sub), { recursive: true });
    } catch (err) {
      once(sub, `nccl drop dir: cannot create ${sub}/ (${messageOf(err)}); files will stay where they are`);
    }
  }

  // Job scripts often reuse one name (`nccl.out`): a file already moved under that name keeps
  // it, the newcomer gets `name.1`, `name.2`, ... instead of overwriting it.
  const moveTo = (sub: 'imported' | 'failed', f: string): boolean => {
    let target = join(dir, sub, f);
    for (let n = 1; existsSync(target); n++) target = join(dir, sub, `${f}.${n}`);
    try {
      renameSync(join(dir, f), target);
      said.delete(f);
      return true;
    } catch (err) {
      once(f, `nccl drop file cannot be moved to ${sub}/ (${messageOf(err)}); it stays, and is not imported again`);
      return false;
    }
  };

  async function take(f: string): Promise<void> {
    const path = join(dir, f);
    const st = lstatSync(path, { throwIfNoEntry: false });
    // Gone meanwhile; subdirectories are not drop files.
    if (st === undefined || st.isDirectory()) return;
    const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (settled.get(f) === key) return;
    if (!st.isFile()) {
      return once(f, `nccl drop file is not a regular file (${fileKind(st)}): skipped; copy the output in instead`);
    }
    if (Date.now() - st.mtimeMs < 2000) return;
    const stay = (moved: boolean) => void (moved || settled.set(f, key));
    if (st.size > NCCL_FILE_MAX_BYTES) {
      log.warn({ file: path, bytes: st.size }, 'nccl drop file too large; moved to failed/');
      return stay(moveTo('failed', f));
    }
    let bytes: Buffer;
    try {
      bytes = readNcclFile(path);
    } catch (err) {
      return once(f, `nccl drop file cannot be read: ${messageOf(err)}`);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const seen = files.get(sha256);
    if (seen) {
      if (!said.has(f)) {
        log.info({ file: f, as: seen.name, scan: seen.scanId, runId: seen.runId }, 'nccl drop file imported before');
      }
      return stay(moveTo(seen.outcome, f));
    }
    const record = (outcome: 'imported' | 'failed', scanId: number | null, runId: number | null) =>
      files.record({ sha256, name: f, bytes: bytes.length, outcome, scanId, runId, at: Date.now() });
    const { scan, runId } = await scans.importNccl(bytes.toString('utf8'), {}, f, 'schedule', undefined, (s, r) =>
      record('imported', s, r),
    );
    const kind = failureKind(scan);
    if (kind === 'busy' || kind === 'storage') return once(f, `nccl drop file not stored (${scan.error}); tried again`);
    // A failed parse is recorded too: the same bad content is not parsed again every round.
    if (runId === null) record('failed', scan.id || null, null);
    log.info({ file: f, scan: scan.id, status: scan.status, runId }, 'nccl drop file imported');
    stay(moveTo(runId === null ? 'failed' : 'imported', f));
  }

  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (err) {
        return once('.', `nccl drop dir cannot be read: ${messageOf(err)}`);
      }
      said.delete('.');
      const here = new Set(names);
      for (const m of [said, settled]) for (const k of m.keys()) if (!here.has(k)) m.delete(k);
      for (const f of names) {
        if (f.startsWith('.') || f === 'imported' || f === 'failed') continue;
        // One file that cannot be taken never stops the others.
        try {
          await take(f);
        } catch (err) {
          once(f, `nccl drop file skipped: ${messageOf(err)}`);
        }
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  void tick();
  return { stop: () => clearInterval(timer), tick };
}
