// `ibwatch` CLI: `pnpm ibwatch <command> [--db FILE] [--json]`. Machine-readable output on
// stdout (with --json, nothing else), logs and errors on stderr, non-zero exit on failure.
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, requireSource } from './config.ts';
import { openContext, type Context } from './context.ts';
import { createFindingsRepo, toFindingRow } from './db/findings-repo.ts';
import { worklist } from './analysis/worklist.ts';
import { worklistCsv } from './queries/worklist-csv.ts';
import { smCommand } from './cli-sm.ts';
import { baselineCommand } from './cli-baseline.ts';
import { createNcclRepo } from './db/nccl-repo.ts';
import {
  formatBytes,
  gdrWord,
  NCCL_VERDICT_WORDS,
  ncclFlagsText,
  ranksText,
  roundGBs,
  runTargetText,
  type NcclRunRow,
  type ScanRow,
} from '@ibwatch/fabric';
import { windowProblems } from './queries/nccl-checks.ts';
import { findStatus, formatStatus, recordedSource } from './cli-status.ts';
import { failureKind } from './queries/scan-failure.ts';
import { isDiagsFormat, readNcclFile } from './scans/service.ts';
import { printImport } from './cli-import.ts';
import type { NcclLabels } from './queries/nccl-checks.ts';
import { backupDatabase } from './db/backup.ts';
import { checkDatabase } from './db/check-db.ts';
import { closeDeferringCheckpoint } from './db/wal-checkpoint.ts';
import { impactSettings } from './analysis/impact.ts';

const USAGE = `usage: ibwatch <command> [options]
  serve [--host H] [--port N] [--db FILE]
                                run the collector: API, dashboard, scheduled scans (needs IBWATCH_SOURCE);
                                --host/--port/--db override IBWATCH_HOST/IBWATCH_PORT/IBWATCH_DB
  status [--url URL]            the fabric status word, what is broken now, SM state, scan freshness;
                                exit 0 OK, 1 DEGRADED, 2 CRITICAL, 3 STALE or no data (Nagios-style).
                                Asks the collector at --url (or IBWATCH_URL), else reads --db (or
                                IBWATCH_DB); else the collector at IBWATCH_HOST:IBWATCH_PORT if it answers,
                                else the default database (or the demo's), by its collector's cadences
  scan [--kind pm|sm|topology|ibdiagnet]   run one scan now (default: topology, sm, pm)
  import ibdiagnet DIR          import an ibdiagnet2 output directory
  import opensm-log FILE        import a copied OpenSM log (osm.log, syslog, systemctl status); again = no-op
  import diags FILE [--format iblinkinfo|ibqueryerrors|perfquery|ibstat|ibstatus]
                                import a captured diags output (format told from the content by default)
  import nccl FILE [--label k=v ...] [--at TIME]
                                import one nccl-tests output (labels: cluster, nodes, gpuModel, hcaCount,
                                runBy); --at: when the run started (ISO 8601, e.g. 2025-06-01T12:00:00Z,
                                or epoch ms), for a run imported after the fact (default: now)
  findings [--state current|cleared|open|acknowledged|resolved|active]
  worklist [--csv]              the reseat worklist
  sm                            subnet managers (answering or not seen since), designated SMs, SM events
  sm relearn                    re-learn the designated SMs from the next SM scan (not with IBWATCH_SM_GUIDS)
  baseline                      the topology validation report against the as-built (exit 1 when it differs)
  baseline set                  take the current topology as the as-built cabling
  baseline import FILE          take an ibnetdiscover topology file as the as-built cabling
  nccl                          nccl-tests runs, newest first: peak busbw and size, largest size, target
  backup FILE [--force]         copy the database into FILE (online: the collector may keep running)
  check-db [FILE]               check a database before serving it (integrity, schema version, rows)
options: --db FILE (default IBWATCH_DB), --url URL (status), --json (machine-readable stdout), --help`;

const COMMANDS = ['scan', 'import', 'findings', 'worklist', 'sm', 'baseline', 'nccl', 'backup', 'check-db'];
/**
 * The CLI waits longer for another writer than the server (which must keep answering), and
 * tries a scan again when the database stayed busy even so: an import that reached the
 * database busy was not refused for its data. After the last try it exits with 75
 * (EX_TEMPFAIL: "try again later") rather than 1 ("failed").
 */
const CLI_BUSY_TIMEOUT_MS = 30_000;
const BUSY_TRIES = 4;
const EXIT_BUSY = 75;
/** What a label may hold: the same bounds as the API's labels schema (routes/nccl.ts). */
const LABEL_TEXT_MAX = 100;
const LABEL_INT: Record<string, [number, number]> = { nodes: [1, 100_000], hcaCount: [0, 1000] };
const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : s + '\n');
const err = (s: string) => process.stderr.write(s.endsWith('\n') ? s : s + '\n');
const fmtTime = (ms: number | null) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + 'Z' : '-');

/** `cleared` for an open or acknowledged finding (or entry) the latest scan no longer sees, else its state. */
const lifecycle = (f: { state: string; clearedAt: number | null }) =>
  f.clearedAt !== null && f.state !== 'resolved' ? 'cleared' : f.state;

/** The scan line goes to stderr; with --json only failures, so a script still sees why it failed. */
function printScan(s: ScanRow, json: boolean): void {
  if (!json || s.status === 'failed')
    err(`scan #${s.id} ${s.kind}: ${s.status} in ${s.durationMs ?? '?'} ms${s.error ? ` — ${s.error}` : ''}`);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
      kind: { type: 'string', multiple: true },
      state: { type: 'string' },
      label: { type: 'string', multiple: true },
      force: { type: 'boolean', default: false },
      at: { type: 'string' },
      format: { type: 'string' },
      url: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [cmd, ...rest] = positionals;
  if (values.help || !cmd) {
    (cmd ? out : err)(USAGE);
    return values.help ? 0 : 2;
  }
  if (cmd === 'serve') {
    const { serve } = await import('./server.ts');
    // The flags win over the environment; serve() checks them with every other setting.
    if (values.db) process.env.IBWATCH_DB = values.db;
    if (values.host) process.env.IBWATCH_HOST = values.host;
    if (values.port) process.env.IBWATCH_PORT = values.port;
    await serve();
    return -1;
  }
  // Before opening (and creating) the database a typo would otherwise leave behind.
  if (!COMMANDS.includes(cmd) && cmd !== 'status') throw new UsageError(`unknown command ${cmd}`);
  const env = { ...process.env, ...(values.db ? { IBWATCH_DB: values.db } : {}) };
  let config = loadConfig(env);
  // Without IBWATCH_SOURCE the commands that read or import through a context take the source the
  // database's collector recorded (its node-name map, its expected rate); `scan` still needs it
  // set, `status` reads the record itself, `backup` and `check-db` need no source.
  const adopts = !config.sourceSet && !['scan', 'status', 'backup', 'check-db'].includes(cmd);
  const recorded = adopts ? recordedSource(config.dbFile) : null;
  if (recorded) config = { ...loadConfig({ ...env, IBWATCH_SOURCE: recorded }), sourceSet: false };
  for (const n of config.notices) err(`ibwatch: ${n}`);
  if (cmd === 'status') {
    // Read-only, without the context: opening one marks a running collector's scan interrupted.
    const set = (k: string) => (process.env[k] ?? '').trim() || undefined;
    const status = await findStatus(
      config,
      { url: values.url ?? set('IBWATCH_URL'), db: values.db ?? set('IBWATCH_DB') },
      (l) => err(`ibwatch: ${l}`),
    );
    if (values.json) out(JSON.stringify(status));
    else out([...formatStatus(status, Date.now()), `read from ${status.readFrom}`].join('\n'));
    return status.exitCode;
  }
  const json = values.json ?? false;
  // These two only read the database (createContext would migrate it and mark the running
  // server's scan as interrupted).
  if (cmd === 'backup') {
    if (!rest[0]) throw new UsageError('backup FILE [--force]');
    const r = await backupDatabase(config.dbFile, rest[0], { force: values.force });
    if (json) out(JSON.stringify(r));
    else
      err(
        `backup of ${r.source} written to ${r.file}: ${(r.bytes / 1048576).toFixed(1)} MB, schema version ` +
          `${r.schemaVersion}, integrity ${r.integrity}, ${r.seconds} s`,
      );
    return 0;
  }
  if (cmd === 'check-db') {
    const r = checkDatabase(rest[0] ?? config.dbFile);
    if (json) out(JSON.stringify(r));
    else {
      out(`${r.file}: ${r.ok ? 'ok' : 'NOT OK'}`);
      out(`  schema version ${r.schemaVersion} (${r.schema}; this ibwatch: ${r.latestVersion})`);
      out(
        `  rows: ${Object.entries(r.rows)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}`,
      );
      out(`  last successful scan: ${fmtTime(r.lastScanAt)}`);
      for (const p of r.problems) out(`  problem: ${p}`);
    }
    return r.ok ? 0 : 1;
  }
  if (cmd === 'scan') requireSource(config);
  const ctx: Context = await openContext(config, { busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
  try {
    switch (cmd) {
      case 'scan': {
        const kinds = (values.kind?.length ? values.kind : ['topology', 'sm', 'pm']) as (
          | 'pm'
          | 'sm'
          | 'topology'
          | 'ibdiagnet'
        )[];
        const rows: ScanRow[] = [];
        for (const k of kinds) {
          if (!['pm', 'sm', 'topology', 'ibdiagnet'].includes(k)) throw new UsageError(`unknown scan kind ${k}`);
          const r = await whileBusy(() => ctx.scans.run(k, 'cli'));
          rows.push(r);
          printScan(r, json);
        }
        if (json) out(JSON.stringify(rows));
        return exitCode(rows);
      }
      case 'import': {
        const [what, path] = rest;
        if (!path || !['ibdiagnet', 'nccl', 'opensm-log', 'diags'].includes(what ?? ''))
          throw new UsageError('import ibdiagnet DIR | import nccl FILE | import opensm-log FILE | import diags FILE');
        if (what === 'opensm-log' || what === 'diags') {
          const format = values.format;
          if (format !== undefined && (what !== 'diags' || !isDiagsFormat(format)))
            throw new UsageError('--format: iblinkinfo, ibqueryerrors, perfquery, ibstat or ibstatus (import diags)');
          const r = await whileBusy(() =>
            what === 'diags' ? ctx.scans.importDiags(path, format, 'cli') : ctx.scans.importOpensmLog(path, 'cli'),
          );
          printImport(r, json, out, err);
          return exitCode([r]);
        }
        if (what === 'ibdiagnet') {
          const r = await whileBusy(() => ctx.scans.importIbdiagnet(path, 'cli'));
          printScan(r, json);
          if (json) out(JSON.stringify(r));
          return exitCode([r]);
        }
        const labels = parseLabels(values.label ?? []);
        const window = values.at === undefined ? {} : { startedAt: parseAt(values.at) };
        const problems = windowProblems(window, Date.now());
        if (problems.length > 0) throw new UsageError(`--at: ${problems.join('; ')}`);
        // A FIFO, a device, a directory, a file over the limit: refused (exit 1) before anything is read.
        const text = readNcclFile(path).toString('utf8');
        let runId: number | null = null;
        const scan = await whileBusy(async () => {
          const r = await ctx.scans.importNccl(text, labels, basename(path), 'cli', window);
          runId = r.runId;
          return r.scan;
        });
        printScan(scan, json);
        if (!json) for (const w of scan.warnings) err(`warning: ${w}`);
        if (json) out(JSON.stringify({ scan, runId, run: runId ? createNcclRepo(ctx.db).get(runId)?.run : null }));
        else if (runId) err(`nccl run #${runId} stored`);
        return runId === null ? exitCode([scan]) : 0;
      }
      case 'findings': {
        const rows = createFindingsRepo(ctx.db)
          .list({ state: values.state ?? 'active', limit: 10_000 })
          .map(toFindingRow);
        if (json) out(JSON.stringify(rows));
        else
          for (const f of rows)
            out(`${f.severity.padEnd(8)} ${lifecycle(f).padEnd(12)} ${fmtTime(f.lastSeen)}  ${f.title}`);
        return 0;
      }
      case 'worklist': {
        const entries = worklist(
          ctx.db,
          ctx.names,
          values.state ? { state: values.state } : {},
          Date.now(),
          impactSettings(ctx.config),
        );
        if (json) out(JSON.stringify(entries));
        else if (values.csv) process.stdout.write(worklistCsv(entries));
        else
          for (const e of entries) {
            out(
              `${String(e.rank).padStart(3)}. [${e.severity}] ${lifecycle(e)} ${e.a.name} port ${e.a.port} <-> ` +
                `${e.b ? `${e.b.name} port ${e.b.port}` : '?'}: ${e.reasons.join('; ')} => ${e.action}`,
            );
            if (e.impact?.drain.length) out(`     drain first: ${e.impact.drain.join(' ')}`);
          }
        return 0;
      }
      case 'sm':
        return smCommand(ctx, rest, json, out);
      case 'baseline':
        return baselineCommand(ctx, rest, json, out);
      case 'nccl': {
        const runs = createNcclRepo(ctx.db).list({ limit: 200 });
        if (json) out(JSON.stringify(runs));
        else for (const r of runs) out(ncclRunLine(r));
        return 0;
      }
      default:
        throw new UsageError(`unknown command ${cmd}`);
    }
  } finally {
    // A `scan --kind pm` leaves its checkpoint to a thread: let it finish, then end the thread.
    await closeDeferringCheckpoint(ctx.db);
  }
}

class UsageError extends Error {}

/** Runs `scan` again (after a pause) while it fails only because the database was busy. */
async function whileBusy(scan: () => Promise<ScanRow>): Promise<ScanRow> {
  for (let attempt = 1; ; attempt++) {
    const row = await scan();
    if (failureKind(row) !== 'busy' || attempt === BUSY_TRIES) return row;
    const pause = 500 * 2 ** attempt * (0.5 + Math.random());
    err(`ibwatch: database busy (${row.error}); trying again in ${(pause / 1000).toFixed(1)} s`);
    await sleep(pause);
  }
}

/** 0 when every scan stored something, 75 when one failed only because the database stayed busy, else 1. */
function exitCode(rows: ScanRow[]): number {
  if (rows.some((r) => failureKind(r) === 'busy')) return EXIT_BUSY;
  return rows.some((r) => r.status === 'failed') ? 1 : 0;
}

/** `--label k=v` values, checked as the API checks an upload's labels. */
function parseLabels(list: string[]): NcclLabels {
  const labels: Record<string, string | number> = {};
  for (const l of list) {
    const eq = l.indexOf('=');
    const k = l.slice(0, eq);
    const v = l.slice(eq + 1);
    if (eq < 1 || !['cluster', 'nodes', 'gpuModel', 'hcaCount', 'runBy'].includes(k))
      throw new UsageError(`bad label ${JSON.stringify(l)}: expected cluster|nodes|gpuModel|hcaCount|runBy=value`);
    const range = LABEL_INT[k];
    if (range) {
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(n >= range[0] && n <= range[1]))
        throw new UsageError(
          `bad label ${k}=${JSON.stringify(v)}: expected an integer from ${range[0]} to ${range[1]}`,
        );
      labels[k] = n;
    } else {
      if (v.length > LABEL_TEXT_MAX)
        throw new UsageError(`bad label ${k}: at most ${LABEL_TEXT_MAX} characters, got ${v.length}`);
      labels[k] = v;
    }
  }
  return labels as NcclLabels;
}

/** `--at`: epoch milliseconds, or a time Date.parse reads (ISO 8601; without a zone it is local time). */
function parseAt(v: string): number {
  const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms))
    throw new UsageError(`--at ${JSON.stringify(v)}: expected a time such as 2025-06-01T12:00:00Z`);
  return ms;
}

/**
 * One run as `ibwatch nccl` prints it, with the words of the Bandwidth page and the CSV: the peak
 * busbw and its size, the largest size beside it, the target and its profile (or why none), the
 * verdict, GDR state and flags.
 */
function ncclRunLine(r: NcclRunRow): string {
  const bw = (gbs: number | null, size: number | null) =>
    gbs === null ? '?' : `${roundGBs(gbs).toFixed(1)} GB/s${size ? ` at ${formatBytes(size)}` : ''}`;
  const where = `${r.nodes === null ? 'nodes ?' : `${r.nodes} node${r.nodes === 1 ? '' : 's'}`} ${ranksText(r.ranks)}`;
  const target = r.targetGBs === null ? runTargetText(r) : `target ${runTargetText(r)}`;
  const notes = [ncclFlagsText(r.flags), r.importWarnings ? `${r.importWarnings} warning(s)` : '']
    .filter(Boolean)
    .join('; ');
  return (
    `#${r.id} ${fmtTime(r.at)} ${r.collective} ${where}: peak ${bw(r.peakBusbwGBs, r.peakSizeBytes)}, ` +
    `largest ${bw(r.largestBusbwGBs, r.largestSizeBytes)}; ${target}; GDR ${gdrWord(r.gdr)}; ` +
    `${NCCL_VERDICT_WORDS[r.verdict]}${notes ? ` [${notes}]` : ''}`
  );
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    if (e instanceof ConfigError) err(`ibwatch: ${e.message}`);
    else if (e instanceof UsageError) err(`ibwatch: ${e.message}\n${USAGE}`);
    else err(`ibwatch: ${e instanceof Error ? e.message : String(e)}`);
    // A check runner reads any failure of `status` to find out as UNKNOWN (3), not WARNING.
    process.exit(argv.includes('status') ? 3 : e instanceof UsageError ? 2 : 1);
  },
);
