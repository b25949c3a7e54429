import { describe, expect, it } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTestsJson, repairTruncatedJson } from './index.ts';

describe('parseNcclTestsJson()', () => {
  it('reads the -J report', () => {
    const { value, warnings } = parseNcclTestsJson(fixture('all_reduce_perf.good.json'));
    expect(warnings).toEqual([]);
    expect(value.collective).toBe('all_reduce');
    expect(value.collectiveSource).toBe('json-args');
    expect(value.binary).toBe('all_reduce_perf');
    expect(value.ncclVersion).toBe('2.27.3');
    expect(value.rows).toHaveLength(28);
    expect(value.rows.at(-1)).toEqual({
      sizeBytes: 1073741824,
      count: 268435456,
      type: 'float',
      redop: 'sum',
      outOfPlace: { timeUs: 5347.771479, algbwGBs: 200.783042, busbwGBs: 376.468203, wrong: 0 },
      inPlace: { timeUs: 5410.550615, algbwGBs: 198.453337, busbwGBs: 372.100007, wrong: 0 },
    });
    expect(value.avgBusBwGBs).toBe(102.569343);
    expect(value.avgBusBwCheck).toBeUndefined(); // "unchecked"
    expect(value.outOfBounds).toEqual({ count: 0, ok: true });
    expect(value.truncated).toBe(false);
    expect(value.hosts).toEqual(['gpu-b07', 'gpu-b08']);
    expect(value.nRanks).toBe(16);
    expect(value.devices[9]).toEqual({
      rank: 9,
      group: 0,
      pid: 52009,
      host: 'gpu-b08',
      cudaDevice: 1,
      busId: '0000:2a:00',
      gpu: 'NVIDIA H100 80GB HBM3',
    });
    expect(value.params).toMatchObject({
      minBytes: 8,
      maxBytes: 1073741824,
      step: { value: 2, unit: 'factor' },
      iters: 20,
      blocking: false,
    });
    expect(value.gdr.status).toBe('unknown');
  });

  it('repairs a report cut mid-results, keeping complete rows', () => {
    const { value, warnings } = parseNcclTestsJson(fixture('all_reduce_perf.json-truncated.bad.json'), {
      file: 't.json',
    });
    expect(value.truncated).toBe(true);
    expect(value.rows).toHaveLength(18);
    expect(value.rows.at(-1)?.sizeBytes).toBe(1048576);
    expect(value.avgBusBwGBs).toBeUndefined();
    expect(warnings.map((w) => w.message)).toEqual([
      'JSON report cut short at offset 8062; kept the first 8036 characters',
      'results[18] is incomplete; skipped',
    ]);
    expect(warnings[0]).toMatchObject({ line: 1, file: 't.json' });
  });

  it('throws when the cut leaves no results', () => {
    expect(() => parseNcclTestsJson(fixture('json-cut-in-config.bad.json'), { file: 'c.json' })).toThrow(
      expect.objectContaining({
        format: 'nccl-tests-json',
        file: 'c.json',
        line: 1,
        reason: 'JSON report has no results',
      }),
    );
  });

  it('throws with a line number for multi-line garbage', () => {
    let err: unknown;
    try {
      parseNcclTestsJson('[1,\n2,\n}');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).line).toBe(3);
    expect((err as ParseError).message).toMatch(/^nccl-tests-json:3: not valid JSON/);
  });

  it('reads env that rules GDR out, root strings and nan', () => {
    const doc = {
      args: ['./build/broadcast_perf'],
      env: ['NCCL_NET_GDR_LEVEL=LOC'],
      results: [
        {
          size: 8,
          count: 2,
          type: 'float',
          redop: 'none',
          root: '     0',
          out_of_place: { time: 5.1, alg_bw: 0, bus_bw: 0, nwrong: null },
          in_place: { time: 'nan', alg_bw: 0, bus_bw: 0, nwrong: 0 },
        },
      ],
      average_bus_bandwidth: { bandwidth: 0, okay: 'false' },
    };
    const { value, warnings } = parseNcclTestsJson(JSON.stringify(doc));
    expect(value.collective).toBe('broadcast');
    expect(value.rows[0].root).toBe(0);
    expect(value.rows[0].outOfPlace?.wrong).toBeNull();
    // A `nan` time is no measurement: that placement is dropped, with a warning.
    expect(value.rows[0].inPlace).toBeNull();
    expect(warnings.map((w) => w.message)).toContain(
      'results[0]: in-place time NaN is not a finite number; in-place result dropped',
    );
    expect(value.avgBusBwCheck).toBe('FAILED');
    expect(value.gdr).toMatchObject({
      status: 'disabled',
      basis: 'env',
      evidence: [{ line: 1, text: 'NCCL_NET_GDR_LEVEL=LOC' }],
    });
  });

  it('repairTruncatedJson() closes open containers after the last complete element', () => {
    expect(repairTruncatedJson('{"a":[1,2,{"b":3},{"c":')).toEqual({ value: { a: [1, 2, { b: 3 }] }, keptChars: 17 });
    expect(repairTruncatedJson('{"a":"x,')).toBeUndefined();
  });
});
