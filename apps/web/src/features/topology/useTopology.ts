/**
 * The topology view's data, in two steps when the collector lays out the first frame:
 * 1. GET /api/topology/frame, the boxes and edges as layoutTopology would make them: the page
 *    draws the canvas from it (`first`) without having read the whole reply;
 * 2. after that frame the page reads GET /api/topology (`reply`): the search, the selection,
 *    the host highlight and the details panel need it.
 * A URL that selects, highlights or searches needs the reply for its first frame: it skips
 * step 1, as does a frame that cannot be had (a collector without the route). Both requests are
 * one job (topology-job.ts), which the lazy route starts early. Errors are those of any API read
 * (client.ts readReply), from the reply's request.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TopologyFrameReply, TopologyReply } from '@ibwatch/fabric';
import { unpackFrame, type TopoLayout } from '@ibwatch/fabric/topology-view';
import { ApiError, readReply } from '../../api/client.ts';
import { startJob, takeEarlyJob, TOPOLOGY_PATH, type JobOptions } from './topology-job.ts';

export interface FirstLayout extends Pick<TopologyFrameReply, 'groupBy' | 'nodeCount' | 'linkCount' | 'generatedAt'> {
  layout: TopoLayout;
  bind: ReturnType<typeof unpackFrame>['bind'];
}

export interface TopologyData {
  /** The parsed reply; null until the page has read it (after `first` was drawn). */
  reply: TopologyReply | null;
  /** The collector's first frame, or null when it was not used. */
  first: FirstLayout | null;
  /** performance.now() when what the first frame is drawn from was in. */
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
      const got = await job.frame;
      if (ctl.signal.aborted) return null;
      // A frame of a format this page does not read is no frame: the reply is drawn instead.
      if (!got || got.reply.format !== 1) {
        // The first render counts from when the reply was in: its parse and layout are in it.
        const t0 = await job.sent.then(
          () => performance.now(),
          () => performance.now(),
        );
        return { reply: await readReply<TopologyReply>(TOPOLOGY_PATH, job.sent), first: null, t0 };
      }
      const { groupBy, nodeCount, linkCount, generatedAt } = got.reply;
      const laid: FirstLayout = { groupBy, nodeCount, linkCount, generatedAt, ...unpackFrame(got.reply) };
      const drawn = new Promise<void>((r) => (drawnRef.current = r));
      setState({ data: { reply: null, first: laid, t0: got.t0 }, error: undefined, loading: true });
      // An empty fabric draws no canvas; a frame that never comes must not keep the reply back.
      if (laid.nodeCount > 0) await Promise.race([drawn, new Promise((r) => setTimeout(r, 2000))]);
      await afterFrame();
      return { reply: await readReply<TopologyReply>(TOPOLOGY_PATH, job.sent), first: laid, t0: got.t0 };
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
