/**
 * `squeue --json` (Slurm's openapi/v0.0.38 data_parser, 22.05; later versions keep the fields
 * read here): the jobs, their state, user and hosts. Only what the blast radius needs is read;
 * everything else in the ~4 kB per job is ignored.
 */
import { ParseError } from '../common/parse-error.ts';
import { expandHostlist } from './hostlist.ts';

const FORMAT = 'squeue-json';
/** Names and users longer than this are cut: they are labels on a worklist, not data. */
const MAX_LABEL = 200;

export interface SlurmJob {
  /** `1234`, or `1234_7` for task 7 of array job 1234 (as squeue prints it). */
  id: string;
  name: string;
  user: string;
  /** `RUNNING`, `PENDING`, `COMPLETING`... as Slurm spells it. */
  state: string;
  partition: string;
  /** Host names, expanded (from `job_resources.allocated_nodes`, else the `nodes` hostlist). */
  hosts: string[];
  /** Slurm's node count (`node_count`); for a pending job the requested count. */
  nodeCount: number;
  /** Epoch ms, when the job has started; null otherwise. */
  startedAt: number | null;
}

export interface SqueueResult {
  jobs: SlurmJob[];
  /** e.g. `22.05.8`, from `meta.Slurm.release`. */
  slurmRelease: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_LABEL) : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function jobId(j: Obj): string | null {
  const id = num(j.job_id);
  if (id === null) return null;
  const arrayId = num(j.array_job_id);
  const task = num(j.array_task_id);
  return arrayId && task !== null ? `${arrayId}_${task}` : String(id);
}

function hostsOf(j: Obj, index: number): string[] {
  const res = j.job_resources;
  if (isObj(res) && Array.isArray(res.allocated_nodes)) {
    const names = res.allocated_nodes.map((n) => (isObj(n) ? str(n.nodename) : '')).filter((n) => n);
    if (names.length) return names;
  }
  try {
    return expandHostlist(str(j.nodes));
  } catch (err) {
    const reason = err instanceof ParseError ? err.reason : String(err);
    throw new ParseError({ format: FORMAT, reason: `jobs[${index}].nodes: ${reason}`, text: str(j.nodes) });
  }
}

/**
 * Parses `squeue --json` stdout. Throws a ParseError when it is not JSON, has no `jobs` array,
 * or Slurm reported errors (`errors[]`, e.g. slurmctld not answering).
 */
export function parseSqueueJson(text: string, file?: string): SqueueResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ParseError({
      format: FORMAT,
      file,
      reason: `not JSON (${(err as Error).message})`,
      text: text.slice(0, 80),
    });
  }
  if (!isObj(doc)) throw new ParseError({ format: FORMAT, file, reason: 'top level is not an object' });
  if (Array.isArray(doc.errors) && doc.errors.length > 0) {
    const first = doc.errors[0];
    const what = isObj(first) ? str(first.error) || str(first.description) || JSON.stringify(first) : String(first);
    throw new ParseError({ format: FORMAT, file, reason: `squeue reported ${doc.errors.length} error(s): ${what}` });
  }
  if (!Array.isArray(doc.jobs)) throw new ParseError({ format: FORMAT, file, reason: 'no "jobs" array' });
  const jobs: SlurmJob[] = [];
  doc.jobs.forEach((j, i) => {
    if (!isObj(j)) throw new ParseError({ format: FORMAT, file, reason: `jobs[${i}] is not an object` });
    const id = jobId(j);
    if (id === null) throw new ParseError({ format: FORMAT, file, reason: `jobs[${i}] has no numeric job_id` });
    const start = num(j.start_time);
    const state = str(j.job_state);
    jobs.push({
      id,
      name: str(j.name),
      user: str(j.user_name) || String(num(j.user_id) ?? ''),
      state,
      partition: str(j.partition),
      hosts: hostsOf(j, i),
      nodeCount: num(j.node_count) ?? 0,
      // A pending job carries its expected start (or 0); only a started job has a real one.
      startedAt: start && state !== 'PENDING' ? start * 1000 : null,
    });
  });
  const meta = isObj(doc.meta) && isObj(doc.meta.Slurm) ? doc.meta.Slurm : null;
  return { jobs, slurmRelease: meta ? str(meta.release) || null : null };
}
