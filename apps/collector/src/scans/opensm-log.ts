/**
 * OpenSM's own log into the database: events with the SM's timestamps (`ibwatch import
 * opensm-log FILE`, and each poll of the IBWATCH_OPENSM_LOG follower), and the findings where an
 * event means trouble. See docs/opensm-logs.md.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Severity, Verdict } from '@ibwatch/fabric';
import { type OpensmEvent, parseOpensmLog } from '@ibwatch/parsers';
import type { Config } from '../config.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { type Db, writeTransaction } from '../db/open-db.ts';
import { createOpensmLogRepo, type NewSmLogEvent } from '../db/opensm-log-repo.ts';
import { readInputFile } from '../input/input-file.ts';
import { syncFindings } from './findings-sync.ts';

/** Finding kinds judged from the log (not `sm-*`: the SM scans clear those they do not see). */
export const OPENSM_LOG_KINDS = (k: string) => k.startsWith('opensm-log-');

/** What one import or poll did. */
export interface OpensmLogImport {
  events: number;
  stored: number;
  warnings: string[];
  findingsOpened: number;
  /** A heavy sweep still open at the last line started at this line of the input. */
  openSweepLine?: number;
}

/**
 * The log's local time as epoch ms: the SM writes its host's local time without a zone, so it is
 * read in the collector's zone (run the collector with the SM host's TZ when they differ).
 */
function epochOf(at: string | undefined): number | null {
  if (at === undefined) return null;
  const ms = new Date(at.slice(0, 23)).getTime();
  return Number.isNaN(ms) ? null : ms;
}

export function toStored(e: OpensmEvent, source: string): NewSmLogEvent {
  return {
    at: epochOf(e.at),
    time: e.time ?? null,
    kind: e.kind,
    state: e.state ?? null,
    errCode: e.errCode ?? null,
    guid: e.guid ?? null,
    host: e.host ?? null,
    pid: e.pid ?? null,
    durationMs: e.durationMs ?? null,
    message: e.message.slice(0, 2000),
    source,
  };
}

const LIFECYCLE = ['state', 'bind-failed', 'exit', 'sm-port-down', 'sm-port-up'];

/**
 * The findings the log supports now, from its events in time order. Each lasts until the log
 * shows the SM recovered: a bind failure until the SM reaches STANDBY or MASTER, an exit until
 * the SM starts again (any state change after it), SM port down until `SM port is up` (or the
 * SM exits: then the exit is the finding). Severities: a master that exited or lost its port
 * leaves the subnet to the standby (major); an SM that cannot bind is not running at all
 * (major); a standby that exited is one SM fewer (minor).
 */
export function opensmLogVerdicts(events: readonly NewSmLogEvent[]): Verdict[] {
  let lastState: string | null = null;
  let bind: NewSmLogEvent | null = null;
  let exit: { e: NewSmLogEvent; state: string | null } | null = null;
  let down: NewSmLogEvent | null = null;
  for (const e of events) {
    if (e.kind === 'state') {
      if (e.state === 'MASTER' || e.state === 'STANDBY') bind = null;
      exit = null;
      lastState = e.state;
    } else if (e.kind === 'bind-failed') bind ??= e;
    else if (e.kind === 'exit') {
      exit = { e, state: lastState };
      down = null;
    } else if (e.kind === 'sm-port-down') down ??= e;
    else if (e.kind === 'sm-port-up') down = null;
  }
  const verdicts: Verdict[] = [];
  const where = (e: NewSmLogEvent) => `${e.host ? `${e.host} ` : ''}${e.time ?? ''}`.trim();
  const verdict = (kind: string, severity: Severity, e: NewSmLogEvent, title: string, short: string): Verdict => ({
    kind: `opensm-log-${kind}`,
    severity,
    subject: { kind: 'sm' },
    title: `${title} (OpenSM log, ${where(e)})`,
    short,
    evidence: { time: e.time, at: e.at, host: e.host, pid: e.pid, message: e.message, source: e.source },
  });
  if (bind) verdicts.push(verdict('bind-failed', 'major', bind, 'OpenSM could not bind its port', 'SM bind failed'));
  if (exit) {
    const wasMaster = exit.state === 'MASTER';
    const what = `OpenSM exited${exit.state ? ` (was ${exit.state})` : ''}`;
    verdicts.push(verdict('exit', wasMaster ? 'major' : 'minor', exit.e, what, 'SM exited'));
  }
  if (down) verdicts.push(verdict('port-down', 'major', down, 'SM port is down', 'SM port down'));
  return verdicts;
}

/**
 * Parse `input` (a log or part of one: whole lines), store the new events and re-judge the
 * log's findings. `now` gives the year of the log's last line (file mtime for a copied log).
 */
export function storeOpensmLog(
  db: Db,
  config: Pick<Config, 'autoResolveMin'>,
  input: string | Uint8Array,
  opts: { source: string; file?: string; now: Date; at: number },
): OpensmLogImport {
  const parsed = parseOpensmLog(input, { file: opts.file, now: opts.now });
  const rows = parsed.value.events.map((e) => ({ event: toStored(e, opts.source), line: e.line }));
  const repo = createOpensmLogRepo(db);
  return writeTransaction(db, () => {
    const stored = repo.insert(rows, opts.at);
    const verdicts = opensmLogVerdicts(repo.lifecycleEvents(LIFECYCLE));
    const sync = syncFindings(
      createFindingsRepo(db),
      verdicts,
      OPENSM_LOG_KINDS,
      opts.at,
      config.autoResolveMin * 60_000,
    );
    const r: OpensmLogImport = {
      events: rows.length,
      stored,
      warnings: parsed.warnings.map((w) => `${w.file ?? opts.file ?? ''}:${w.line ?? ''}: ${w.message}`),
      findingsOpened: sync.opened,
    };
    if (parsed.value.openSweepLine !== undefined) r.openSweepLine = parsed.value.openSweepLine;
    return r;
  });
}

/**
 * `ibwatch import opensm-log FILE`: a copied log, read whole (a regular file of at most 1 GiB,
 * input-file.ts). The year of its last line is the file's modification time's.
 */
export function importOpensmLogFile(
  db: Db,
  config: Pick<Config, 'autoResolveMin'>,
  path: string,
  at = Date.now(),
): OpensmLogImport {
  const bytes = readInputFile(path, { format: 'opensm-log' });
  const name = basename(path);
  return storeOpensmLog(db, config, bytes, { source: `import:${name}`, file: name, now: statSync(path).mtime, at });
}
