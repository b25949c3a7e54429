import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ScanRow } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { topologyVersion } from '../db/topology-counters.ts';
import { iteratePortGuids, portCount } from '../db/graph-queries.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import type { ToolRunner } from '../sources/tool-runner.ts';
import { createDiagsSource } from '../sources/diags.ts';
import { toolEnvProvider } from '../sources/tool-env.ts';
import { collectIbdiagnet, readIbdiagnet } from '../sources/ibdiagnet.ts';
import { ScanError, type SourceAdapter } from '../sources/types.ts';
import { runPipeline } from './pipeline.ts';
import type { ScanService, Trigger } from './types.ts';
import { storeTopology } from './topology-store.ts';
import { preparePm, storePm, type PmPrepared } from './pm-store.ts';
import { CounterBaseline } from './counter-baseline.ts';
import { storeSm } from './sm-store.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { storeIbdiagnet } from './ibdiagnet-store.ts';
import { importNcclText } from './nccl-import.ts';
import { collectSlurm } from '../sources/slurm.ts';
import { storeSlurm } from './slurm-store.ts';
import { readDiagsFile } from '../sources/diags-file.ts';
import { storeDiagsPaste } from './diags-import.ts';
import { opensmLogWarnings, readOpensmLogFile, storeOpensmEvents } from './opensm-log.ts';

/** What routes and the CLI may use of scans/ besides the ScanService (scans/types.ts). */
export { RelearnRefused, relearnSms } from './sm-relearn.ts';
export type { ScanService, Trigger } from './types.ts';
/** `ibwatch import nccl FILE` reads the file as the drop directory does, then calls importNccl. */
export { readNcclFile } from '../sources/nccl-file.ts';
export { importOpensmLogFile } from './opensm-log.ts';
export { isDiagsFormat } from '../sources/diags-file.ts';
// A finding marked fixed through the API recolours its link (routes/findings.ts).
export { endsOfSubjectKey, refreshLinkHealth } from './link-health-store.ts';

/** Kinds that share one queue (see `guarded`); every other kind has a queue of its own. */
const SHARED_QUEUE: Record<string, string> = { topology: 'whole-fabric', pm: 'whole-fabric' };

/** The scan service: every trigger (schedule, API, CLI) goes through these methods. */
export function createScanService(
  db: Db,
  config: Config,
  runner: ToolRunner,
  names: NameBook,
  adapter?: SourceAdapter,
): ScanService {
  // The PM sweep's fabric snapshot lives only for the sweep: in the temp dir, not beside the
  // database (~45 MB at 45k GPUs, written every sweep).
  const diags = createDiagsSource(runner, toolEnvProvider(config, adapter), {
    fabricCache: join(tmpdir(), 'ibwatch-pm-fabric'),
    outstandingSmps: config.outstandingSmps,
  });
  const baseline = new CounterBaseline(db);
  const portToNode = portGuidMap(db);
  const running = new Set<string>();
  const queues = new Map<string, Promise<unknown>>();

  // Scans of one kind run one after the other: a cron SM scan and an API "scan now" that
  // overlapped both compared with the same previous observation and stored the failover twice.
  // Topology scans and PM sweeps also wait for each other (one queue): each parses and stores
  // the whole fabric, and the first scheduled sweep used to land in the middle of the start-up
  // topology scan, its 24 MB output and counter tables on top of the scan's peak.
  async function guarded<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    const queue = SHARED_QUEUE[kind] ?? kind;
    const mine = (queues.get(queue) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        running.add(kind);
        try {
          return await fn();
        } finally {
          running.delete(kind);
        }
      });
    queues.set(queue, mine);
    try {
      return await mine;
    } finally {
      if (queues.get(queue) === mine) queues.delete(queue);
    }
  }

  const service: ScanService = {
    isRunning: (kind) => running.has(kind),

    async run(kind, trigger) {
      const usesDiags = config.source === 'lab' || config.source === 'diags';
      if (kind !== 'ibdiagnet' && kind !== 'sm' && !usesDiags) {
        return refuse(
          kind,
          trigger,
          `source "${config.source}" does not run ${kind} scans (IBWATCH_SOURCE=lab or diags does)`,
        );
      }
      if (kind === 'ibdiagnet' && config.source === 'import-only')
        return refuse(kind, trigger, 'source "import-only" runs no tools');
      // Counters and SMs are keyed to ports: a first PM sweep needs the topology first.
      if (kind === 'pm' && portCount(db) === 0) await service.run('topology', trigger);
      switch (kind) {
        case 'topology': {
          const row = await guarded(kind, () =>
            runPipeline(
              db,
              'topology',
              trigger,
              () => diags.collectTopology(),
              (id, at, c) => storeTopology(db, config, names, id, at, c.data),
            ),
          );
          // The jobs behind each cable are refreshed with the topology; their failure is the
          // slurm scan's own, the topology row stands as it is.
          if (config.impact.slurm === 'squeue') await slurmScan(trigger);
          return row;
        }
        case 'pm':
          return guarded(kind, async () => {
            // The passes over every row that need no database go before the transaction, with
            // the event loop free in between (a /metrics scrape or an API request waits for
            // one block, not all of them). Scans that share this baseline and could commit in
            // between (ibdiagnet) make storePm compute them again: see preparePm.
            let prepared: PmPrepared | undefined;
            const row = await runPipeline(
              db,
              'pm',
              trigger,
              async () => {
                const c = await diags.collectPm(portToNode());
                await nextTurn();
                prepared = preparePm(baseline, c.data);
                return c;
              },
              (id, at, c) => storePm(db, config, names, baseline, id, at, c.data, undefined, prepared),
            );
            prepared = undefined;
            settle(row);
            return row;
          });
        case 'sm':
          return guarded(kind, () =>
            runPipeline(
              db,
              'sm',
              trigger,
              () => diags.collectSm(knownSmLids(db)),
              (id, at, c) => storeSm(db, config, names, id, at, c.data),
            ),
          );
        case 'ibdiagnet':
          return guarded(kind, async () => {
            const row = await runPipeline(
              db,
              'ibdiagnet',
              trigger,
              () => collectIbdiagnet(runner, config),
              (id, at, c) => storeIbdiagnet(db, config, names, baseline, id, at, c.data),
            );
            settle(row);
            return row;
          });
      }
    },

    runSlurm: (trigger) => slurmScan(trigger),

    importIbdiagnet(dir, trigger) {
      return guarded('import-ibdiagnet', async () => {
        const row = await runPipeline(
          db,
          'import-ibdiagnet',
          trigger,
          () => readIbdiagnet(dir, { strict: config.ibdiagnetStrict }),
          (id, at, c) => storeIbdiagnet(db, config, names, baseline, id, at, c.data),
        );
        settle(row);
        return row;
      });
    },

    importDiags(path, format, trigger) {
      return guarded('import-diags', async () => {
        const row = await runPipeline(
          db,
          'import-diags',
          trigger,
          async () => readDiagsFile(path, format),
          (id, at, c) => storeDiagsPaste(db, config, names, baseline, id, at, c.data),
        );
        settle(row);
        return row;
      });
    },

    importOpensmLog(path, trigger) {
      return guarded('import-opensm-log', () =>
        runPipeline(
          db,
          'import-opensm-log',
          trigger,
          async () => {
            const log = readOpensmLogFile(path);
            // A log cut short (Ctrl-C, mid-line) is a partial scan; its warning leads, so it is the reason.
            const warnings = opensmLogWarnings(log.parsed, log.name);
            const cut = log.parsed.value.cut;
            if (cut) warnings.sort((a, b) => Number(b.endsWith(cut.why)) - Number(a.endsWith(cut.why)));
            return {
              data: log,
              raw: [{ name: log.name, text: log.bytes }],
              toolVersions: {},
              warnings,
              partial: !!cut,
            };
          },
          (_id, at, c) => {
            const file = c.data.name;
            const r = storeOpensmEvents(db, config, c.data.parsed, { source: `import:${file}`, file, at });
            const out: Record<string, number | string> = {
              file,
              events: r.events,
              stored: r.stored,
              findingsOpened: r.findingsOpened,
            };
            if (r.cut) out.cut = r.cut;
            return out;
          },
        ),
      );
    },

    importNccl(text, labels, name, trigger, window, onStored) {
      return guarded('import-nccl', () => importNcclText(db, config, text, labels, name, trigger, window, onStored));
    },
  };

  /**
   * After a scan that may have stored counters: the baseline it staged becomes the in-memory
   * one if its transaction committed, else it is reloaded from the database next time. This
   * runs in the same microtask chain as the commit; every store starts after a macrotask
   * boundary (runPipeline's setImmediate), so no other store can see the baseline in between.
   */
  function settle(row: ScanRow): void {
    if (row.status !== 'failed') baseline.commit();
    else baseline.invalidate();
  }

  function slurmScan(trigger: Trigger): Promise<ScanRow> {
    if (config.impact.slurm !== 'squeue')
      return refuse('slurm', trigger, 'IBWATCH_SLURM is off (IBWATCH_SLURM=squeue reads the jobs)');
    return guarded('slurm', () =>
      runPipeline(
        db,
        'slurm',
        trigger,
        () => collectSlurm(runner, config.impact),
        (id, at, c) => storeSlurm(db, id, at, c.data),
      ),
    );
  }

  function refuse(kind: ScanRow['kind'], trigger: Trigger, why: string): Promise<ScanRow> {
    return runPipeline(
      db,
      kind,
      trigger,
      async () => {
        throw new ScanError(why);
      },
      () => ({}),
    );
  }
  return service;
}

/**
 * Port GUID -> node GUID: ibqueryerrors names CA ports by port GUID. Rebuilt only when the
 * topology was written (its version moved), not on every sweep: 70k rows a minute at 10k GPUs.
 */
function portGuidMap(db: Db): () => Map<string, string> {
  let cached: { version: number; map: Map<string, string> } | null = null;
  return () => {
    const version = topologyVersion(db);
    if (cached?.version !== version) {
      cached = { version, map: new Map(iteratePortGuids(db)) };
    }
    return cached.map;
  };
}

/** LIDs of SMs seen before, to ask them directly when the SA does not answer (or lags). */
function knownSmLids(db: Db): number[] {
  // Only SMs seen in the last day: a decommissioned SM host is not asked forever.
  return createSmRepo(db).lidsToAsk(Date.now() - 86_400_000);
}
