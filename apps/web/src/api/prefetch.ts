/**
 * A GET started before the view that reads it has loaded: the topology page's chunk and its
 * 0.8 MB reply (45k GPUs) then download side by side instead of one after the other. Opened
 * at /topology, the page's HTML starts it even earlier (public/prefetch.js), before the app's
 * bundle has downloaded; the app adopts that request rather than sending a second one.
 * `useApi` takes the reply on its first fetch of that path (parsed as any reply); the topology
 * view takes the response unread, with the first frame's request prefetch.js started beside it.
 * An unclaimed one is dropped when it gets old.
 */
import { readReply, send } from './client.ts';

const MAX_AGE_MS = 10_000;
/**
 * The request for the topology view's first frame (GET /api/topology/frame) public/prefetch.js
 * started with the reply's, for the leaf order `groupBy`; features/topology/topology-job.ts reads it.
 */
export interface EarlyFrame {
  groupBy: string;
  res: Promise<Response>;
}

/** What public/prefetch.js leaves on `window`: the response of the request it started. */
interface EarlyRequest {
  path: string;
  at: number;
  res: Promise<Response>;
  frame?: EarlyFrame;
}
type WithEarly = { __ibwatchPrefetch?: EarlyRequest };

/** A request started early; `res()` gives its response, made only when a reader asks for it. */
interface Pending {
  path: string;
  at: number;
  res: () => Promise<Response>;
  frame?: EarlyFrame;
}

/** The response is kept unread until claimed: read once, by whoever takes it. */
let pending: Pending | null = null;

/** The request public/prefetch.js started for `path` (once). */
function adoptEarly(path: string): Pending | null {
  const g = globalThis as WithEarly;
  const early = g.__ibwatchPrefetch;
  if (!early || early.path !== path) return null;
  delete g.__ibwatchPrefetch;
  // prefetch.js keeps its own rejections from being "unhandled".
  return { path, at: early.at, res: () => early.res, frame: early.frame };
}

export function prefetch(path: string): void {
  const early = adoptEarly(path);
  if (early) {
    pending = early;
    return;
  }
  const res = send('GET', path);
  // Not claimed, a failure is only reported by whoever claims it: keep it from being "unhandled".
  res.catch(() => undefined);
  pending = { path, at: Date.now(), res: () => res };
}

/**
 * The prefetched response of `path` (`res()`, unread), with what the early worker made of it
 * when there was one; once (undefined when none, or too old).
 */
export function takePrefetchedJob(path: string): Omit<Pending, 'path' | 'at'> | undefined {
  if (!pending || pending.path !== path) pending = adoptEarly(path) ?? pending;
  const p = pending;
  if (!p || p.path !== path) return undefined;
  pending = null;
  return Date.now() - p.at <= MAX_AGE_MS ? { res: p.res, frame: p.frame } : undefined;
}

/** The prefetched reply of `path`, read as client.ts reads any reply, once (undefined when none, or too old). */
export function takePrefetched(path: string): Promise<unknown> | undefined {
  const res = takePrefetchedJob(path)?.res;
  return res && readReply(path, res());
}
