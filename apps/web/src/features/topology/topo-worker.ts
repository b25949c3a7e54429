/**
 * The topology view's worker: the reply's bytes (or the request to send) in, the first frame's
 * layout out (worker-ask.ts, first-frame.ts).
 */
import { handleAsk, type WorkerAsk } from './worker-ask.ts';

export type { WorkerAnswer, WorkerAsk, WorkerReply } from './worker-ask.ts';

const scope = self as unknown as Worker;
scope.onmessage = (e: MessageEvent<WorkerAsk>) => {
  void handleAsk(e.data, (msg, transfer) => scope.postMessage(msg, transfer ?? []), fetch);
};
