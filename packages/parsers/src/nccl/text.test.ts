import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTests, parseNcclTestsLines, parseNcclTestsText } from './index.ts';
import type { NcclRow } from './types.ts';

const rowAt = (rows: NcclRow[], size: number): NcclRow => {
  const row = rows.find((r) => r.sizeBytes === size);
  if (!row) throw new Error(`no row of size ${size}`);
  return row;
};

describe('parseNcclTestsText() on real outputs', () => {
  it('reads the 16-rank multinode all_reduce run', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.multinode.good.txt'));
    expect(warnings).toEqual([]);
    expect(value.collective).toBe('all_reduce');
    expect(value.collectiveSource).toBe('command');
    expect(value.binary).toBe('all_reduce_perf');
    expect(value.layout).toBe('modern');
    expect(value.rows).toHaveLength(31);
    expect(value.avgBusBwGBs).toBe(70.742);
    expect(value.outOfBounds).toEqual({ count: 0, ok: true });
    expect(value.truncated).toBe(false);
    expect(value.nRanks).toBe(16);
    expect(value.hosts).toEqual(['ztan-mig-235z', 'ztan-mig-gq73']);
    expect(value.gpuModels).toEqual(['NVIDIA H100 80GB HBM3']);
    expect(value.devices[10]).toEqual({
      rank: 10,
      group: 0,
      pid: 6735,
      host: 'ztan-mig-gq73',
      cudaDevice: 2,
      busId: '0000:0b:00',
      gpu: 'NVIDIA H100 80GB HBM3',
    });
    expect(value.params).toEqual({
      nThread: 1,
      nGpus: 1,
      minBytes: 8,
      maxBytes: 8589934592,
      step: { value: 2, unit: 'factor' },
      warmupIters: 5,
      iters: 20,
      aggIters: 1,
      validation: 1,
      graph: 0,
    });
    const big = rowAt(value.rows, 8589934592);
    expect(big).toMatchObject({ count: 2147483648, type: 'float', redop: 'sum', line: 62 });
    expect(big.root).toBeUndefined();
    expect(big.outOfPlace).toEqual({ timeUs: 47535, algbwGBs: 180.71, busbwGBs: 338.82, wrong: 0 });
    expect(big.inPlace?.busbwGBs).toBe(337.35);
    // `12646` is printed without decimals once the time needs 5 digits.
    expect(rowAt(value.rows, 2147483648).outOfPlace?.timeUs).toBe(12646);
    expect(rowAt(value.rows, 1073741824).outOfPlace?.busbwGBs).toBe(297.86);
    expect(value.gdr.status).toBe('unknown');
  });

  it('reproduces the footer average: mean busbw over all rows and both placements', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.multinode.good.txt'));
    const all = value.rows.flatMap((r) => [r.outOfPlace!.busbwGBs, r.inPlace!.busbwGBs]);
    expect(all.reduce((a, b) => a + b, 0) / all.length).toBeCloseTo(70.742, 2);
  });

  it('reads the legacy all_reduce layout (error column N/A, no root, NCCL line inside the table)', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.legacy-format.good.txt'));
    expect(warnings).toEqual([]);
    expect(value.layout).toBe('legacy');
    expect(value.columns.slice(0, 5)).toEqual(['size', 'count', 'type', 'redop', 'time']);
    // Not named anywhere: inferred from `redop` without `root` and busbw/algbw = 2*7/8.
    expect(value.collective).toBe('all_reduce');
    expect(value.collectiveSource).toBe('layout');
    expect(value.rows).toHaveLength(34);
    expect(value.rows[0]).toMatchObject({ line: 17, sizeBytes: 0, count: 0 });
    expect(rowAt(value.rows, 8589934592).outOfPlace).toEqual({
      timeUs: 63896,
      algbwGBs: 134.44,
      busbwGBs: 235.26,
      wrong: null,
    });
    expect(value.avgBusBwGBs).toBe(68.4048);
    expect(value.hosts).toEqual(['localhost']);
    expect(value.devices).toHaveLength(8);
    expect(value.devices[3]).toEqual({
      rank: 3,
      pid: 112424,
      host: 'localhost',
      cudaDevice: 3,
      busId: '0x00',
      gpu: 'A100-SXM4-40GB',
    });
    expect(value.params.validation).toBe(0);
    expect(value.params.aggIters).toBeUndefined();
  });

  it('reads the gather run with NCCL INFO lines and flags the missing footer', () => {
    const { value, warnings } = parseNcclTestsText(fixture('gather_perf.nccl-debug-ib.good.txt'), { file: 'g.txt' });
    expect(value.collective).toBe('gather');
    expect(value.collectiveSource).toBe('header');
    expect(value.ncclVersion).toBe('2.16.5');
    expect(value.cudaVersion).toBe('11.8');
    expect(value.hosts).toEqual(['n013', 'n014']);
    expect(value.gpuModels).toEqual(['NVIDIA A100-PCIE-40GB']);
    expect(value.params.reducedMaxBytes).toBe(12703978837);
    expect(value.params.step).toEqual({ value: 134217728, unit: 'bytes' });
    expect(value.rows).toHaveLength(16);
    expect(rowAt(value.rows, 134217728)).toMatchObject({ root: 0, outOfPlace: { algbwGBs: 40.37, busbwGBs: 20.19 } });
    expect(rowAt(value.rows, 6442450944).outOfPlace?.busbwGBs).toBe(10.51);
    expect(value.rows[0].redop).toBeUndefined(); // printed `none`
    expect(value.avgBusBwGBs).toBeUndefined();
    expect(value.truncated).toBe(true);
    expect(warnings).toEqual([
      {
        line: 102,
        file: 'g.txt',
        message: 'output ends after line 102 without "# Avg bus bandwidth" footer; 16 complete row(s) kept',
      },
    ]);
    expect(value.network).toBe('IB');
    expect(value.ibDevices).toEqual([
      { host: 'n013', index: 0, device: 'mlx5_0', port: 1, linkLayer: 'RoCE' },
      { host: 'n013', index: 1, device: 'mlx5_2', port: 1, linkLayer: 'IB' },
    ]);
    expect(value.nRanks).toBe(2);
  });

  it('reads the merged NCCL debug excerpt: an old socket-only broadcast table', () => {
    const { value } = parseNcclTestsText(fixture('nccl-debug-channels.good.txt'));
    expect(value.collective).toBe('broadcast');
    expect(value.layout).toBe('legacy');
    expect(value.rows).toEqual([
      {
        line: 52,
        sizeBytes: 8,
        count: 2,
        type: 'float',
        root: 0,
        outOfPlace: { timeUs: 45.82, algbwGBs: 0, busbwGBs: 0, wrong: null },
        inPlace: { timeUs: 38.17, algbwGBs: 0, busbwGBs: 0, wrong: null },
      },
    ]);
    expect(value.hosts).toEqual(['v100-gpu-1', 'v100-gpu-5']);
    expect(value.ncclVersion).toBe('2.27.5');
    expect(value.ncclWarnings).toEqual([
      { line: 46, text: 'v100-gpu-1:14926:14926 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]' },
    ]);
    expect(value.transports).toEqual({ kinds: { 'NET/IB': 12, 'P2P/IPC': 9 }, net: 12, p2p: 9, shm: 0, collnet: 0 });
    expect(value.ibDevices.map((d) => d.device)).toEqual([
      'mlx5_0',
      'mlx5_1',
      'mlx5_2',
      'mlx5_5',
      'mlx5_6',
      'mlx5_7',
      'mlx5_8',
      'mlx5_11',
    ]);
  });
});

describe('parseNcclTestsText() per collective (hand-made fixtures)', () => {
  const cases: [string, string | undefined, number, number, number][] = [
    // fixture, expected collective, rows, busbw(out-of-place) at the largest size, avg
    ['all_gather_perf.modern.good.txt', 'all_gather', 21, 352.06, 109.509],
    ['all_gather_perf.legacy.good.txt', 'all_gather', 21, 225.57, 81.4221],
    ['reduce_scatter_perf.modern.good.txt', 'reduce_scatter', 21, 345.75, 107.9],
    ['reduce_scatter_perf.legacy.good.txt', 'reduce_scatter', 21, 227.23, 79.1617],
    ['alltoall_perf.modern.good.txt', 'alltoall', 21, 45.77, 19.661],
    ['alltoall_perf.legacy.good.txt', 'alltoall', 21, 221.32, 79.7652],
    ['broadcast_perf.modern.good.txt', 'broadcast', 31, 344.79, 113.892],
    ['broadcast_perf.legacy.good.txt', 'broadcast', 31, 231.41, 79.4479],
    ['reduce_perf.modern.good.txt', 'reduce', 31, 343.99, 114.509],
    ['reduce_perf.legacy.good.txt', 'reduce', 31, 232.58, 78.3663],
    ['sendrecv_perf.modern.good.txt', 'sendrecv', 14, 47.45, 43.1286],
    ['sendrecv_perf.legacy.good.txt', 'sendrecv', 28, 23.04, 9.92214],
    ['hypercube_perf.modern.good.txt', 'hypercube', 21, 294.92, 102.596],
    ['hypercube_perf.legacy.good.txt', 'hypercube', 21, 189.74, 69.8021],
    // gather and scatter print identical tables: not inferable without a name or hint.
    ['gather_perf.legacy.good.txt', undefined, 21, 204.26, 74.5786],
    ['scatter_perf.legacy.good.txt', undefined, 21, 207.75, 75.4555],
    ['scatter_perf.modern.good.txt', undefined, 21, 332.75, 112.639],
  ];
  it.each(cases)('%s', (name, collective, nRows, lastBusbw, avg) => {
    const { value } = parseNcclTestsText(fixture(name));
    expect(value.collective).toBe(collective);
    expect(value.rows).toHaveLength(nRows);
    expect(value.rows.at(-1)?.outOfPlace?.busbwGBs).toBe(lastBusbw);
    expect(value.avgBusBwGBs).toBe(avg);
    expect(value.truncated).toBe(false);
    expect(value.layout).toBe(name.includes('legacy') ? 'legacy' : 'modern');
  });

  it('resolves gather vs scatter with a hint, and warns without one', () => {
    const hinted = parseNcclTestsText(fixture('scatter_perf.legacy.good.txt'), { collective: 'scatter' });
    expect(hinted.value.collective).toBe('scatter');
    expect(hinted.value.collectiveSource).toBe('hint');
    expect(hinted.warnings).toEqual([]);
    const bare = parseNcclTestsText(fixture('scatter_perf.legacy.good.txt'));
    expect(bare.warnings).toEqual([
      {
        line: 14,
        message:
          'collective not named in the output and not inferable from the ' +
          'table (candidates: gather, scatter); pass it as a hint',
      },
    ]);
  });

  it('prefers the name printed in the output over a conflicting hint', () => {
    const { value, warnings } = parseNcclTestsText(fixture('reduce_perf.modern.good.txt'), { collective: 'broadcast' });
    expect(value.collective).toBe('reduce');
    expect(warnings[0].message).toBe('output names reduce_perf but the caller said broadcast; using reduce');
  });

  it('keeps blank redop columns apart from root (old alltoall, hypercube)', () => {
    const a2a = parseNcclTestsText(fixture('alltoall_perf.legacy.good.txt')).value;
    expect(a2a.rows[0]).toMatchObject({ sizeBytes: 1024, count: 32, type: 'float', outOfPlace: { timeUs: 35.6 } });
    expect(a2a.rows[0].redop).toBeUndefined();
    const hc = parseNcclTestsText(fixture('hypercube_perf.modern.good.txt')).value;
    expect(hc.rows[0].redop).toBeUndefined();
    expect(hc.rows[0].root).toBeUndefined();
  });

  it('reads non-zero #wrong and a FAILED out-of-bounds line', () => {
    const { value } = parseNcclTestsText(fixture('reduce_scatter_perf.modern.good.txt'));
    expect(rowAt(value.rows, 4194304).outOfPlace?.wrong).toBe(17);
    expect(rowAt(value.rows, 8388608).outOfPlace?.wrong).toBe(1024);
    expect(rowAt(value.rows, 8388608).inPlace?.wrong).toBe(0);
    expect(value.outOfBounds).toEqual({ count: 2, ok: false });
  });

  it('reads N/A #wrong of the sendrecv in-place block as null', () => {
    const { value } = parseNcclTestsText(fixture('sendrecv_perf.modern.good.txt'));
    expect(value.rows.every((r) => r.inPlace?.wrong === null && r.outOfPlace?.wrong === 0)).toBe(true);
  });

  it('reads the legacy `0e+00` error column as 0', () => {
    const { value } = parseNcclTestsText(fixture('reduce_perf.legacy.good.txt'));
    expect(value.rows[0].outOfPlace?.wrong).toBe(0);
    expect(value.rows[0].root).toBe(0);
  });

  it('reads cputime and timestamp columns', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.cputime-timestamp.good.txt'));
    expect(warnings).toEqual([]);
    expect(value.timeColumn).toBe('cputime');
    expect(value.columns.at(-1)).toBe('timestamp');
    expect(value.rows).toHaveLength(9);
    expect(value.rows[0]).toMatchObject({
      timestamp: '2025-03-14 09:26:10',
      outOfPlace: { timeUs: 33.9, busbwGBs: 54.13 },
    });
    expect(value.params.nGpus).toBe(8);
  });

  it('takes the tool version and NCCL library code from the 2025 header', () => {
    const { value } = parseNcclTestsText(fixture('all_gather_perf.modern.good.txt'));
    expect(value.ncclTestsVersion).toBe('2.17.6');
    expect(value.ncclVersion).toBe('2.27.3');
    expect(value.collectiveSource).toBe('header');
  });
});

describe('line API and auto-detection', () => {
  it('parses the same from a line iterable as from a string, CRLF included', () => {
    const text = fixture('all_reduce_perf.multinode.good.txt');
    function* gen(): Generator<string> {
      for (const l of text.split('\n')) yield `${l}\r`;
    }
    const fromLines = parseNcclTestsLines(gen()).value;
    expect(fromLines).toEqual(parseNcclTestsText(text).value);
  });

  it('parseNcclTests() dispatches JSON and text', () => {
    expect(parseNcclTests(fixture('all_reduce_perf.good.json')).value.rows).toHaveLength(28);
    expect(parseNcclTests(fixture('broadcast_perf.modern.good.txt')).value.rows).toHaveLength(31);
  });
});
