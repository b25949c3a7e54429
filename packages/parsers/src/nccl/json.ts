/**
 * Parser for the nccl-tests `-J <file>` JSON report (since 2025-10, JSON_FILE_VERSION 2).
 *
 * Shape, as written by nccl-tests `src/util.cu` (keys in this order, all on one line):
 * ```
 * { "version": 2, "start_time": "...", "args": [...], "env": ["K=V", ...], "nccl_version": 22703,
 *   "config": { "nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "step_factor" | "step_bytes",
 *               "warmup_iters", "iterations", "aggregated_iterations", "validation", "graph",
 *               "blocking_collectives": "false", ..., "devices": [ { "rank", "group", "pid",
 *               "hostname", "device", "device_hex", "device_info" } ] },
 *   "results": [ { "size", "count", "type", "redop", "root": "    -1",
 *                  "out_of_place": { "time" | "cpu_time", "alg_bw", "bus_bw", "nwrong": 0.0 | null } | null,
 *                  "in_place": {...}, "actual_iterations", "experiment_name" } ],
 *   "out_of_bounds": { "count", "okay": "true" }, "average_bus_bandwidth": { "bandwidth", "okay": "unchecked" },
 *   "errors": [], "end_time": "..." }
 * ```
 * Tolerances (assumptions, not seen in a real file): booleans are the strings `"true"`/`"false"`
 * (the writer quotes them) or real booleans; NaN is written as the string `"nan"`; `devices` is
 * accepted inside `config` (where the writer puts it) or at the top level; numbers given as
 * strings are accepted. A report cut short (killed job) is repaired by closing it after its
 * last complete element; the run is then `truncated`. With several tables in one run the writer
 * repeats the `results` key and only the last one survives `JSON.parse`.
 */
import type { ParseResult, ParseWarning } from '@ibwatch/fabric';
import { ParseError } from '../common/parse-error.ts';
import { finishRun } from './finish.ts';
import { ncclVersionFromCode } from './header.ts';
import { screenRows } from './screen.ts';
import type {
  NcclDevice,
  NcclGdr,
  NcclParseOptions,
  NcclPlacementResult,
  NcclRow,
  NcclRun,
  NcclTestParams,
} from './types.ts';

/** Format name used in errors and warnings of the JSON parser. */
export const NCCL_TESTS_JSON_FORMAT = 'nccl-tests-json';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: Json | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isNaN(n) ? (v.trim() === 'nan' ? Number.NaN : undefined) : n;
  }
  return undefined;
}

function bool(v: Json | undefined): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Close a JSON text that was cut short after its last complete element. Returns the parsed
 * value and the offset where the kept text ends, or `undefined` when nothing can be saved.
 */
export function repairTruncatedJson(text: string): { value: unknown; keptChars: number } | undefined {
  const stack: string[] = [];
  const cuts: { pos: number; closers: string }[] = [];
  const closersOf = (): string =>
    stack
      .map((c) => (c === '{' ? '}' : ']'))
      .reverse()
      .join('');
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') stack.push(ch);
    else if (ch === '}' || ch === ']') {
      stack.pop();
      if (stack.length > 0) cuts.push({ pos: i + 1, closers: closersOf() });
    } else if (ch === ',' && stack.length > 0) cuts.push({ pos: i, closers: closersOf() });
    if (cuts.length > 4000) cuts.splice(0, 2000);
  }
  for (let k = cuts.length - 1, tries = 0; k >= 0 && tries < 200; k--, tries++) {
    try {
      return { value: JSON.parse(text.slice(0, cuts[k].pos) + cuts[k].closers), keptChars: cuts[k].pos };
    } catch {
      // try an earlier cut point
    }
  }
  return undefined;
}

function placement(v: Json | undefined): NcclPlacementResult | null | 'bad' {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) return 'bad';
  const time = num(v.time ?? v.cpu_time);
  const alg = num(v.alg_bw);
  const bus = num(v.bus_bw);
  if (time === undefined || alg === undefined || bus === undefined) return 'bad';
  const p: NcclPlacementResult = { timeUs: time, algbwGBs: alg, busbwGBs: bus, wrong: num(v.nwrong) ?? null };
  return p;
}

function perIter(p: NcclPlacementResult | null, v: Json | undefined): void {
  if (!p || !isObj(v)) return;
  const [minUs, maxUs, p99Us, cvPct] = [num(v.min_us), num(v.max_us), num(v.p99_us), num(v.cv_pct)];
  if (minUs !== undefined && maxUs !== undefined && p99Us !== undefined && cvPct !== undefined) {
    p.perIteration = { minUs, maxUs, p99Us, cvPct };
  }
}

/**
 * Parse an nccl-tests `-J` JSON report.
 *
 * @throws {ParseError} (format `nccl-tests-json`) when the text is not JSON and cannot be
 *   repaired, or holds no complete result.
 */
export function parseNcclTestsJson(text: string, options: NcclParseOptions = {}): ParseResult<NcclRun> {
  const { file } = options;
  const warnings: ParseWarning[] = [];
  const warn = (line: number | undefined, message: string): void => {
    const w: ParseWarning = { message };
    if (line !== undefined) w.line = line;
    if (file !== undefined) w.file = file;
    warnings.push(w);
  };
  const fail = (reason: string, pos: number): never => {
    const line = lineOf(text, pos);
    const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
    throw new ParseError({
      format: NCCL_TESTS_JSON_FORMAT,
      reason,
      file,
      line,
      text: text.slice(Math.max(lineStart, pos - 40), pos + 20),
    });
  };

  let doc: unknown;
  let truncated = false;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const repaired = text.trimStart().startsWith('{') ? repairTruncatedJson(text) : undefined;
    const m = /position (\d+)/.exec(String(e));
    const pos = m ? Number(m[1]) : text.length;
    if (!repaired) fail(`not valid JSON (${(e as Error).message})`, pos);
    doc = repaired!.value;
    truncated = true;
    warn(
      lineOf(text, repaired!.keptChars),
      `JSON report cut short at offset ${pos}; kept the first ${repaired!.keptChars} characters`,
    );
  }
  if (!isObj(doc)) fail('JSON report is not an object', 0);
  const root = doc as Obj;
  const config = isObj(root.config) ? root.config : {};
  const resultsJson = Array.isArray(root.results) ? root.results : undefined;
  if (!resultsJson || resultsJson.length === 0) fail('JSON report has no results', text.length);

  const params: NcclTestParams = {};
  const setNum = (key: keyof NcclTestParams, v: Json | undefined): void => {
    const n = num(v);
    if (n !== undefined) (params as Record<string, unknown>)[key] = n;
  };
  setNum('nThread', config.nthreads);
  setNum('nGpus', config.ngpus);
  setNum('minBytes', config.minimum_bytes);
  setNum('maxBytes', config.maximum_bytes);
  setNum('warmupIters', config.warmup_iters);
  setNum('iters', config.iterations);
  setNum('aggIters', config.aggregated_iterations);
  setNum('validation', config.validation);
  setNum('graph', config.graph);
  const stepFactor = num(config.step_factor);
  const stepBytes = num(config.step_bytes);
  if (stepFactor !== undefined) params.step = { value: stepFactor, unit: 'factor' };
  else if (stepBytes !== undefined) params.step = { value: stepBytes, unit: 'bytes' };
  const flags: [keyof NcclTestParams, Json | undefined][] = [
    ['blocking', config.blocking_collectives],
    ['parallelInit', config.parallel_init],
    ['perIterationReport', config.per_iter_timing],
  ];
  for (const [key, v] of flags) {
    const b = bool(v);
    if (b !== undefined) (params as Record<string, unknown>)[key] = b;
  }

  const devicesJson = Array.isArray(config.devices) ? config.devices : Array.isArray(root.devices) ? root.devices : [];
  const devices: NcclDevice[] = [];
  for (const d of devicesJson) {
    if (!isObj(d)) continue;
    const rank = num(d.rank);
    if (rank === undefined || typeof d.hostname !== 'string') continue;
    const dev: NcclDevice = {
      rank,
      host: d.hostname,
      cudaDevice: num(d.device) ?? -1,
      busId: typeof d.device_hex === 'string' ? d.device_hex : '',
      gpu: typeof d.device_info === 'string' ? d.device_info.trim() : '',
    };
    const group = num(d.group);
    const pid = num(d.pid);
    if (group !== undefined) dev.group = group;
    if (pid !== undefined) dev.pid = pid;
    devices.push(dev);
  }
  devices.sort((a, b) => a.rank - b.rank);

  const rows: NcclRow[] = [];
  const rowWhere: string[] = [];
  let cpuTime = false;
  resultsJson!.forEach((r, i) => {
    const size = isObj(r) ? num(r.size) : undefined;
    const count = isObj(r) ? num(r.count) : undefined;
    const oop = isObj(r) ? placement(r.out_of_place) : 'bad';
    const ip = isObj(r) ? placement(r.in_place) : 'bad';
    // The writer emits `in_place` after `out_of_place`; a result without it was cut short.
    const complete = isObj(r) && 'in_place' in r;
    if (!complete || size === undefined || count === undefined || oop === 'bad' || ip === 'bad' || (!oop && !ip)) {
      warn(undefined, `results[${i}] is incomplete; skipped`);
      return;
    }
    if (!isObj(r)) return;
    if (isObj(r.out_of_place) && 'cpu_time' in r.out_of_place) cpuTime = true;
    perIter(oop, r.out_of_place_per_iter);
    perIter(ip, r.in_place_per_iter);
    const row: NcclRow = {
      sizeBytes: size,
      count,
      type: typeof r.type === 'string' ? r.type : '',
      outOfPlace: oop,
      inPlace: ip,
    };
    if (typeof r.redop === 'string' && r.redop.trim() !== '' && r.redop.trim() !== 'none') row.redop = r.redop.trim();
    const rootRank = num(r.root);
    if (rootRank !== undefined && rootRank !== -1) row.root = rootRank;
    rows.push(row);
    rowWhere.push(`results[${i}]`);
  });
  if (rows.length === 0) fail('JSON report has no complete result', text.length);
  const screened = screenRows(rows, warn, options.maxBusBwGBs, rowWhere);
  if (screened.rows.length === 0) {
    const first = screened.refused[0]!;
    fail(`no plausible result rows; ${rowWhere[rows.indexOf(first.row)]}: ${first.reason}`, text.indexOf('"results"'));
  }

  const oob = isObj(root.out_of_bounds) ? root.out_of_bounds : undefined;
  const avgObj = isObj(root.average_bus_bandwidth) ? root.average_bus_bandwidth : undefined;
  const avgValue = avgObj ? num(avgObj.bandwidth) : undefined;
  if (avgValue === undefined && !truncated) {
    truncated = true;
    warn(undefined, 'JSON report has no average_bus_bandwidth; treating as truncated');
  }
  const args = Array.isArray(root.args) ? root.args : [];
  const ncclCode = num(root.nccl_version);
  const run = finishRun(
    {
      params,
      devices,
      rows: screened.rows,
      columns: [
        'size',
        'count',
        'type',
        'redop',
        'root',
        'time',
        'algbw',
        'busbw',
        'wrong',
        'time',
        'algbw',
        'busbw',
        'wrong',
      ],
      timeColumn: cpuTime ? 'cputime' : 'time',
      truncated,
      gdr: gdrFromEnv(root.env),
      ncclVersion: ncclCode !== undefined ? ncclVersionFromCode(ncclCode) : undefined,
      avg:
        avgValue === undefined
          ? undefined
          : avgObj!.okay === 'true' || avgObj!.okay === true
            ? { value: avgValue, check: 'OK' }
            : avgObj!.okay === 'false' || avgObj!.okay === false
              ? { value: avgValue, check: 'FAILED' }
              : { value: avgValue },
      outOfBounds:
        oob && num(oob.count) !== undefined
          ? { count: num(oob.count)!, ok: bool(oob.okay) ?? num(oob.count) === 0 }
          : undefined,
      named: typeof args[0] === 'string' ? { binary: args[0].split('/').pop()!, source: 'json-args' } : undefined,
    },
    options,
    warn,
  );
  return { value: run, warnings };
}

/**
 * The JSON report carries no NCCL_DEBUG lines; its `env` can still rule GDR out:
 * `NCCL_IB_DISABLE=1` (no RDMA network) or `NCCL_NET_GDR_LEVEL=LOC` / `0` (GDR never used).
 */
function gdrFromEnv(env: Json | undefined): NcclGdr {
  const counts = {
    netChannelsGdr: 0,
    netChannelsNoGdr: 0,
    gpuPathsEnabled: 0,
    gpuPathsDisabled: 0,
    hcaEnabled: 0,
    hcaDisabled: 0,
  };
  const list = Array.isArray(env) ? env.filter((e): e is string => typeof e === 'string') : [];
  const off = list.filter((e) => /^NCCL_IB_DISABLE=1$/.test(e) || /^NCCL_NET_GDR_LEVEL=(LOC|0)$/.test(e));
  if (off.length > 0) {
    return { status: 'disabled', basis: 'env', evidence: off.map((text) => ({ line: 1, text })), counts };
  }
  return { status: 'unknown', basis: 'none', evidence: [], counts };
}
