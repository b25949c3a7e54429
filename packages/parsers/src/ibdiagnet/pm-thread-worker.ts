/**
 * The worker side of pm-thread.ts: reads a db_csv with `pm: 'only'` (the PM_INFO / PM_DELTA
 * rows, every other section only counted) and posts back the two tables, their warnings and
 * what the main thread checks the join with. The tables' arrays are transferred, not copied.
 * Jobs run one after another, in the order they came.
 */
import { parentPort } from 'node:worker_threads';
import { ParseError } from '../parse-error.ts';
import { DbCsvParser } from './db-csv.ts';
import { postedTable } from './pm-thread.ts';
import type { PmJob, PmReply, PostedTable } from './pm-thread.ts';
import { parseFile } from './read-file.ts';

function buffersOf(...tables: PostedTable[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const t of tables) {
    out.add(t.runs.buffer as ArrayBuffer);
    out.add(t.portNums.buffer as ArrayBuffer);
    for (const c of t.columns) {
      out.add(c.hi.buffer as ArrayBuffer);
      out.add(c.lo.buffer as ArrayBuffer);
    }
  }
  return [...out];
}

async function run(job: PmJob): Promise<void> {
  const parser = new DbCsvParser({ file: job.file, pm: 'only' });
  let reply: PmReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const { value, warnings } = await parseFile(job.path, parser);
    const { pmInfo, pmDelta, runTimestamp, sections } = value;
    reply = { id: job.id, part: { pmInfo: postedTable(pmInfo), pmDelta: postedTable(pmDelta), runTimestamp, sections, warnings, warnedAt: parser.warnedAt } };
    transfer = buffersOf(reply.part.pmInfo, reply.part.pmDelta);
  } catch (err) {
    reply = err instanceof ParseError
      ? { id: job.id, parseError: { format: err.format, reason: err.reason, file: err.file, line: err.line, text: err.text }, foundAt: parser.lineNo }
      : { id: job.id, failure: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply, transfer);
}

let queue = Promise.resolve();
parentPort!.on('message', (job: PmJob) => {
  queue = queue.then(() => run(job));
});
parentPort!.postMessage({ ready: true } satisfies PmReply);
