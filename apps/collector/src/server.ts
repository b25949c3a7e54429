// Entry point: loadConfig -> open database -> buildApp -> scheduler -> listen.
import { loadConfig, ConfigError, requireSource, type Config } from './config.ts';
import { recordCollectorRun } from './db/collector-run.ts';
import { PROCESS_STARTED_AT } from './analysis/fabric-status.ts';
import { collectorSchedule } from './cadence.ts';
import { openContext } from './context.ts';
import { buildApp } from './app.ts';
import { startScheduler } from './scans/scheduler.ts';
import { startMaintenance } from './scans/maintenance.ts';
import { startDropDirWatcher } from './scans/drop-dir.ts';
import { type OpensmFollower, startOpensmFollower } from './scans/opensm-follow.ts';
import { refreshLinkHealth } from './scans/link-health-store.ts';
import { writeTransaction, type Db } from './db/open-db.ts';
import { createNotifier } from './notify/notifier.ts';
import { createTopologyJson } from './db/topology-json.ts';
import { createTopologyFrames } from './analysis/topology-frame.ts';
import { notifyingScans } from './notify/notifying-scans.ts';

export async function serve(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    requireSource(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`ibwatch: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const opened = await openContext(config);
  // Alerts out (docs/alerting.md): every scan, whatever triggered it, tells the notifier.
  let log: { warn(obj: unknown, msg?: string): void } | null = null;
  const notifier = createNotifier(opened.db, config, opened.names, { log: { warn: (o, m) => log?.warn(o, m) } });
  const ctx = { ...opened, scans: notifyingScans(opened.scans, notifier) };
  let opensmLog: OpensmFollower | null = null;
  const opensmFollow = () => opensmLog?.status() ?? null;
  const topology = createTopologyJson(ctx.db, ctx.names);
  const topologyFrames = createTopologyFrames(topology);
  const app = await buildApp({ ...ctx, logger: { level: config.logLevel }, opensmFollow, topology, topologyFrames });
  for (const w of [...ctx.nameWarnings, ...config.notices]) app.log.warn(w);
  log = app.log;
  notifier.start();
  if (notifier.targets.length) app.log.info({ targets: notifier.targets }, 'alerts are pushed');
  recolourLinks(ctx.db, app.log);
  const scheduler = startScheduler(config, ctx.scans, app.log);
  const maintenance = startMaintenance(ctx.db, config, app.log);
  const dropDir = config.ncclDropDir
    ? startDropDirWatcher(config.ncclDropDir, { scans: ctx.scans, db: ctx.db, log: app.log })
    : null;
  opensmLog = startOpensmFollower(ctx.db, config, app.log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    scheduler.stop();
    maintenance.stop();
    dropDir?.stop();
    notifier.stop();
    opensmLog?.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  const url = await app.listen({ host: config.host, port: config.port });
  recordRun(ctx.db, config, url, app.log);
  if (!config.tokens.length)
    app.log.warn(
      'neither IBWATCH_TOKENS nor IBWATCH_TOKEN is set: write endpoints (scan now, imports, acknowledge) answer 401',
    );
  else app.log.info({ tokens: config.tokens.map((t) => t.name) }, 'write tokens');
  // The topology's columns (~2.7 s of CPU at 45k GPUs) are built in slices ahead of the first
  // visitor, after the start-up scans (which may change them); a request that comes earlier
  // waits for the same build without holding the others (topology-json.ts).
  // Then the view's first frame is laid out (~0.3 s at 45k GPUs), on a turn of its own.
  const buildTopology = () =>
    topology
      .ready()
      .then(() => new Promise((turn) => setImmediate(turn)))
      .then(() => topologyFrames.warm())
      .catch((err: unknown) => app.log.warn({ err }, 'could not build the topology reply ahead'));
  // A first look at the fabric right away instead of waiting for the first cron tick.
  if (config.source === 'lab' || config.source === 'diags') {
    void (async () => {
      for (const kind of ['topology', 'sm', 'pm'] as const) {
        const row = await ctx.scans.run(kind, 'startup');
        if (row.status === 'failed') app.log.warn({ kind, error: row.error }, 'start-up scan failed');
      }
      await buildTopology();
    })();
  } else void buildTopology();
}

/**
 * Records this collector's source, cadences and address in the database (db/collector-run.ts),
 * for `ibwatch status`, and says in the log what it schedules: nothing at all for import-only.
 */
function recordRun(
  db: Db,
  config: Config,
  url: string,
  log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void },
): void {
  const schedule = collectorSchedule(config, PROCESS_STARTED_AT, 'running');
  log.info({ source: config.source, schedules: schedule.text }, `scheduled scans: ${schedule.text}`);
  try {
    writeTransaction(db, () =>
      recordCollectorRun(db, {
        source: config.source,
        cron: config.cron,
        jitterMs: config.jitterMs,
        startedAt: PROCESS_STARTED_AT,
        url,
        pid: process.pid,
      }),
    );
  } catch (err) {
    log.warn({ err }, 'could not record the schedule in the database: ibwatch status will judge by its own');
  }
}

/**
 * Link colours follow the current findings; recomputed once at start so that a database an
 * older version wrote (colours from open findings, before migration 0004) shows the truth at
 * once. A database that refuses writes keeps its colours until it accepts them again.
 */
function recolourLinks(db: Db, log: { warn(obj: unknown, msg?: string): void }): void {
  try {
    writeTransaction(db, () => refreshLinkHealth(db));
  } catch (err) {
    log.warn({ err }, 'could not recompute link health at start-up');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await serve();
