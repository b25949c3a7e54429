/**
 * nccl-tests logs as people save and paste them (issue 18.6): launcher prefixes on every line,
 * tables without their column-name line, `--(snip)--` markers, rccl-tests' version line.
 * Pure helpers of text.ts.
 */
import type { TableColumn, TableHeader } from './table.ts';
import type { NcclLinePrefix } from './types.ts';

// `srun -l` prints the task id right-aligned and `: ` (` 0: `, `12: `); `mpirun --tag-output`
// prints `[jobid,rank]<stdout>:` (or `<stderr>`, `<stddiag>`) with nothing after the colon.
const SRUN_RE = /^ *\d+: /;
const MPIRUN_RE = /^\[\d+,\d+\]<(?:stdout|stderr|stddiag)>: ?/;

/** The line without its launcher prefix, and which prefix it was. */
export function stripLaunchPrefix(line: string): { line: string; prefix?: NcclLinePrefix } {
  let m = MPIRUN_RE.exec(line);
  if (m) return { line: line.slice(m[0].length), prefix: 'mpirun --tag-output' };
  m = SRUN_RE.exec(line);
  if (m) return { line: line.slice(m[0].length), prefix: 'srun -l' };
  return { line };
}

/** `--(snip)--`, `-- snip --`, `[...snip...]`, `<snip>`: rows left out on purpose. */
export function isSnipMarker(line: string): boolean {
  return /^\s*[-[<(.\s]*\(?\s*snip(?:ped)?\s*\)?[-\]>).\s]*$/i.test(line);
}

/** `rccl-tests: Version develop:7ec9c1c` (printed without `#` by rccl-tests). */
export function parseRcclVersionLine(line: string): string | undefined {
  const m = /^#?\s*rccl-tests:\s*Version\s+(\S+)/.exec(line);
  return m?.[1];
}

const OOP_IP = ['time', 'algbw', 'busbw', 'wrong'];

/**
 * A table pasted without its column-name line: take the layout from the first row's field count,
 * the printf layouts nccl-tests has used (see table.ts): 13 fields = size count type redop root
 * + 2 x (time algbw busbw #wrong); 12 = one of redop or root (an integer in the 4th field is a
 * root); 11 = neither. Other counts are not guessed.
 */
export function headerFromRow(line: string, lineNo: number): TableHeader | undefined {
  const fields = line.trim().split(/\s+/);
  let key: string[];
  if (fields.length === 13) key = ['size', 'count', 'type', 'redop', 'root'];
  else if (fields.length === 12) key = ['size', 'count', 'type', /^-?\d+$/.test(fields[3]) ? 'root' : 'redop'];
  else if (fields.length === 11) key = ['size', 'count', 'type'];
  else return undefined;
  if (/^-?[\d.]+$/.test(fields[2])) return undefined; // the type column is a word (`float`)
  const columns: TableColumn[] = [
    ...key.map((name) => ({ name, block: 'key' as const, end: 0 })),
    ...OOP_IP.map((name) => ({ name, block: 'oop' as const, end: 0 })),
    ...OOP_IP.map((name) => ({ name, block: 'ip' as const, end: 0 })),
  ];
  return {
    line: lineNo,
    columns,
    layout: fields.length === 13 ? 'modern' : 'legacy',
    timeColumn: 'time',
    hasTimestamp: false,
  };
}
