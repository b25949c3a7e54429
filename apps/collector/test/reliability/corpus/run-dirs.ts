// ibdiagnet2 output directories made from the real run ndr-fat-tree-a for the corpora: a copy
// of the run (symlinks for untouched files) with one thing broken.
import { seededRandom } from '@ibwatch/fabric';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_A, tempDir } from '../support.ts';

export const DB = 'ibdiagnet2.db_csv';
export const DATE = '2025-03-31 23:43:18 UTC +0000';
/** A later run of the same fabric, so its counters are compared with the imported baseline. */
export const LATER = '2025-04-01 00:43:18 UTC +0000';

let original: string[] | null = null;
export const dbLines = () => (original ??= readFileSync(join(RUN_A, DB), 'utf8').split('\n')).slice();

/** A copy of run A with some files replaced (string/Buffer) or removed (null). */
export function runDir(name: string, replace: Record<string, string | Buffer | null>, from = RUN_A): string {
  const dir = join(tempDir('ibd'), name);
  mkdirSync(dir);
  for (const f of readdirSync(from)) if (!(f in replace)) symlinkSync(join(from, f), join(dir, f));
  for (const [f, content] of Object.entries(replace)) if (content !== null) writeFileSync(join(dir, f), content);
  return dir;
}

/** Only a db_csv (no secondary files of the older run to warn about), dated later than run A. */
export function laterDbOnly(name: string, lines: string[]): string {
  const dir = join(tempDir('ibd'), name);
  mkdirSync(dir);
  writeFileSync(join(dir, DB), lines.join('\n').replace(DATE, LATER));
  return dir;
}

/** [start, end] line indexes of `START_<name>` .. `END_<name>`. */
export function section(lines: string[], name: string): [number, number] {
  const s = lines.indexOf(`START_${name}`);
  const e = lines.indexOf(`END_${name}`);
  if (s < 0 || e < s) throw new Error(`sample has no section ${name}`);
  return [s, e];
}

export function without(lines: string[], name: string): string[] {
  const [s, e] = section(lines, name);
  return [...lines.slice(0, s), ...lines.slice(e + 1)];
}

/** Sets column `col` of the first `n` data rows of a section. */
export function setColumn(lines: string[], name: string, col: string, value: (i: number) => string, n = 3): string[] {
  const [s] = section(lines, name);
  const header = lines[s + 1]!.split(',');
  const c = header.indexOf(col);
  if (c < 0) throw new Error(`${name} has no column ${col}`);
  for (let i = 0; i < n; i++) {
    const cells = lines[s + 2 + i]!.split(',');
    cells[c] = value(i);
    lines[s + 2 + i] = cells.join(',');
  }
  return lines;
}

export const garbage = (n: number, seed: number) => {
  const r = seededRandom(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
};
