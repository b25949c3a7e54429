/**
 * Following OpenSM's log (IBWATCH_OPENSM_LOG) by polling the file with fs calls: no `tail`
 * process. Each poll reads the complete lines written since the last one; a line still being
 * written is left for the next poll. The position (device, inode, offset) is kept in the
 * database, so a restart goes on where it stopped instead of importing the log again.
 *
 * Rotation (logrotate's `create`: the path now names a new file) is seen from the inode: the
 * rest of the old file is read through the descriptor still open on it, then the new file from
 * its start. Truncation (`copytruncate`, `> osm.log`) is seen from a size below the offset: the
 * file is read again from its start. Lines read twice are stored once (opensm-log-repo.ts).
 */
import { closeSync, fstatSync, readSync, statSync } from 'node:fs';
import type { SmLogFollow } from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import { createOpensmLogRepo, type FollowState } from '../db/opensm-log-repo.ts';
import { openInputFile } from '../input/input-file.ts';
import { type OpensmLogImport, storeOpensmLog } from './opensm-log.ts';

/** The most one poll reads: a first poll of a big old log is spread over several polls. */
const MAX_READ_PER_POLL = 16 << 20;
/** The most kept from one poll to the next for a heavy sweep still running (it takes ms). */
const MAX_CARRY = 1 << 20;

/** `bytes` from the start of its 1-based line `line` on. */
function fromLine(bytes: Buffer, line: number): Buffer {
  let at = 0;
  for (let n = 1; n < line && at >= 0; n++) {
    const nl = bytes.indexOf(0x0a, at);
    at = nl < 0 ? -1 : nl + 1;
  }
  return at < 0 ? Buffer.alloc(0) : bytes.subarray(at);
}

interface Open {
  fd: number;
  dev: number;
  ino: number;
  offset: number;
}

export interface OpensmFollower {
  /** Read what was written since the last poll; never throws (the problem is kept in `status`). */
  poll(now?: number): OpensmLogImport | null;
  status(): SmLogFollow;
  stop(): void;
}

export function createOpensmFollower(
  db: Db,
  config: Pick<Config, 'autoResolveMin'>,
  path: string,
  onImport?: (r: OpensmLogImport) => void,
): OpensmFollower {
  const repo = createOpensmLogRepo(db);
  let open: Open | null = null;
  let lastPollAt: number | null = null;
  let error: string | null = null;
  // The lines of a heavy sweep whose end was not read yet: parsed again with the next poll's
  // lines so the sweep gets its duration (events read twice are stored once).
  let carry: Buffer = Buffer.alloc(0);

  const openFile = (resume: FollowState | null): Open => {
    // Through input-file.ts: a regular file only, opened without blocking (the path is config).
    const f = openInputFile(path, { format: 'opensm-log', maxBytes: Number.MAX_SAFE_INTEGER });
    const st = fstatSync(f.fd);
    const same = resume !== null && resume.dev === st.dev && resume.ino === st.ino && resume.offset <= st.size;
    return { fd: f.fd, dev: st.dev, ino: st.ino, offset: same ? resume.offset : 0 };
  };

  /** Complete lines of `o` from its offset (at most MAX_READ_PER_POLL bytes). */
  const readLines = (o: Open, all: boolean): Buffer => {
    const size = fstatSync(o.fd).size;
    if (size < o.offset) o.offset = 0; // truncated in place: read it again from the start
    const len = Math.min(size - o.offset, MAX_READ_PER_POLL);
    if (len <= 0) return Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(o.fd, buf, got, len - got, o.offset + got);
      if (n === 0) break;
      got += n;
    }
    // An unfinished last line waits for its newline, except in a rotated-away file (all of it).
    const end = all ? got : buf.subarray(0, got).lastIndexOf(0x0a) + 1;
    o.offset += end;
    return buf.subarray(0, end);
  };

  const store = (fresh: Buffer, at: number): OpensmLogImport | null => {
    if (fresh.length === 0) return null;
    const bytes = carry.length > 0 ? Buffer.concat([carry, fresh]) : fresh;
    const r = storeOpensmLog(db, config, bytes, { source: `follow:${path}`, file: path, now: new Date(at), at });
    const open = r.openSweepLine === undefined ? Buffer.alloc(0) : fromLine(bytes, r.openSweepLine);
    carry = open.length <= MAX_CARRY ? Buffer.from(open) : Buffer.alloc(0);
    onImport?.(r);
    return r;
  };

  return {
    poll(now = Date.now()) {
      lastPollAt = now;
      try {
        open ??= openFile(repo.followState());
        const parts: Buffer[] = [readLines(open, false)];
        const st = statSync(path, { throwIfNoEntry: false });
        if (st && (st.ino !== open.ino || st.dev !== open.dev)) {
          // Rotated: the old file's last lines, then the new file.
          parts.push(readLines(open, true));
          closeSync(open.fd);
          open = null;
          open = openFile(null);
          parts.push(readLines(open, false));
        }
        const r = store(Buffer.concat(parts), now);
        repo.setFollowState({ path, dev: open.dev, ino: open.ino, offset: open.offset });
        error = st ? null : `${path}: not found (rotated away, not re-created yet)`;
        return r;
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        return null;
      }
    },
    status: () => ({ path, offset: open?.offset ?? repo.followState()?.offset ?? 0, lastPollAt, error }),
    stop() {
      if (open) closeSync(open.fd);
      open = null;
    },
  };
}

/** Poll every `intervalMs` until stopped. */
export function startOpensmFollower(
  db: Db,
  config: Pick<Config, 'autoResolveMin' | 'opensmLog' | 'opensmLogPollMs'>,
  log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
): OpensmFollower | null {
  if (!config.opensmLog) return null;
  const follower = createOpensmFollower(db, config, config.opensmLog, (r) => {
    if (r.stored > 0) log.info({ stored: r.stored, findingsOpened: r.findingsOpened }, 'OpenSM log events stored');
  });
  let lastError: string | null = null;
  const tick = () => {
    follower.poll();
    const e = follower.status().error;
    if (e && e !== lastError) log.warn({ path: config.opensmLog }, `OpenSM log: ${e}`);
    lastError = e;
  };
  tick();
  const timer = setInterval(tick, config.opensmLogPollMs);
  timer.unref();
  return {
    ...follower,
    stop() {
      clearInterval(timer);
      follower.stop();
    },
  };
}
