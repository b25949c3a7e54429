// `ibwatch status`: the overview for SSH sessions and check runners. It reads the database a
// collector writes (read-only: it never marks that collector's running scan as interrupted) and
// exits like a Nagios plugin: 0 OK, 1 DEGRADED, 2 CRITICAL, 3 STALE or no data.
import { existsSync } from 'node:fs';
import { formatAge, STATUS_EXIT_CODE, type FabricSummary } from '@ibwatch/fabric';
import type { Config } from './config.ts';
import { loadNames } from './context.ts';
import { openDb } from './db/open-db.ts';
import { createSummaryBuilder } from './analysis/summary.ts';

/** What `ibwatch status --json` prints: the summary `/api/summary` serves, plus the exit code. */
export interface StatusOutput extends FabricSummary {
  exitCode: number;
}

/**
 * The summary as of `now` from the database at `config.dbFile`. Nothing is known here about
 * when the collector started, so a scan kind that never succeeded is stale, not pending.
 */
export function readStatus(config: Config, now = Date.now(), names = loadNames(config).names): StatusOutput {
  if (!existsSync(config.dbFile)) throw new Error(`no database at ${config.dbFile} (IBWATCH_DB or --db)`);
  const db = openDb(config.dbFile, { readonly: true });
  try {
    const summary = createSummaryBuilder(db, names, config)(now, null);
    return { ...summary, exitCode: STATUS_EXIT_CODE[summary.fabricStatus.word] };
  } finally {
    db.close();
  }
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
  if (s.freshness.length) out.push('scans:');
  for (const x of s.freshness) out.push(`  ${pad(x.kind, 10)} ${pad(x.state, 7)} ${x.reason}`);
  if (s.recentlyFixed.length) out.push('recently fixed:');
  for (const r of s.recentlyFixed)
    out.push(
      `  ${r.title}: ${r.reasons.join('; ')} ` +
        `(${r.state === 'resolved' ? 'resolved' : 'cleared'} ${formatAge(now - r.clearedAt)} ago)`,
    );
  return out;
}
