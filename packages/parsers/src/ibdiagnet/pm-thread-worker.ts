/**
 * The worker side of pm-thread.ts: reads a db_csv's PM rows (`readPmPart`) and posts back the
 * two tables, their warnings and what the main thread checks the join with. The tables' arrays
 * are transferred, not copied. Jobs run one after another, in the order they came.
 */
import { parentPort } from 'node:worker_threads';
import { readPmPart } from './pm-thread.ts';
import type { PmJob, PmReply, PostedTable } from './pm-thread.ts';

function buffersOf(...tables: PostedTable[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const t of tables) {
    out.add(t.runs.buffer as ArrayBuffer);
    out.add(t.portNums.buffer as ArrayBuffer);
    for (const c of t.columns) {
      out.add(c.hi.buffer as ArrayBuffer);
      out.add(c.lo.buffer as ArrayBuffer);
      if (c.absent) out.add(c.absent.buffer as ArrayBuffer);
    }
  }
  return [...out];
}

async function run(job: PmJob): Promise<void> {
  let reply: PmReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const r = await readPmPart(job.path);
    if ('part' in r) {
      reply = { id: job.id, part: r.part };
      transfer = buffersOf(r.part.pmInfo, r.part.pmDelta);
    } else {
      const e = r.error;
      reply = {
        id: job.id,
        parseError: { format: e.format, reason: e.reason, file: e.file, line: e.line, text: e.text },
        foundAt: r.foundAt,
      };
    }
  } catch (err) {
    reply = { id: job.id, failure: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply, transfer);
}

let queue = Promise.resolve();
parentPort!.on('message', (job: PmJob) => {
  queue = queue.then(() => run(job));
});
parentPort!.postMessage({ ready: true } satisfies PmReply);
