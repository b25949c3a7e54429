import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ScanService } from '../scans/scan-service.ts';

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * A watched drop directory for nccl-tests outputs: job scripts copy their stdout here, and
 * each file is imported once, then moved to `imported/` or `failed/` (never deleted, so a
 * failed import can be fixed and dropped again). Polling, not inotify: it also works on NFS.
 * A file still growing (modified in the last 2 s) waits for the next round.
 */
export function startDropDirWatcher(
  dir: string,
  scans: ScanService,
  log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void },
  everyMs = 5000,
) {
  for (const sub of ['imported', 'failed']) mkdirSync(join(dir, sub), { recursive: true });
  // Job scripts often reuse one name (`nccl.out`): a file already moved under that name keeps
  // it, the newcomer gets `name.1`, `name.2`, ... instead of overwriting it.
  const moveTo = (sub: 'imported' | 'failed', f: string) => {
    let target = join(dir, sub, f);
    for (let n = 1; existsSync(target); n++) target = join(dir, sub, `${f}.${n}`);
    renameSync(join(dir, f), target);
  };
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const f of readdirSync(dir)) {
        const path = join(dir, f);
        const st = statSync(path);
        if (!st.isFile() || f.startsWith('.') || Date.now() - st.mtimeMs < 2000) continue;
        if (st.size > MAX_BYTES) {
          log.warn({ file: path, bytes: st.size }, 'nccl drop file too large; moved to failed/');
          moveTo('failed', f);
          continue;
        }
        const { scan, runId } = await scans.importNccl(readFileSync(path, 'utf8'), {}, f, 'schedule');
        moveTo(runId === null ? 'failed' : 'imported', f);
        log.info({ file: f, scan: scan.id, status: scan.status, runId }, 'nccl drop file imported');
      }
    } catch (err) {
      log.warn({ err }, 'drop dir scan failed');
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  void tick();
  return { stop: () => clearInterval(timer), tick };
}
