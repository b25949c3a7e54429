// `ibwatch status`: the overview for SSH sessions and check runners. It asks the running
// collector (`--url`, IBWATCH_URL, or the configured address if something answers there), or
// reads the database a collector writes (read-only: it never marks that collector's running
// scan as interrupted) with the cadences that collector recorded, and exits like a Nagios
// plugin: 0 OK, 1 DEGRADED, 2 CRITICAL, 3 STALE or no data.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_END_WORDS, formatAge, STATUS_EXIT_CODE, type FabricSummary } from '@ibwatch/fabric';
import type { Config } from './config.ts';
import { readNames } from './context.ts';
import { openDb } from './db/open-db.ts';
import { readCollectorRun } from './db/collector-run.ts';
import { createSummaryBuilder } from './analysis/summary.ts';
import type { NameBook } from './names.ts';

/** What `ibwatch status --json` prints: the summary `/api/summary` serves, the exit code, and where it came from. */
export interface StatusOutput extends FabricSummary {
  exitCode: number;
  /** The collector's URL asked, or the database file read. */
  readFrom: string;
}

/** How long `status` waits for a collector it was not told about (the configured address). */
const PROBE_TIMEOUT_MS = 1500;
const URL_TIMEOUT_MS = 10_000;
/** The database `scripts/demo.sh` serves: looked at when the configured one does not exist. */
const DEMO_DB = resolve(import.meta.dirname, '../../../.ibwatch/demo.db');

/**
 * The summary as of `now` from the database at `file`. When the collector that writes it
 * recorded its source and cadences (db/collector-run.ts), freshness is judged by those, as that
 * collector's own /api/summary (and the wall) judge it; else by `config`'s.
 */
export async function readStatus(
  config: Config,
  now = Date.now(),
  file = config.dbFile,
  names?: NameBook,
): Promise<StatusOutput> {
  if (!existsSync(file))
    throw new Error(
      `no database at ${file}; point status at one with --db FILE (or IBWATCH_DB), or at a running collector ` +
        'with --url http://HOST:PORT (or IBWATCH_URL)',
    );
  const db = openDb(file, { readonly: true });
  try {
    const run = readCollectorRun(db);
    const effective = run ? { ...config, source: run.source, cron: run.cron, jitterMs: run.jitterMs } : config;
    const book = names ?? (await readNames(effective)).names;
    const summary = createSummaryBuilder(
      db,
      book,
      effective,
      run ? 'recorded' : 'environment',
    )(now, run?.startedAt ?? null);
    return { ...summary, exitCode: STATUS_EXIT_CODE[summary.fabricStatus.word], readFrom: file };
  } finally {
    db.close();
  }
}

/**
 * The IBWATCH_SOURCE the collector that writes `file` recorded (null: no such database or no
 * record). The read-only commands take it when IBWATCH_SOURCE is not set, so that a demo's
 * database is read with the lab's node-name map, as its collector reads it.
 */
export function recordedSource(file: string): Config['source'] | null {
  if (!existsSync(file)) return null;
  let db;
  try {
    db = openDb(file, { readonly: true });
    return readCollectorRun(db)?.source ?? null;
  } catch {
    return null; // Not readable: the command itself says why when it opens the database.
  } finally {
    db?.close();
  }
}

/** `/api/summary` of the collector at `url` (with the write token, in case reads need one). */
export async function askCollector(
  url: string,
  token: string | null,
  timeoutMs = URL_TIMEOUT_MS,
): Promise<StatusOutput> {
  const base = url.replace(/\/+$/, '');
  const res = await fetch(`${base}/api/summary`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${base}/api/summary answered HTTP ${res.status}`);
  const body = (await res.json()) as FabricSummary;
  const code = STATUS_EXIT_CODE[body?.fabricStatus?.word];
  if (code === undefined) throw new Error(`${base}/api/summary: not an ibwatch summary`);
  return { ...body, exitCode: code, readFrom: base };
}

export interface StatusTarget {
  /** --url or IBWATCH_URL. */
  url?: string;
  /** --db or IBWATCH_DB: a database named by the user. */
  db?: string;
}

/** `http://127.0.0.1:8080` for the configured IBWATCH_HOST and IBWATCH_PORT (a wildcard address asked on loopback). */
export function configuredUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * Finds what to report on: the URL or database the user named; else the collector answering
 * at the configured address; else the configured database, or the demo's. When none is there
 * the error says every place looked at and how to point `status` at the right one.
 */
export async function findStatus(
  config: Config,
  target: StatusTarget,
  notice: (line: string) => void,
  o: { demoDb?: string } = {},
): Promise<StatusOutput> {
  const token = config.token ?? config.tokens[0]?.token ?? null;
  if (target.url) return askCollector(target.url, token);
  if (target.db) return readStatus(config, Date.now(), resolve(target.db));
  const url = configuredUrl(config);
  let why: string;
  try {
    return await askCollector(url, token, PROBE_TIMEOUT_MS);
  } catch (err) {
    why = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  }
  const tried = [config.dbFile, o.demoDb ?? DEMO_DB].filter((f, i, all) => all.indexOf(f) === i);
  const found = tried.find((f) => existsSync(f));
  if (found) {
    if (found !== config.dbFile)
      notice(`no collector answers at ${url} and there is no database at ${config.dbFile}: reading ${found}`);
    return readStatus(config, Date.now(), found);
  }
  throw new Error(
    `no collector answers at ${url} (${why}) and no database at ${tried.join(' or ')}; point status at one ` +
      'with --url http://HOST:PORT (or IBWATCH_URL) or --db FILE (or IBWATCH_DB)',
  );
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The status as lines of text, widest first: word and reasons, counts, SM, broken now, scans, fixed. */
export function formatStatus(s: StatusOutput, now: number): string[] {
  const out: string[] = [];
  const word = s.fabricStatus.word;
  out.push(`${word}${s.fabricStatus.reasons.length ? ` - ${s.fabricStatus.reasons.join('; ')}` : ''}`);
  out.push(
    `fabric: ${s.switches} switches, ${s.hcas} HCAs, ` +
      `${s.links} links (${s.degradedLinks} degraded, ${s.downLinks} down), ` +
      `${s.portsOverThreshold} ports over threshold` +
      (s.counterRates === 'first-snapshot' ? ' (rates from the next snapshot)' : ''),
  );
  // Counts with no rate are never folded into "over threshold": they are said for what they are.
  if (s.portsErrorsSinceClear)
    out.push(
      `counters: ${s.portsErrorsSinceClear} ports with error counts since last clear (no rate yet` +
        `${s.counterRates === 'first-snapshot' ? ': one snapshot' : ''})` +
        (s.portsSaturated ? `, ${s.portsSaturated} saturated: clear counters and measure again` : ''),
    );
  const f = s.findingsBySeverity;
  out.push(
    `findings now: ${f.critical} critical, ${f.major} major, ${f.minor} minor, ${f.info} info` +
      (s.clearedFindings ? `; ${s.clearedFindings} cleared, resolving` : ''),
  );
  const sm = s.sm;
  out.push(
    `SM: ${sm.status}` +
      (sm.masterGuid ? ` - master ${sm.masterName ?? sm.masterGuid} (${sm.masterGuid})` : '') +
      `, ${sm.standbyCount} standby, ${sm.failoversLast24h} failover(s) in 24 h`,
  );
  out.push(s.brokenNow.length ? `broken now (${s.brokenNow.length}):` : 'broken now: nothing');
  for (const r of s.brokenNow)
    out.push(
      `  ${pad(r.severity.toUpperCase(), 8)} ${r.title}: ${r.reasons.join('; ')}` +
        (r.kind === 'scan' ? '' : ` (since ${formatAge(now - r.since)} ago${r.acknowledged ? ', acknowledged' : ''})`),
    );
  // A collector of an earlier version (asked with --url) sends no `collector`.
  const c: Partial<FabricSummary['collector']> = s.collector ?? {};
  out.push(
    `schedules: ${c.text ?? 'not said by this collector'}` +
      (c.from === 'recorded' && c.startedAt
        ? ` (as recorded by the collector started ${formatAge(now - c.startedAt)} ago)`
        : '') +
      (c.from === 'environment'
        ? " (this shell's IBWATCH_* settings: the database has no record of its collector)"
        : ''),
  );
  if (s.freshness.length) out.push('scans:');
  for (const x of s.freshness) out.push(`  ${pad(x.kind, 10)} ${pad(x.state, 7)} ${x.reason}`);
  if (s.recentlyFixed.length) out.push('recently fixed:');
  for (const r of s.recentlyFixed)
    out.push(
      `  ${r.title}: ${r.reasons.join('; ')} ` +
        `(${r.state === 'resolved' ? 'resolved' : 'cleared'} ${formatAge(now - r.clearedAt)} ago)`,
    );
  // Events that left "Broken now" (a flap's window ended, a failover acknowledged): not repairs.
  if (s.recentEvents.length) out.push('recent events (not repairs):');
  for (const r of s.recentEvents)
    out.push(
      `  ${pad(r.severity.toUpperCase(), 8)} ${r.title}: ${r.reasons.join('; ')} ` +
        `(last ${formatAge(now - r.at)} ago; ${EVENT_END_WORDS[r.how]})`,
    );
  return out;
}
