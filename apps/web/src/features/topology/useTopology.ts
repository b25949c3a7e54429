/**
 * GET /api/topology for the topology view, in two steps when a worker can help:
 * 1. the reply's bytes go to topo-worker.ts, which parses, indexes and lays them out; the page
 *    draws the canvas from that (`first`) while its main thread stays free;
 * 2. after that frame the page parses its own copy of the bytes (`reply`): the search, the
 *    selection, the host highlight and the details panel need the whole reply.
 * A URL that selects, highlights or searches something needs the reply for its first frame: it
 * skips step 1, as does a browser without module workers or a reply the worker cannot lay out.
 * The request and the worker are one job (topology-job.ts), which the lazy route starts early.
 * Errors are those of any API read (client.ts readReply), from the same single request.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TopologyReply } from '@ibwatch/fabric';
import { ApiError, readReply } from '../../api/client.ts';
import { unpackLayout, type FirstFrame } from './first-frame.ts';
import type { TopoLayout } from './layout.ts';
import { startJob, takeEarlyJob, TOPOLOGY_PATH, type JobOptions } from './topology-job.ts';

export interface FirstLayout extends Omit<FirstFrame, 'layout'> {
  layout: TopoLayout;
  bind: ReturnType<typeof unpackLayout>['bind'];
}

export interface TopologyData {
  /** The parsed reply; null until the page has parsed it (after `first` was drawn). */
  reply: TopologyReply | null;
  /** The worker's aggregated layout, or null when it was not used. */
  first: FirstLayout | null;
  /** performance.now() when the reply's bytes arrived. */
  t0: number;
}

export interface TopologyState {
  data: TopologyData | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
  /** The canvas calls this after its first frame: the page's own parse waits for it. */
  drawn: () => void;
}

/** After the frame being drawn has been presented: one animation frame, then a task. */
const afterFrame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

export function useTopology(opts: JobOptions): TopologyState {
  const [state, setState] = useState<Omit<TopologyState, 'reload' | 'drawn'>>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const drawnRef = useRef<() => void>(() => undefined);
  const first = useRef(opts);

  useEffect(() => {
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    // A job the lazy route started is not aborted with the effect: its reply may come after it.
    const job = (tick === 0 ? takeEarlyJob(first.current) : null) ?? startJob(first.current, ctl.signal);
    (async () => {
      const { sent, res, bytes, t0, answer } = await job;
      // Not a JSON reply to lay out: read it as any reply, for the same error.
      if (!res || !bytes) return { reply: await readReply<TopologyReply>(TOPOLOGY_PATH, sent), first: null, t0 };
      const init = { status: res.status, headers: res.headers };
      const parse = () => readReply<TopologyReply>(TOPOLOGY_PATH, Promise.resolve(new Response(bytes, init)));
      // No worker, or a reply it could not lay out: the page parses it and fails (or not) as before.
      if (!answer?.ok) return { reply: await parse(), first: null, t0 };
      if (ctl.signal.aborted) return null;
      const { layout, ...rest } = answer.frame;
      const laid: FirstLayout = { ...rest, ...unpackLayout(layout) };
      const drawn = new Promise<void>((r) => (drawnRef.current = r));
      setState({ data: { reply: null, first: laid, t0 }, error: undefined, loading: true });
      // An empty fabric draws no canvas; a frame that never comes must not keep the reply back.
      if (laid.nodeCount > 0) await Promise.race([drawn, new Promise((r) => setTimeout(r, 2000))]);
      await afterFrame();
      return { reply: await parse(), first: laid, t0 };
    })()
      .then((data) => {
        if (ctl.signal.aborted || !data) return;
        setState({ data, error: undefined, loading: false });
      })
      .catch((e: unknown) => {
        if (ctl.signal.aborted) return;
        const err = e instanceof ApiError ? e : new ApiError(0, e instanceof Error ? e.message : String(e));
        setState((s) => ({ ...s, error: err, loading: false }));
      });
    return () => ctl.abort();
  }, [tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const drawn = useCallback(() => drawnRef.current(), []);
  return { ...state, reload, drawn };
}
