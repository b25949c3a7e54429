/**
 * The topology view's worker: the reply's bytes in, the first frame's layout out (first-frame.ts).
 * A reply it cannot lay out is answered with `{ ok: false }`: the page then parses it itself and
 * fails (or not) exactly as it did without a worker.
 */
import { firstFrame, transferables, type FirstFrame } from './first-frame.ts';

export interface WorkerAsk {
  bytes: ArrayBuffer;
  groupBy: FirstFrame['groupBy'];
}
export type WorkerAnswer = { ok: true; frame: FirstFrame } | { ok: false; message: string };

const scope = self as unknown as Worker;
scope.onmessage = (e: MessageEvent<WorkerAsk>) => {
  let answer: WorkerAnswer;
  try {
    answer = { ok: true, frame: firstFrame(e.data.bytes, e.data.groupBy) };
  } catch (err) {
    scope.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
    return;
  }
  scope.postMessage(answer, transferables(answer.frame));
};
