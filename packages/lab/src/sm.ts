/**
 * OpenSM instances of the lab: config, start (detached, each with its own dir, cache and log),
 * readiness from the log, kill and restart.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, sleep, spawnDetached, stopPid } from './proc.ts';
import type { SmState } from './state.ts';

/** Log lines that mean "routing done" and "standby reached" (with force_log_flush they appear at once). */
export const SUBNET_UP = 'SUBNET UP';
export const STANDBY = 'Entering STANDBY state';
export const MASTER = 'Entering MASTER state';

/**
 * opensm.conf for a lab SM. Short polling so a standby takes over in ~3-4 s instead of ~58 s
 * with the defaults (`sminfo_polling_timeout 10000`, `polling_retry_number 4`);
 * `force_log_flush TRUE` because without it `SUBNET UP` only reached the log at exit.
 */
export function smConfig(o: { priority: number; dir: string; roots: string; sweepInterval: number }): string {
  return [
    `sm_priority ${o.priority}`,
    `sweep_interval ${o.sweepInterval}`,
    'sminfo_polling_timeout 1000',
    'polling_retry_number 2',
    'force_log_flush TRUE',
    // For post-mortems: e.g. 0x0f adds VERBOSE|DEBUG (state machine, SMInfo handover) to the log.
    ...(process.env.IBWATCH_LAB_OSM_LOG_FLAGS ? [`log_flags ${process.env.IBWATCH_LAB_OSM_LOG_FLAGS}`] : []),
    'routing_engine ftree',
    `root_guid_file ${o.roots}`,
    // PerfMgr with the default 500 outstanding queries deadlocks ibsim (docs/lab.md); keep it off.
    'perfmgr FALSE',
    `log_file ${join(o.dir, 'osm.log')}`,
    `dump_files_dir ${o.dir}`,
    `partition_config_file ${join(o.dir, 'partitions.conf')}`,
    '',
  ].join('\n');
}

/** Writes the SM's dir and config; returns the SmState with pid null. */
export function prepareSm(o: {
  id: string;
  priority: number;
  host: string;
  portGuid: string;
  runDir: string;
  roots: string;
  sweepInterval: number;
}): SmState {
  const dir = join(o.runDir, `sm-${o.id}`);
  mkdirSync(join(dir, 'cache'), { recursive: true });
  const conf = join(dir, 'opensm.conf');
  writeFileSync(conf, smConfig({ priority: o.priority, dir, roots: o.roots, sweepInterval: o.sweepInterval }));
  // Default partition: full membership for everyone (the Debian default file may not exist).
  writeFileSync(join(dir, 'partitions.conf'), 'Default=0x7fff, ipoib : ALL=full ;\n');
  return {
    id: o.id,
    priority: o.priority,
    host: o.host,
    portGuid: o.portGuid,
    pid: null,
    dir,
    conf,
    log: join(dir, 'osm.log'),
    stdout: join(dir, 'stdout.log'),
  };
}

/** Starts opensm for `sm` (detached) and returns its PID. */
export async function startSm(
  sm: SmState,
  env: { umad2sim: string; sockName: string; roots: string },
): Promise<number> {
  writeFileSync(sm.stdout, '', { flag: 'a' });
  return spawnDetached(
    'opensm',
    ['-F', sm.conf, '-p', String(sm.priority), '-f', sm.log, '-R', 'ftree', '-a', env.roots],
    {
      cwd: sm.dir,
      outFile: sm.stdout,
      env: {
        PATH: process.env.PATH,
        SIM_HOST: sm.host,
        IBSIM_SOCKNAME: env.sockName,
        LD_PRELOAD: env.umad2sim,
        OSM_CACHE_DIR: join(sm.dir, 'cache'),
        OSM_TMP_DIR: sm.dir,
      },
    },
  );
}

/** Size of a file, 0 if missing — the offset after which to look for new log lines. */
export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The SM's log from `offset` on (all of it when opensm restarted and truncated it). */
export function smLogSince(sm: SmState, offset: number): string {
  return readFrom(sm.log, offset);
}

function readFrom(path: string, offset: number): string {
  try {
    const buf = readFileSync(path);
    // opensm truncates its log file when it starts: a file shorter than the offset is a new log.
    return buf.subarray(buf.length < offset ? 0 : offset).toString('utf8');
  } catch {
    return '';
  }
}

/**
 * Waits until `needle` appears in the SM's log (or stdout) after the given offsets. Fails fast
 * with the log tail when the process dies, and with a clear message on timeout.
 */
export async function waitForSmLine(
  sm: SmState,
  needle: string,
  o: { logOffset?: number; stdoutOffset?: number; timeoutMs: number; pid?: number },
): Promise<void> {
  await waitForAnySmLine(sm, [needle], o);
}

/** Like {@link waitForSmLine} for the first of several lines; returns the one that appeared. */
export async function waitForAnySmLine(
  sm: SmState,
  needles: readonly string[],
  o: { logOffset?: number; stdoutOffset?: number; timeoutMs: number; pid?: number },
): Promise<string> {
  const deadline = Date.now() + o.timeoutMs;
  const what = needles.map((n) => `"${n}"`).join(' or ');
  for (;;) {
    const text = readFrom(sm.log, o.logOffset ?? 0) + readFrom(sm.stdout, o.stdoutOffset ?? 0);
    const found = needles.find((n) => text.includes(n));
    if (found) return found;
    const pid = o.pid ?? sm.pid;
    if (pid !== null && pid !== undefined && !isAlive(pid)) {
      throw new Error(`opensm ${sm.id} (pid ${pid}, ${sm.host}) exited before ${what}. Log tail:\n${tail(sm)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `opensm ${sm.id} (${sm.host}): no ${what} in ${sm.log} within ${o.timeoutMs} ms. Log tail:\n${tail(sm)}`,
      );
    }
    await sleep(50);
  }
}

/** Last lines of the SM log and stdout, for error messages. */
export function tail(sm: SmState, lines = 12): string {
  const t = (readFrom(sm.log, 0) + readFrom(sm.stdout, 0)).trimEnd().split('\n');
  return t.slice(-lines).join('\n');
}

/** The routing engine OpenSM reports in use (`ftree tables configured on all switches`). */
export function routingEngineFromLog(sm: SmState): string | undefined {
  const m = /(\w+) tables configured/.exec(
    readFrom(sm.log, 0)
      .split('\n')
      .reverse()
      .find((l) => /tables configured/.test(l)) ?? '',
  );
  return m?.[1];
}

/** Stops an SM by its recorded PID (TERM, then KILL). */
export async function stopSm(sm: SmState, graceMs = 3000): Promise<void> {
  if (sm.pid !== null) await stopPid(sm.pid, 'opensm', graceMs);
}
