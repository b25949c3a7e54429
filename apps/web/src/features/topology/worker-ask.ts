/**
 * What topo-worker.ts does with a message, apart from the worker itself (unit-tested):
 * - `{ bytes, groupBy }` (the app's own job): lay the reply's bytes out;
 * - `{ fetch, groupBy }` (public/prefetch.js, before the app's bundle has run): send the GET
 *   itself, so the bytes reach the worker as they arrive rather than when the page's main thread,
 *   busy evaluating the bundle, gets to them (0.4-0.5 s later at 45k GPUs under load). It sends
 *   the page the reply as it came (status, headers, a copy of the bytes) for the app to read as
 *   any reply, then lays a 2xx one out.
 * Each ask is answered `{ ok: true, frame }`, or `{ ok: false }` when it cannot be laid out: the
 * page then parses the reply itself and fails (or not) exactly as it did without a worker.
 */
import { firstFrame, transferables, type FirstFrame } from './first-frame.ts';

export type WorkerAsk =
  | { bytes: ArrayBuffer; groupBy: FirstFrame['groupBy'] }
  | { fetch: { path: string; headers: Record<string, string> }; groupBy: FirstFrame['groupBy'] };
export type WorkerAnswer = { ok: true; frame: FirstFrame } | { ok: false; message: string };
/** The reply of a `fetch` ask, sent before the answer; `failed` when the request itself failed. */
export type WorkerReply =
  | { reply: { status: number; statusText: string; headers: [string, string][]; bytes: ArrayBuffer; at: number } }
  | { failed: string };

type Post = (msg: WorkerAnswer | WorkerReply | null, transfer?: ArrayBuffer[]) => void;

function layOut(bytes: ArrayBuffer, groupBy: FirstFrame['groupBy'], post: Post): void {
  let answer: WorkerAnswer;
  try {
    answer = { ok: true, frame: firstFrame(bytes, groupBy) };
  } catch (err) {
    post({ ok: false, message: err instanceof Error ? err.message : String(err) });
    return;
  }
  post(answer, transferables(answer.frame));
}

/** Answers one ask through `post`; a `fetch` ask whose reply is not a 2xx with a body ends with null. */
export async function handleAsk(ask: WorkerAsk, post: Post, fetchFn: typeof fetch): Promise<void> {
  if ('bytes' in ask) return layOut(ask.bytes, ask.groupBy, post);
  let res: Response;
  let bytes: ArrayBuffer;
  let at: number;
  try {
    res = await fetchFn(ask.fetch.path, { method: 'GET', headers: ask.fetch.headers });
    bytes = await res.arrayBuffer();
    // The page's clock has another origin: this time as an absolute one.
    at = performance.timeOrigin + performance.now();
  } catch (err) {
    post({ failed: err instanceof Error ? err.message : String(err) });
    return;
  }
  const copy = bytes.slice(0);
  const headers = [...res.headers];
  post({ reply: { status: res.status, statusText: res.statusText, headers, bytes: copy, at } }, [copy]);
  if (!res.ok || bytes.byteLength === 0) return post(null);
  layOut(bytes, ask.groupBy, post);
}
