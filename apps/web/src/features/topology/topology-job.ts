/**
 * The topology view's request and its worker (topo-worker.ts), as one job the lazy route starts
 * while the view's chunk downloads: the worker loads and compiles meanwhile, and gets the reply's
 * bytes as soon as they are in, not when the view has rendered. The view (useTopology.ts) takes
 * the job, or starts one of its own (a reload, a job too old or for other options). Kept small,
 * with no layout code: the app's main chunk imports it.
 */
import { send } from '../../api/client.ts';
import { takePrefetchedJob, type EarlyFrame } from '../../api/prefetch.ts';
import type { Query } from '../../router.ts';
import type { WorkerAnswer, WorkerAsk } from './topo-worker.ts';

export const TOPOLOGY_PATH = '/api/topology';
const MAX_AGE_MS = 10_000;

export interface JobOptions {
  /** False when the URL selects, highlights or searches: that first frame needs the whole reply. */
  useWorker: boolean;
  groupBy: WorkerAsk['groupBy'];
}

export function jobOptions(query: Query): JobOptions {
  return {
    useWorker: !(query.sel || query.host || query.q),
    groupBy: query.group === 'name' ? 'name' : 'rail',
  };
}

export interface JobResult {
  /** The request, for reading a reply that is not one to lay out as any reply is read. */
  sent: Promise<Response>;
  /** Its response (null when it failed); the body is read when `bytes` is set. */
  res: Response | null;
  /** The body of a 2xx reply (the page parses it), else null. */
  bytes: ArrayBuffer | null;
  /** performance.now() when the bytes were in. */
  t0: number;
  /** The worker's answer; null when no worker was used. */
  answer: WorkerAnswer | null;
}

function startWorker(): Worker | null {
  try {
    return new Worker(new URL('./topo-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

function ask(worker: Worker, bytes: ArrayBuffer, groupBy: JobOptions['groupBy']): Promise<WorkerAnswer> {
  return new Promise((done) => {
    const end = (a: WorkerAnswer) => {
      worker.terminate();
      done(a);
    };
    worker.onmessage = (e: MessageEvent<WorkerAnswer>) => end(e.data);
    worker.onerror = (e) => end({ ok: false, message: e.message });
    const msg: WorkerAsk = { bytes, groupBy };
    worker.postMessage(msg, [bytes]);
  });
}

/** The worker public/prefetch.js started, if it was for these options (it sends the same asks). */
function earlyFor(o: JobOptions, frame: EarlyFrame | undefined): EarlyFrame | null {
  return frame && o.useWorker && frame.groupBy === o.groupBy ? frame : null;
}

/**
 * Sends GET /api/topology (or takes the prefetched one) and has the worker lay out its reply:
 * the worker public/prefetch.js started, when it did for these options, else one of its own.
 */
export function startJob(o: JobOptions, signal?: AbortSignal): Promise<JobResult> {
  const pre = takePrefetchedJob(TOPOLOGY_PATH);
  const early = earlyFor(o, pre?.frame);
  const worker = !early && o.useWorker && typeof Worker !== 'undefined' ? startWorker() : null;
  return (async () => {
    // The bytes prefetch.js read, whatever options its worker had: not a second copy to read.
    const got = pre?.frame ? await pre.frame.read.catch(() => null) : null;
    const sent = got ? Promise.resolve(got.r) : (pre?.res() ?? send('GET', TOPOLOGY_PATH, undefined, signal));
    const res = got ? got.r : await sent.catch(() => null);
    const bytes = got ? got.bytes : res?.ok ? await res.arrayBuffer().catch(() => null) : null;
    let t0 = got ? got.t0 : performance.now();
    if (early && bytes && bytes.byteLength > 0) {
      const done = await early.done;
      // t0 stays when the bytes were in: firstRenderMs counts the worker's parse and layout.
      if (done) t0 = Math.min(t0, done.t0);
      return { sent, res, bytes, t0, answer: (done?.answer as WorkerAnswer | null) ?? null };
    }
    if (!worker || !bytes || bytes.byteLength === 0 || signal?.aborted) {
      worker?.terminate();
      return { sent, res, bytes, t0, answer: null };
    }
    // A copy: the page keeps its bytes to parse them after the first frame.
    return { sent, res, bytes, t0, answer: await ask(worker, bytes.slice(0), o.groupBy) };
  })();
}

let early: { o: JobOptions; at: number; job: Promise<JobResult> } | null = null;

/** The lazy route's job, for the view to take. */
export function startEarlyJob(o: JobOptions): void {
  const job = startJob(o);
  job.catch(() => undefined);
  early = { o, at: Date.now(), job };
}

/** The early job if it was started for these options and is fresh, once. */
export function takeEarlyJob(o: JobOptions): Promise<JobResult> | null {
  const e = early;
  early = null;
  if (!e || e.o.useWorker !== o.useWorker || e.o.groupBy !== o.groupBy) return null;
  return Date.now() - e.at <= MAX_AGE_MS ? e.job : null;
}
