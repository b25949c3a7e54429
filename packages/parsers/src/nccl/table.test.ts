import { describe, expect, it } from 'vitest';
import {
  parseAvgBusBwLine,
  parseDeviceLine,
  parseParamsLine,
  ncclVersionFromCode,
  findBinaryInCommand,
} from './header.ts';
import { parseRow, parseTableHeader } from './table.ts';

const MODERN =
  '#       size         count      type   redop    root     time   algbw ' +
  '  busbw #wrong     time   algbw   busbw #wrong';

describe('table header and rows', () => {
  it('maps header names to canonical columns and blocks', () => {
    const h = parseTableHeader(MODERN, 3)!;
    expect(h.layout).toBe('modern');
    expect(h.columns.map((c) => `${c.block}:${c.name}`)).toEqual([
      'key:size',
      'key:count',
      'key:type',
      'key:redop',
      'key:root',
      'oop:time',
      'oop:algbw',
      'oop:busbw',
      'oop:wrong',
      'ip:time',
      'ip:algbw',
      'ip:busbw',
      'ip:wrong',
    ]);
    expect(parseTableHeader('#        (B)    (elements)      (us)  (GB/s)  (GB/s)', 4)).toBeUndefined();
    expect(parseTableHeader('#            out-of-place                       in-place', 2)).toBeUndefined();
  });

  it('reads e-notation and huge times', () => {
    const h = parseTableHeader(MODERN, 1)!;
    const r = parseRow(
      '  8589934592    2147483648     float     sum      -1  1.2e+05   ' +
        '71.23  133.56  1e+06  1.3e+05   66.08  123.90      0',
      h,
      9,
    );
    expect(r).toMatchObject({
      ok: true,
      row: { outOfPlace: { timeUs: 120000, busbwGBs: 133.56, wrong: 1000000 }, inPlace: { timeUs: 130000 } },
    });
  });

  it('reads a blank out-of-place block (trace replay) as null', () => {
    const h = parseTableHeader(MODERN, 1)!;
    const line =
      '        1024           256     float     sum      -1' + ' '.repeat(32) + '    20.00    0.05    0.10      0';
    const r = parseRow(line, h, 2);
    expect(r).toMatchObject({ ok: true, row: { outOfPlace: null, inPlace: { timeUs: 20, busbwGBs: 0.1 } } });
  });

  it('rejects rows with too many fields or unreadable numbers', () => {
    const h = parseTableHeader(MODERN, 1)!;
    expect(parseRow('  8  2  float  sum  -1  1.0  0.00  0.00  0  1.0  0.00  0.00  0  extra', h, 2)).toEqual({
      ok: false,
      reason: 'row has 14 fields, expected 13',
      fields: 14,
    });
    expect(parseRow('  8  2  float  sum  -1  1.0  x.00  0.00  0  1.0  0.00  0.00  0', h, 2)).toMatchObject({
      ok: false,
    });
  });

  it('reads per-iteration columns (-I 1)', () => {
    const header =
      '#       size         count      type   redop    root     time   ' +
      'algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time ' +
      '  algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%';
    const h = parseTableHeader(header, 1)!;
    const r = parseRow(
      '        1024           256     float     sum      -1    20.00   ' +
        ' 0.05    0.10       0    19.10    22.40    22.10     3.20    19.00 ' +
        '   0.05    0.11       0    18.90    21.00    20.80     2.90',
      h,
      2,
    );
    expect(r).toMatchObject({
      ok: true,
      row: { outOfPlace: { perIteration: { minUs: 19.1, maxUs: 22.4, p99Us: 22.1, cvPct: 3.2 } } },
    });
  });
});

describe('header lines', () => {
  it('parses the parameter line, old and new', () => {
    expect(
      parseParamsLine(
        '# nThread 1 nGpus 8 minBytes 1 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 validation: 0',
      ),
    ).toEqual({
      nThread: 1,
      nGpus: 8,
      minBytes: 1,
      maxBytes: 8589934592,
      step: { value: 2, unit: 'factor' },
      warmupIters: 5,
      iters: 20,
      validation: 0,
    });
    expect(
      parseParamsLine(
        '# nThread 2 nGpus 1 minBytes 8 maxBytes 64 step: 8(bytes) warmup ' +
          'iters: 1 iters: 3 agg iters: 4 validation: 1 graph: 2 unalign: 0',
      ),
    ).toMatchObject({
      nThread: 2,
      step: { value: 8, unit: 'bytes' },
      iters: 3,
      aggIters: 4,
      graph: 2,
      unalign: 0,
    });
  });

  it('parses device lines with right-aligned host names', () => {
    expect(
      parseDeviceLine('#  Rank  1 Group  0 Pid  34424 on       n014 device  0 [0000:81:00] NVIDIA A100-PCIE-40GB'),
    ).toEqual({
      rank: 1,
      group: 0,
      pid: 34424,
      host: 'n014',
      cudaDevice: 0,
      busId: '0000:81:00',
      gpu: 'NVIDIA A100-PCIE-40GB',
    });
  });

  it('parses footer, version codes and command lines', () => {
    expect(parseAvgBusBwLine('# Avg bus bandwidth    : 70.742 ')).toEqual({ value: 70.742 });
    expect(parseAvgBusBwLine('# Avg bus bandwidth    : 12.5 FAILED')).toEqual({ value: 12.5, check: 'FAILED' });
    expect(ncclVersionFromCode(22703)).toBe('2.27.3');
    expect(ncclVersionFromCode(2708)).toBe('2.7.8');
    expect(findBinaryInCommand('srun --mpi=pmix ./build/alltoall_perf -b 1G')).toBe('alltoall_perf');
    expect(findBinaryInCommand('mpirun /opt/all_reduce_perf_mpi -g 1')).toBe('all_reduce_perf_mpi');
    expect(findBinaryInCommand('see alltoallv_perf')).toBeUndefined();
  });
});
