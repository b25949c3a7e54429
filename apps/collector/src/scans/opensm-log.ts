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
  /** `file:line: why` when the log stops short (Ctrl-C, cut mid-line): the import is partial. */
  cut?: string;
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

const LIFECYCLE = ['state', 'bind-failed', 'exit', 'sm-port-down', 'sm-port-up', 'subnet-up', 'sm-port-unknown'];

/** Events of one SM: the same host, or either without one (an osm.log names no host). */
const sameSm = (a: NewSmLogEvent, b: NewSmLogEvent) => a.host === null || b.host === null || a.host === b.host;

/**
 * The findings the log supports now, from its events in time order. Each lasts until the log
 * shows the SM recovered: a bind failure until the SM reaches STANDBY or MASTER, an exit until
 * the SM starts again (any state change after it), SM port down until `SM port is up` or the
 * same SM's `Entering MASTER state` / `SUBNET UP` (a master with a dead port brings up no
 * subnet), or until the SM exits (then the exit is the finding); a port GUID the fabric does not
 * have (ERR 7526/3309/3320) until the SM reaches STANDBY or MASTER. Severities: a master that
 * exited or lost its port leaves the subnet to the standby (major); an SM that cannot bind, or
 * is bound to a port that is not there, manages nothing (major); a standby that exited is one SM
 * fewer (minor).
 */
export function opensmLogVerdicts(events: readonly NewSmLogEvent[]): Verdict[] {
  let lastState: string | null = null;
  let bind: NewSmLogEvent | null = null;
  let exit: { e: NewSmLogEvent; state: string | null } | null = null;
  let down: NewSmLogEvent | null = null;
  let unknown: { e: NewSmLogEvent; codes: Set<string>; count: number } | null = null;
  for (const e of events) {
    if (e.kind === 'state') {
      if (e.state === 'MASTER' || e.state === 'STANDBY') {
        bind = null;
        unknown = null;
      }
      if (e.state === 'MASTER' && down && sameSm(down, e)) down = null;
      exit = null;
      lastState = e.state;
    } else if (e.kind === 'subnet-up') {
      if (down && sameSm(down, e)) down = null;
    } else if (e.kind === 'bind-failed') bind ??= e;
    else if (e.kind === 'sm-port-unknown') {
      unknown ??= { e, codes: new Set(), count: 0 };
      if (e.errCode) unknown.codes.add(e.errCode);
      unknown.count++;
    } else if (e.kind === 'exit') {
      exit = { e, state: lastState };
      down = null;
    } else if (e.kind === 'sm-port-down') down ??= e;
    else if (e.kind === 'sm-port-up') down = null;
  }
  const verdicts: Verdict[] = [];
  const where = (e: NewSmLogEvent) => `${e.host ? `${e.host} ` : ''}${e.time ?? ''}`.trim();
  const evidenceOf = (e: NewSmLogEvent) => ({
    time: e.time,
    at: e.at,
    host: e.host,
    pid: e.pid,
    errCode: e.errCode,
    guid: e.guid,
    message: e.message,
    source: e.source,
  });
  const verdict = (kind: string, severity: Severity, e: NewSmLogEvent, title: string, short: string): Verdict => ({
    kind: `opensm-log-${kind}`,
    severity,
    subject: { kind: 'sm' },
    title: `${title} (OpenSM log, ${where(e)})`,
    short,
    evidence: evidenceOf(e),
  });
  if (bind) {
    const port = bind.guid ? ` to port GUID ${bind.guid}` : ' its port';
    const code = bind.errCode ? `: ERR ${bind.errCode}` : '';
    verdicts.push(verdict('bind-failed', 'major', bind, `SM cannot bind${port}${code}`, 'SM bind failed'));
  }
  if (unknown) {
    const codes = [...unknown.codes].sort().map((c) => `ERR ${c}`);
    const v = verdict(
      'port-unknown',
      'major',
      unknown.e,
      `SM bound to port GUID ${unknown.e.guid ?? '?'}, which the fabric does not have: no MASTER state ` +
        `(${codes.join(', ')})`,
      'SM port unknown, no master',
    );
    v.evidence = { ...v.evidence, errCodes: [...unknown.codes].sort(), lines: unknown.count };
    verdicts.push(v);
  }
  if (exit) {
    const wasMaster = exit.state === 'MASTER';
    const what = `OpenSM exited${exit.state ? ` (was ${exit.state})` : ''}`;
    verdicts.push(verdict('exit', wasMaster ? 'major' : 'minor', exit.e, what, 'SM exited'));
  }
  if (down) verdicts.push(verdict('port-down', 'major', down, 'SM port is down', 'SM port down'));
  return verdicts;
}

type Parsed = ReturnType<typeof parseOpensmLog>;

/** A parse's warnings as `file:line: message`. */
export function opensmLogWarnings(parsed: Parsed, file?: string): string[] {
  return parsed.warnings.map((w) => `${w.file ?? file ?? ''}:${w.line ?? ''}: ${w.message}`);
}

/** Store a parsed log's new events and re-judge the log's findings; inside the caller's transaction. */
export function storeOpensmEvents(
  db: Db,
  config: Pick<Config, 'autoResolveMin'>,
  parsed: Parsed,
  opts: { source: string; file?: string; at: number },
): OpensmLogImport {
  const rows = parsed.value.events.map((e) => ({ event: toStored(e, opts.source), line: e.line }));
  const repo = createOpensmLogRepo(db);
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
    warnings: opensmLogWarnings(parsed, opts.file),
    findingsOpened: sync.opened,
  };
  if (parsed.value.openSweepLine !== undefined) r.openSweepLine = parsed.value.openSweepLine;
  if (parsed.value.cut) r.cut = `${opts.file ?? opts.source}:${parsed.value.cut.line}: ${parsed.value.cut.why}`;
  return r;
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
  return writeTransaction(db, () => storeOpensmEvents(db, config, parsed, opts));
}

/**
 * A copied log read whole (a regular file of at most 1 GiB, input-file.ts) and parsed; the year
 * of its last line is the file's modification time's.
 */
export function readOpensmLogFile(path: string): { parsed: Parsed; bytes: Uint8Array; name: string } {
  const bytes = readInputFile(path, { format: 'opensm-log' });
  const name = basename(path);
  return { parsed: parseOpensmLog(bytes, { file: name, now: statSync(path).mtime }), bytes, name };
}

/** A copied log into the database, without a scan row (the scan service's importOpensmLog has one). */
export function importOpensmLogFile(
  db: Db,
  config: Pick<Config, 'autoResolveMin'>,
  path: string,
  at = Date.now(),
): OpensmLogImport {
  const { parsed, name } = readOpensmLogFile(path);
  return writeTransaction(db, () =>
    storeOpensmEvents(db, config, parsed, { source: `import:${name}`, file: name, at }),
  );
}
