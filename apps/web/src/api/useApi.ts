import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReplyOf } from '@ibwatch/fabric';
import { api, ApiError } from './client.ts';
import { takePrefetched } from './prefetch.ts';

export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** When the last successful fetch finished (epoch ms). */
  updatedAt: number | undefined;
  reload: () => void;
}

/**
 * How long a polled request may go unanswered before it counts as failed: a collector that
 * hangs (stopped, or its event loop blocked) never fails the request, and the next poll would
 * only abort it, so without a deadline a wall screen would stay green over a dead collector.
 */
export function pollDeadlineMs(refreshMs: number): number {
  return Math.min(Math.round(refreshMs * 0.9), 30_000);
}

/**
 * GET `path` (null = skip) and keep the last good data while refetching, so an auto-refreshing
 * wall screen never blanks. `refreshMs` polls; a failed poll keeps old data and sets `error`,
 * and so does a poll with no answer within {@link pollDeadlineMs}.
 */
export function useApi<P extends string, T = ReplyOf<'GET', P>>(
  path: P | null,
  opts: { refreshMs?: number } = {},
): ApiState<T> {
  const [state, setState] = useState<Omit<ApiState<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: path !== null,
    updatedAt: undefined,
  });
  const [tick, setTick] = useState(0);
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    if (path === null) return;
    const ctl = new AbortController();
    const samePath = lastPath.current === path;
    lastPath.current = path;
    setState((s) => ({
      ...s,
      loading: true,
      data: samePath ? s.data : undefined,
      error: samePath ? s.error : undefined,
    }));
    const waitMs = opts.refreshMs ? pollDeadlineMs(opts.refreshMs) : undefined;
    const deadline =
      waitMs === undefined
        ? undefined
        : window.setTimeout(() => {
            ctl.abort();
            const error = new ApiError(0, `no answer from the collector within ${Math.round(waitMs / 1000)} s`);
            setState((s) => ({ ...s, error, loading: false }));
          }, waitMs);
    (takePrefetched(path) ?? api.get(path, ctl.signal))
      .then((data) => {
        window.clearTimeout(deadline);
        // A prefetched request is not aborted with the effect: its reply may come after it.
        if (ctl.signal.aborted) return;
        setState({ data: data as T, error: undefined, loading: false, updatedAt: Date.now() });
      })
      .catch((e: unknown) => {
        window.clearTimeout(deadline);
        if (ctl.signal.aborted) return;
        const err = e instanceof ApiError ? e : new ApiError(0, e instanceof Error ? e.message : String(e));
        setState((s) => ({ ...s, error: err, loading: false }));
      });
    return () => {
      window.clearTimeout(deadline);
      ctl.abort();
    };
    // opts.refreshMs is read when a request starts; a change takes effect at the next one.
  }, [path, tick]);

  useEffect(() => {
    if (!opts.refreshMs || path === null) return;
    const id = window.setInterval(() => {
      if (document.visibilityState !== 'hidden') setTick((t) => t + 1);
    }, opts.refreshMs);
    return () => window.clearInterval(id);
  }, [opts.refreshMs, path]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
