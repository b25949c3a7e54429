/**
 * Which process a 'running' scan belongs to. Several processes write one database (the server,
 * `ibwatch import` runs, cron jobs), and each marks at start-up the scans a crash left
 * 'running' as failed. Without knowing whose they are, a CLI import starting up marked the
 * server's scan in progress "interrupted: the collector stopped", which was not true. A scan
 * records its owner, `host:pid:start` (start: the process's start time in clock ticks since
 * boot, /proc/PID/stat field 22), so that a PID used again after a restart, the usual case in a
 * container, is not taken for the process that died.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Start time of process `pid` (field 22 of /proc/PID/stat), or '' when unknown (no /proc). */
function startTicks(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "12345 (node) S 1 ...": the fields after the command name, which may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined; // a zombie is dead
    return fields[19] ?? '';
  } catch {
    return pid === 'self' ? '' : undefined;
  }
}

let own: string | undefined;

/** This process as a scan owner. */
export function thisProcess(): string {
  return (own ??= `${hostname()}:${process.pid}:${startTicks('self')}`);
}

/** Process `pid` of this host as a scan owner (undefined when it is not running). */
export function processOwner(pid: number): string | undefined {
  const start = startTicks(pid);
  return start === undefined ? undefined : `${hostname()}:${pid}:${start}`;
}

/**
 * Whether the process that owns a scan is gone. A scan of another host, or recorded before
 * owners were (null), cannot be checked from here: only the latter counts as gone, as before.
 */
export function ownerGone(owner: string | null): boolean {
  if (owner === null) return true;
  const [host, pidText, start] = owner.split(':');
  if (host !== hostname()) return false;
  const pid = Number(pidText);
  if (owner === thisProcess()) return false;
  if (pid === process.pid) return true; // this PID, another start: the owner died
  const now = startTicks(pid);
  if (now === undefined) {
    // No /proc entry: gone, unless /proc is not there at all and the PID answers.
    if (start !== '') return true;
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code !== 'EPERM';
    }
  }
  return start !== '' && now !== start;
}
