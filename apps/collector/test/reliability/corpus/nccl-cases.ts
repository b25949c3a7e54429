// Bad nccl-tests outputs: the real 2-node all_reduce run broken in each way a job log breaks.
import { seededRandom } from '@ibwatch/fabric';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAD_FIXTURES, PARSER_FIXTURES } from '../support.ts';
import type { CorpusCase } from './types.ts';

const fixture = (n: string) => readFileSync(join(PARSER_FIXTURES, 'nccl', n), 'utf8');

export function ncclCases(): CorpusCase[] {
  const good = fixture('all_reduce_perf.multinode.good.txt');
  const lines = good.split('\n');
  const firstRow = lines.findIndex((l) => /^\s+\d+\s+\d+\s+float/.test(l));
  const rowLine = (i: number) => firstRow + i + 1;
  const withRow = (i: number, f: (cells: string[]) => string[]) =>
    lines.map((l, n) => (n === firstRow + i ? '  ' + f(l.trim().split(/\s+/)).join('  ') : l)).join('\n');
  const cases: CorpusCase[] = [];
  const add = (file: string, c: Omit<Extract<CorpusCase, { format: 'nccl-tests' }>, 'format' | 'file'>) =>
    cases.push({ format: 'nccl-tests', file, ...c });

  add('empty.txt', { name: 'empty upload', expect: 'failed', mentions: [/empty\.txt/], input: () => '' });
  add('blank.txt', {
    name: 'only whitespace lines',
    expect: 'failed',
    mentions: [/blank\.txt/],
    input: () => '\n\n   \n\t\n',
  });
  add('garbage.bin', {
    name: 'binary garbage',
    expect: 'failed',
    mentions: [/garbage\.bin/],
    input: () => {
      const r = seededRandom(9);
      return Buffer.from(Array.from({ length: 20000 }, () => Math.floor(r() * 256))).toString('latin1');
    },
  });
  add('html.txt', {
    name: 'HTML error page instead of the log (hand-made)',
    expect: 'failed',
    mentions: [/html\.txt/],
    input: () => readFileSync(join(BAD_FIXTURES, 'nccl/html-error-page.bad.txt'), 'utf8'),
  });
  add('cut.txt', {
    name: 'cut mid-table (no footer)',
    expect: 'partial',
    mentions: [/cut\.txt: output ends without/],
    input: () => lines.slice(0, rowLine(8)).join('\n'),
  });
  add('cut-row.txt', {
    name: 'cut in the middle of a row',
    expect: 'partial',
    mentions: [/cut-row\.txt:\d+/],
    input: () => lines.slice(0, rowLine(8)).join('\n') + '\n' + lines[rowLine(8)]!.slice(0, 30),
  });
  add('slurm.txt', {
    name: 'job killed by slurm after 3 rows (hand-made)',
    expect: 'partial',
    mentions: [/slurm\.txt/],
    input: () => readFileSync(join(BAD_FIXTURES, 'nccl/all_reduce_perf.killed-by-slurm.bad.txt'), 'utf8'),
  });
  add('header-only.txt', {
    name: 'header but no rows',
    expect: 'failed',
    mentions: [/header-only\.txt/],
    input: () => lines.slice(0, firstRow).join('\n'),
  });
  add('crlf.txt', { name: 'CRLF line endings', expect: 'ok', mentions: [], input: () => good.replace(/\n/g, '\r\n') });
  // Lines that are not rows are skipped inside the table by design (NCCL INFO lines interleave).
  add('huge.txt', {
    name: 'a 5 MB non-row line in the middle of the table',
    expect: 'ok',
    mentions: [],
    input: () => {
      const l = lines.slice();
      l.splice(firstRow + 4, 0, 'x'.repeat(5 << 20));
      return l.join('\n');
    },
  });
  add('nan.txt', {
    name: 'non-numeric bandwidth in a row',
    expect: 'partial',
    mentions: [/nan\.txt:\d+/],
    input: () =>
      withRow(3, (c) => {
        c[6] = 'abc';
        return c;
      }),
  });
  add('neg.txt', {
    name: 'negative time and busbw in rows',
    expect: 'partial',
    mentions: [/neg\.txt:\d+: out-of-place time -1 is negative/],
    input: () =>
      withRow(4, (c) => {
        c[5] = '-1.0';
        c[7] = '-3.5';
        return c;
      }),
  });
  add('short.txt', {
    name: 'a row with too few fields',
    expect: 'partial',
    mentions: [/short\.txt:\d+/],
    input: () => withRow(2, (c) => c.slice(0, 5)),
  });
  add('json-cut.json', {
    name: 'JSON report cut short',
    expect: 'partial',
    mentions: [/json-cut\.json:1: JSON report cut short/],
    input: () => fixture('all_reduce_perf.json-truncated.bad.json'),
  });
  add('nul.txt', {
    name: 'NUL bytes inside the table',
    expect: 'partial',
    mentions: [/nul\.txt:\d+/],
    input: () =>
      withRow(5, (c) => {
        c[2] = 'fl\0\0at';
        return c;
      }),
  });
  return cases;
}
