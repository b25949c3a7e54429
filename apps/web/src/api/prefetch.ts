/**
 * A GET started before the view that reads it has loaded: the topology page's chunk and its
 * 0.8 MB reply (45k GPUs) then download side by side instead of one after the other (the
 * request started 0.6-1.5 s after the page became interactive). `useApi` takes the reply on
 * its first fetch of that path; an unclaimed one is dropped when it gets old.
 */
import { api } from './client.ts';

const MAX_AGE_MS = 10_000;
let pending: { path: string; at: number; reply: Promise<unknown> } | null = null;

export function prefetch(path: string): void {
  const reply = api.get(path as never) as Promise<unknown>;
  // Not claimed, a failure is only logged by whoever claims it: keep it from being "unhandled".
  reply.catch(() => undefined);
  pending = { path, at: Date.now(), reply };
}

/** The prefetched reply of `path`, once (undefined when none, or too old). */
export function takePrefetched(path: string): Promise<unknown> | undefined {
  const p = pending;
  if (!p || p.path !== path) return undefined;
  pending = null;
  return Date.now() - p.at <= MAX_AGE_MS ? p.reply : undefined;
}
