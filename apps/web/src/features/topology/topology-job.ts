/**
 * The topology view's two requests, as one job the lazy route starts while the view's chunk
 * downloads: GET /api/topology/frame, the first frame as the collector lays it out (a few
 * hundred kB at 45k GPUs), and GET /api/topology, the whole reply (~8 MB of columns) the search,
 * the selection and the details panel need. The view (useTopology.ts) draws the frame as soon as
 * it is in and reads the reply after. It takes the job, or starts one of its own (a reload, a
 * job too old or for other options). Kept small, with no layout code: the main chunk imports it.
 */
import type { TopologyFrameReply } from '@ibwatch/fabric';
import { readReply, send } from '../../api/client.ts';
import { takePrefetchedJob } from '../../api/prefetch.ts';
import type { Query } from '../../router.ts';

export const TOPOLOGY_PATH = '/api/topology';
const MAX_AGE_MS = 10_000;

export interface JobOptions {
  /** False when the URL selects, highlights or searches: that first frame needs the whole reply. */
  useFrame: boolean;
  groupBy: TopologyFrameReply['groupBy'];
}

export function jobOptions(query: Query): JobOptions {
  return {
    useFrame: !(query.sel || query.host || query.q),
    groupBy: query.group === 'name' ? 'name' : 'rail',
  };
}

const framePath = (groupBy: JobOptions['groupBy']) => `${TOPOLOGY_PATH}/frame?group=${groupBy}`;

export interface FrameResult {
  reply: TopologyFrameReply;
  /** performance.now() when its response was in: the canvas's first render counts from there. */
  t0: number;
}

export interface JobResult {
  /**
   * The first frame, or null: not asked for, or not to be had (an error, or a collector without
   * the route): the view then draws from the reply, which reports any error of its own.
   */
  frame: Promise<FrameResult | null>;
  /** GET /api/topology. */
  sent: Promise<Response>;
}

/** Sends both requests, or takes those public/prefetch.js or the lazy route started. */
export function startJob(o: JobOptions, signal?: AbortSignal): JobResult {
  const pre = takePrefetchedJob(TOPOLOGY_PATH);
  const sent = pre?.res() ?? send('GET', TOPOLOGY_PATH, undefined, signal);
  sent.catch(() => undefined);
  if (!o.useFrame) return { frame: Promise.resolve(null), sent };
  const early = pre?.frame?.groupBy === o.groupBy ? pre.frame.res : null;
  const path = framePath(o.groupBy);
  const res = early ?? send('GET', path, undefined, signal);
  const frame = (async () => {
    const r = await res;
    const t0 = performance.now();
    return { reply: await readReply<TopologyFrameReply>(path, Promise.resolve(r)), t0 };
  })().catch(() => null);
  return { frame, sent };
}

let early: { o: JobOptions; at: number; job: JobResult } | null = null;

/** The lazy route's job, for the view to take. */
export function startEarlyJob(o: JobOptions): void {
  early = { o, at: Date.now(), job: startJob(o) };
}

/** The early job if it was started for these options and is fresh, once. */
export function takeEarlyJob(o: JobOptions): JobResult | null {
  const e = early;
  early = null;
  if (!e || e.o.useFrame !== o.useFrame || e.o.groupBy !== o.groupBy) return null;
  return Date.now() - e.at <= MAX_AGE_MS ? e.job : null;
}
