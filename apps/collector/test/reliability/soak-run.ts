// The soak: a live lab (ibsim + OpenSM + infiniband-diags), the real scan service, PM sweeps
// back to back (no waiting for cron), a random fault every few sweeps, retention on an
// accelerated clock, and (optionally) the API read as a wall screen would after every sweep.
// Reports memory, database and sweep-time figures; used by scripts/soak.ts (the long run) and
// soak.test.ts (the short CI variant).
import { seededRandom } from '@ibwatch/fabric';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import {
  addCounter,
  degradeLink,
  linkDown,
  linkUp,
  resetCounters,
  restoreLink,
  startLab,
  stopLab,
  type Lab,
  type PortAddr,
} from '@ibwatch/lab';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { pruneOnce } from '../../src/scans/maintenance.ts';

export { stopLab };

export interface SoakOptions {
  /** Stop after this many sweeps (with `minutes`: whichever comes first). */
  sweeps: number;
  /** Stop after this many minutes of sweeps. */
  minutes?: number;
  gpus: number;
  /** A random fault every this many sweeps. */
  faultEvery: number;
  reportEvery: number;
  /** Also take a sample every this many seconds (a timed run wants samples evenly in time). */
  sampleEverySec?: number;
  /**
   * Write a V8 heap snapshot into this directory when the warm-up ends and after the last sweep.
   * The warm-up (`warmupMin`, default 0) is the time before the start snapshot.
   */
  heapSnapshotDir?: string;
  warmupMin?: number;
  /** After every sweep read the API as the dashboard does (summary, findings, worklist, ...). */
  api?: boolean;
  /** Work dir (lab + database); must exist. */
  dir: string;
  seed?: number;
  log?: (line: string) => void;
}

export interface SoakSample {
  sweep: number;
  /** Seconds since the first sweep. */
  atS: number;
  rssMb: number;
  heapMb: number;
  dbMb: number;
  walMb: number;
  /**
   * Logical size of the database (page count x page size, WAL content included): the main file
   * alone stays empty until the first checkpoint, and the WAL only grows to its checkpoint size.
   */
  pagesMb: number;
  p50Ms: number;
  p95Ms: number;
  findingsOpen: number;
  failed: number;
}

export interface SoakResult {
  samples: SoakSample[];
  faults: Record<string, number>;
  failedScans: number;
  pruned: Record<string, number>;
  seconds: number;
  /** Heap snapshot files written (start, end), with the second at which each was taken. */
  heapSnapshots: { file: string; atS: number }[];
  /** Seconds since the first sweep at which the warm-up ended (0 without one). */
  warmupEndS: number;
  apiReads: number;
  apiFailures: number;
}

/** What a NOC wall screen and a technician's browser keep reading; /metrics is what Prometheus scrapes. */
const API_READS = ['/api/summary', '/api/findings?state=active', '/api/worklist', '/api/sms', '/api/scans', '/metrics'];

const DAY = 86_400_000;
// Hundredths: the soak database stays near 1 MB, where tenths made one rounding step read as 10% growth.
const mb = (b: number) => Math.round((b / 1048576) * 100) / 100;
const size = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const random = seededRandom(o.seed ?? 42);
  const labDir = join(o.dir, 'lab');
  const started = Date.now();
  const lab: Lab = await startLab({ gpus: o.gpus, tiers: 2, dir: labDir });
  try {
    const config = loadConfig({
      IBWATCH_SOURCE: 'lab',
      IBWATCH_LAB_DIR: labDir,
      IBWATCH_DB: join(o.dir, 'soak.db'),
      IBWATCH_GRACE_PERIOD_MIN: '0',
      IBWATCH_AUTO_RESOLVE_MIN: '0',
      IBWATCH_TOOL_TIMEOUT_MS: '20000',
      IBWATCH_LOG_LEVEL: 'warn',
    });
    // Retention on an accelerated clock: the last `windowMs` of wall time stand for the
    // retention days, so pruning really deletes during a run of minutes.
    const retention = {
      ...config,
      retention: { rawDeltaDays: 1, rollupDays: 1, rawOutputDays: 1, scanDays: 1, trafficDays: 1 },
    };
    const ctx = createContext(config);
    const { db } = ctx;
    // ibqueryerrors under ibsim dies with SIGSEGV in ~2% of runs (seen in every soak): the
    // initial scans get three tries, like the next cron tick would give them.
    for (const k of ['topology', 'sm', 'pm'] as const) {
      let r = await ctx.scans.run(k, 'cli');
      for (let t = 1; t < 3 && r.status === 'failed'; t++) r = await ctx.scans.run(k, 'cli');
      if (r.status === 'failed') throw new Error(`initial ${k} scan failed 3 times: ${r.error}`);
    }
    const topo = lab.topology();
    const hcaLinks = topo.links.filter((l) => /^dgx-/.test(l.b.node) || /^dgx-/.test(l.a.node));
    const fabricLinks = topo.links.filter((l) => /^(leaf|spine)/.test(l.a.node) && /^(leaf|spine)/.test(l.b.node));
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const end = (l: (typeof topo.links)[number]): PortAddr => ({ node: l.a.node, port: l.a.port });
    const down: PortAddr[] = [];
    const degraded: PortAddr[] = [];
    const faults: Record<string, number> = {};
    const pruned: Record<string, number> = {};
    const samples: SoakSample[] = [];
    let times: number[] = [];
    let failed = 0;
    const windowMs = 60_000;

    const fault = async () => {
      const r = random();
      let kind: string;
      if (down.length && r < 0.15) (kind = 'link-up'), await linkUp(lab, down.shift()!);
      else if (degraded.length && r < 0.3) (kind = 'restore'), await restoreLink(lab, degraded.shift()!);
      else if (r < 0.6)
        (kind = 'counter-bump'),
          await addCounter(
            lab,
            end(pick(hcaLinks)),
            pick(['SymbolErrorCounter', 'PortRcvErrors', 'LinkErrorRecoveryCounter', 'PortXmitDiscards']),
            1 + Math.floor(random() * 50),
          );
      else if (r < 0.72) {
        kind = 'link-down';
        const p = end(pick(hcaLinks));
        await linkDown(lab, p, { countFlap: true });
        down.push(p);
      } else if (r < 0.84) {
        kind = 'degrade';
        const p = end(pick(fabricLinks));
        await degradeLink(lab, p, { width: '2X' });
        degraded.push(p);
      } else (kind = 'counter-reset'), await resetCounters(lab, end(pick(hcaLinks)));
      faults[kind] = (faults[kind] ?? 0) + 1;
    };

    const app = o.api ? await buildApp({ ...ctx, logger: false }) : null;
    let apiReads = 0;
    let apiFailures = 0;
    const readApi = async (sweep: number) => {
      for (const url of API_READS) {
        const r = await app!.inject({ url });
        apiReads++;
        if (r.statusCode !== 200 && ++apiFailures <= 20) log(`sweep ${sweep}: GET ${url} answered ${r.statusCode}`);
      }
    };
    const loopStart = Date.now();
    const seconds = () => Math.round((Date.now() - loopStart) / 100) / 10;
    const deadline = o.minutes === undefined ? Number.POSITIVE_INFINITY : loopStart + o.minutes * 60_000;
    const warmupEnd = loopStart + (o.warmupMin ?? 0) * 60_000;
    // Without a warm-up or snapshots to place, there is nothing to wait for.
    let warmupEndS = o.warmupMin === undefined && o.heapSnapshotDir === undefined ? 0 : -1;
    let nextSampleAt = o.sampleEverySec ? loopStart + o.sampleEverySec * 1000 : Number.POSITIVE_INFINITY;
    const heapSnapshots: { file: string; atS: number }[] = [];
    const snapshot = (name: string) => {
      if (!o.heapSnapshotDir) return;
      const atS = seconds();
      const file = writeHeapSnapshot(join(o.heapSnapshotDir, `soak-${name}.heapsnapshot`));
      heapSnapshots.push({ file, atS });
      log(`heap snapshot ${name} at ${atS} s: ${file}`);
    };

    const sample = (i: number) => {
      const m = process.memoryUsage();
      const s: SoakSample = {
        sweep: i,
        atS: seconds(),
        rssMb: mb(m.rss),
        heapMb: mb(m.heapUsed),
        dbMb: mb(size(config.dbFile)),
        walMb: mb(size(`${config.dbFile}-wal`)),
        pagesMb: mb(
          (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number),
        ),
        p50Ms: Math.round(pct(times, 50)),
        p95Ms: Math.round(pct(times, 95)),
        findingsOpen: db.prepare("SELECT COUNT(*) FROM findings WHERE state != 'resolved'").pluck().get() as number,
        failed,
      };
      samples.push(s);
      times = [];
      log(
        `sweep ${String(i).padStart(5)}  ${String(Math.round(s.atS)).padStart(5)} s  rss ${s.rssMb} MB  heap ` +
          `${s.heapMb} MB  db ${s.dbMb} MB (${s.pagesMb} MB in pages)  wal ${s.walMb} MB  pm p50 ${s.p50Ms} ms ` +
          `p95 ${s.p95Ms} ms  findings open ${s.findingsOpen}  failed scans ${failed}`,
      );
    };

    let i = 0;
    while (i < o.sweeps && Date.now() < deadline) {
      i++;
      if (i % o.faultEvery === 0) {
        try {
          await fault();
        } catch (err) {
          faults['fault-error'] = (faults['fault-error'] ?? 0) + 1;
          log(`fault failed at sweep ${i}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      const t = performance.now();
      const row = await ctx.scans.run('pm', 'schedule');
      times.push(performance.now() - t);
      const note = (r: { status: string; kind: string; error: string | null }) => {
        if (r.status !== 'failed') return;
        if (++failed <= 20) log(`sweep ${i}: ${r.kind} scan failed: ${r.error}`);
      };
      note(row);
      if (i % 20 === 0) note(await ctx.scans.run('topology', 'schedule'));
      if (i % 50 === 0) note(await ctx.scans.run('sm', 'schedule'));
      if (i % 100 === 0)
        for (const [k, v] of Object.entries(pruneOnce(db, retention, Date.now() + DAY - windowMs)))
          pruned[k] = (pruned[k] ?? 0) + v;
      if (app) await readApi(i);
      const last = i === o.sweeps || Date.now() >= deadline;
      if (warmupEndS < 0 && Date.now() >= warmupEnd) {
        // The warm-up is over: the start snapshot, then a sample. Writing a snapshot costs RSS of
        // its own (~50 MB at 256 GPUs, kept by the allocator), so the slope after the warm-up is
        // fitted over samples taken after it only.
        snapshot('start');
        warmupEndS = seconds();
        sample(i);
      } else if (i % o.reportEvery === 0 || last || Date.now() >= nextSampleAt) sample(i);
      while (nextSampleAt <= Date.now()) nextSampleAt += o.sampleEverySec! * 1000;
    }
    snapshot('end');
    await app?.close();
    db.close();
    return {
      samples,
      faults,
      failedScans: failed,
      pruned,
      seconds: Math.round((Date.now() - started) / 1000),
      heapSnapshots,
      warmupEndS: Math.max(0, warmupEndS),
      apiReads,
      apiFailures,
    };
  } finally {
    await stopLab(labDir);
  }
}

/**
 * Least-squares slope of a figure against time, in its unit per hour, over the samples taken at
 * or after `fromS` seconds. RSS wanders with garbage collection and the allocator; a fitted line
 * over the whole run says whether it trends, where two single samples could say anything.
 */
export function slopePerHour(samples: SoakSample[], key: keyof SoakSample, fromS = 0): number {
  const xs = samples.filter((s) => s.atS >= fromS);
  if (xs.length < 2) return Number.NaN;
  const n = xs.length;
  const mx = xs.reduce((a, s) => a + s.atS, 0) / n;
  const my = xs.reduce((a, s) => a + s[key], 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of xs) {
    sxy += (s.atS - mx) * (s[key] - my);
    sxx += (s.atS - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : (sxy / sxx) * 3600;
}

/**
 * Growth of a figure over the second half of the run: the second half's peak against the first
 * half's peak. Peaks, not single samples, because RSS and heap swing with garbage collection
 * (one sample can land just before a collection, the next just after); a leak lifts the peak.
 */
export function secondHalfGrowth(samples: SoakSample[], key: 'rssMb' | 'dbMb' | 'pagesMb' | 'heapMb'): number {
  const half = Math.ceil(samples.length / 2);
  const peak = (xs: SoakSample[]) => Math.max(...xs.map((x) => x[key]));
  const first = peak(samples.slice(0, half));
  return (peak(samples.slice(half)) - first) / first;
}
