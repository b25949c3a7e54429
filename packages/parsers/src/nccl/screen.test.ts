// Numbers that are not measurements (issue 14 defect 7): each case is the real 2-node
// all_reduce log (`all_reduce_perf.multinode.good.txt`, rows at lines 32-62, 8 GiB at line 62)
// edited the way the hostile test edited it.
import { describe, expect, it } from 'vitest';
import { parseError } from '../common/parse-error.test-helper.ts';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTestsJson, parseNcclTestsText } from './index.ts';

const GOOD = fixture('all_reduce_perf.multinode.good.txt');
const ROW = /^\s+\d+\s+\d+\s+float/;

/** The log with every result row's cells rewritten (cells: size count type redop root, then 4 + 4 timing). */
function editRows(edit: (cells: string[], size: number) => string[] | string[][] | null, text = GOOD): string {
  return text
    .split('\n')
    .flatMap((l) => {
      if (!ROW.test(l)) return [l];
      const cells = l.trim().split(/\s+/);
      const out = edit(cells, Number(cells[0]));
      if (out === null) return [l];
      return (Array.isArray(out[0]) ? (out as string[][]) : [out as string[]]).map((c) => `  ${c.join('  ')}`);
    })
    .join('\n');
}
const timing = [5, 6, 7, 9, 10, 11];
const setTiming = (cells: string[], v: string) => cells.map((c, i) => (timing.includes(i) ? v : c));

describe('nccl-tests numbers that are not measurements', () => {
  it('refuses a log whose every number is 1e309 (Infinity), naming the first row', () => {
    const text = editRows((c) => setTiming(c, '1e309')).replace('70.742', '1e309');
    const e = parseError(() => parseNcclTestsText(text, { file: 'inf.txt' }));
    expect(e.message).toMatch(
      /^nccl-tests:inf\.txt:32: no plausible result rows; out-of-place time Infinity is not a finite number/,
    );
  });

  it('refuses a log whose every number is negative', () => {
    const e = parseError(() =>
      parseNcclTestsText(
        editRows((c) => setTiming(c, '-3.5')),
        { file: 'neg.txt' },
      ),
    );
    expect(e.message).toMatch(/^nccl-tests:neg\.txt:32: no plausible result rows; out-of-place time -3.5 is negative/);
  });

  it.each([
    ['1e308', 'busbw 1e+308 GB/s is above 4000 GB/s'],
    ['999999', 'busbw 999999 GB/s is above 4000 GB/s'],
  ])('drops an 8 GiB busbw of %s with a warning and keeps the other rows', (value, message) => {
    const text = editRows((c, size) => (size === 2 ** 33 ? c.map((x, i) => (i === 7 || i === 11 ? value : x)) : null));
    const { value: run, warnings } = parseNcclTestsText(text, { file: 'big.txt' });
    expect(run.rows).toHaveLength(30);
    expect(run.rows.some((r) => r.sizeBytes === 2 ** 33)).toBe(false);
    expect(warnings).toContainEqual({
      file: 'big.txt',
      line: 62,
      message: `out-of-place ${message}, more than any fabric carries; out-of-place result dropped`,
    });
    expect(warnings.filter((w) => w.line === 62)).toHaveLength(2);
  });

  it('keeps the plausible placement of a row when only the other one is broken', () => {
    const text = editRows((c, size) => (size === 2 ** 33 ? c.map((x, i) => (i === 11 ? '1e309' : x)) : null));
    const { value: run, warnings } = parseNcclTestsText(text);
    expect(run.rows.at(-1)).toMatchObject({ sizeBytes: 2 ** 33, outOfPlace: { busbwGBs: 338.82 }, inPlace: null });
    expect(warnings.map((w) => w.message)).toEqual([
      'in-place busbw Infinity is not a finite number; in-place result dropped',
    ]);
  });

  it('keeps the first of a repeated size (a 999.99 copy does not flip the verdict) and says so', () => {
    const text = editRows((c, size) =>
      size === 2 ** 33 ? [c, c.map((x, i) => (i === 7 || i === 11 ? '999.99' : x))] : null,
    );
    const { value: run, warnings } = parseNcclTestsText(text, { file: 'dup.txt' });
    expect(run.rows.filter((r) => r.sizeBytes === 2 ** 33)).toEqual([
      expect.objectContaining({ line: 62, outOfPlace: expect.objectContaining({ busbwGBs: 338.82 }) }),
    ]);
    expect(warnings).toEqual([
      {
        file: 'dup.txt',
        line: 63,
        message: 'size 8589934592 (float sum) appears again; keeping the first (line 62), this row dropped',
      },
    ]);
  });

  it('does not take sizes of different types or ops (-d all, -o all) for repeats', () => {
    const text = editRows((c) => [c, c.map((x, i) => (i === 2 ? 'half' : x)), c.map((x, i) => (i === 3 ? 'max' : x))]);
    const { value: run, warnings } = parseNcclTestsText(text);
    expect(run.rows).toHaveLength(93);
    expect(warnings).toEqual([]);
  });

  it('drops an average footer that is not a number it could be', () => {
    const { value: run, warnings } = parseNcclTestsText(GOOD.replace('70.742', '1e309'));
    expect(run.avgBusBwGBs).toBeUndefined();
    expect(run.truncated).toBe(false);
    expect(warnings).toEqual([
      { line: 64, message: 'average bus bandwidth Infinity is not a finite number; not stored' },
    ]);
  });

  it('takes a lower ceiling from the caller', () => {
    const { value: run, warnings } = parseNcclTestsText(GOOD, { maxBusBwGBs: 300 });
    expect(Math.max(...run.rows.map((r) => r.outOfPlace?.busbwGBs ?? 0))).toBeLessThanOrEqual(300);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('screens the -J JSON report too, naming the result', () => {
    const json = JSON.parse(fixture('all_reduce_perf.good.json')) as {
      results: { out_of_place: { bus_bw: unknown } }[];
    };
    json.results.at(-1)!.out_of_place.bus_bw = 1e308;
    const { value: run, warnings } = parseNcclTestsJson(JSON.stringify(json), { file: 'r.json' });
    const last = json.results.length - 1;
    expect(warnings.map((w) => w.message)).toContainEqual(
      `results[${last}]: out-of-place busbw 1e+308 GB/s is above 4000 GB/s, ` +
        `more than any fabric carries; out-of-place result dropped`,
    );
    expect(run.rows.at(-1)!.outOfPlace).toBeNull();
  });
});
