/**
 * nccl-tests stdout for a year of runs: the preamble of a real multi-node all_reduce_perf
 * capture (packages/parsers/fixtures/nccl) and a table rendered in the nccl-tests layout with
 * per-run bandwidth (a slow drift plus noise; every 40th run with GPUDirect RDMA off).
 */
import { seededRandom } from '@ibwatch/testkit';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../../packages/parsers/fixtures/nccl');

export function ncclRunText(i: number): string {
  const src = readFileSync(
    resolve(
      FIXTURES,
      i % 40 === 39
        ? 'all_reduce_perf.gdr-disabled.multinode.good.txt'
        : 'all_reduce_perf.gdr-enabled.multinode.good.txt',
    ),
    'utf8',
  );
  const lines = src.split('\n');
  const first = lines.findIndex((l) => /^\s+\d+\s+\d+\s+\w+\s+\w+\s+-?\d+\s/.test(l));
  const pre = lines.slice(0, first);
  const r = seededRandom(i + 1);
  const peak = (i % 40 === 39 ? 80 : 365) * (1 - 0.0001 * (i % 365)) * (0.97 + 0.06 * r());
  const rows: string[] = [];
  for (let size = 8; size <= 8 * 1024 ** 3; size *= 2) {
    const busbw = peak * (size / (size + 32 * 1024 ** 2));
    const time = (size * 2 * 15) / 16 / (Math.max(busbw, 1e-6) * 1e3);
    const algbw = (busbw * 16) / 30;
    const cell = (t: number, a: number, b: number) =>
      `${t.toFixed(2).padStart(9)}${a.toFixed(2).padStart(8)}${b.toFixed(2).padStart(8)}${'0'.padStart(7)}`;
    const head =
      `${String(size).padStart(12)}${String(size / 4).padStart(14)}` +
      `${'float'.padStart(10)}${'sum'.padStart(8)}${'-1'.padStart(8)}`;
    rows.push(`${head}${cell(time, algbw, busbw)}${cell(time, algbw, busbw)}`);
  }
  const avg = 0.5 * peak;
  return [
    ...pre,
    ...rows,
    '# Out of bounds values : 0 OK',
    `# Avg bus bandwidth    : ${avg.toFixed(3)} `,
    '#',
    '',
  ].join('\n');
}
