// Hostile nccl-tests outputs (as uploads and as files given to `ibwatch import nccl FILE`) and
// hostile infiniband-diags outputs (through the runner seam).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { labOutputs, PARSER_FIXTURES, tempDir } from '../../reliability/support.ts';
import type { CannedOutput } from '../../reliability/support.ts';
import type { HostileCase } from './types.ts';

const ERRS = 'ibqueryerrors --data --threshold-file /dev/null';
const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');

/** A path in a fresh temp dir, made by `make`. */
function pathOf(name: string, make: (p: string) => void): string {
  const p = join(tempDir('nccl-file'), name);
  make(p);
  return p;
}

export function ncclCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const upload = (
    file: string,
    name: string,
    expect: 'failed' | 'partial' | 'ok',
    mentions: RegExp[],
    text: () => string,
  ) => cases.push({ format: 'nccl-tests', file, name, expect, mentions, input: text });
  const file = (
    name: string,
    expect: 'refused' | 'failed' | 'partial' | 'ok',
    mentions: RegExp[],
    make: () => string,
  ) => cases.push({ format: 'nccl-file', name, expect, mentions, input: make });

  upload(
    'host.txt',
    'a host name of 10 KB in the rank lines (cut, with a warning)',
    'partial',
    [/host names or NCCL_DEBUG lines too long, cut/],
    () => GOOD.replace(/ on ztan-mig-235z /g, ` on ${'h'.repeat(10_000)} `),
  );
  upload('utf16.txt', 'the output saved as UTF-16 (a Windows editor)', 'failed', [/utf16\.txt:1:/], () =>
    Buffer.from(`\ufeff${GOOD}`, 'utf16le').toString('latin1'),
  );
  upload('nul.txt', '1 MB of NULs', 'failed', [/nul\.txt:1: binary data/], () => '\0'.repeat(1 << 20));
  upload('formula.txt', 'a formula and markup in the hosts (stored as text)', 'ok', [], () =>
    GOOD.replace(/ on ztan-mig-235z /g, ' on =HYPERLINK("http://x")<b> '),
  );
  upload(
    '8k-rows.txt',
    'the table repeated 300 times (2 MB; the repeats dropped, named)',
    'partial',
    [/8k-rows\.txt:\d+: size 8 \(float sum\) appears again; keeping the first/],
    () => {
      const lines = GOOD.split('\n');
      const first = lines.findIndex((l) => /^\s+\d+\s+\d+\s+float/.test(l));
      const last = lines.findIndex((l) => l.startsWith('# Out of bounds'));
      const rows = lines.slice(first, last);
      return [...lines.slice(0, first), ...Array.from({ length: 300 }, () => rows).flat(), ...lines.slice(last)].join(
        '\n',
      );
    },
  );

  // Given by path: refused before a byte is read when it is not a regular file of sane size.
  file('a FIFO', 'refused', [/not a regular file \(FIFO\)/], () =>
    pathOf('fifo.out', (p) => void execFileSync('mkfifo', [p])),
  );
  file('a symlink to /dev/zero', 'refused', [/not a regular file \(character device\)/], () =>
    pathOf('zero.out', (p) => symlinkSync('/dev/zero', p)),
  );
  file('a directory', 'refused', [/not a regular file \(directory\)/], () => pathOf('dir.out', (p) => mkdirSync(p)));
  file('a dangling symlink', 'refused', [/no such file/], () => pathOf('gone.out', (p) => symlinkSync(`${p}.x`, p)));
  file('65 MiB (over the 64 MiB limit, sparse)', 'refused', [/68157440 bytes, more than the 67108864-byte limit/], () =>
    pathOf('big.out', (p) => {
      writeFileSync(p, '');
      truncateSync(p, 65 << 20);
    }),
  );
  file('an empty file', 'failed', [/empty\.out/], () => pathOf('empty.out', (p) => writeFileSync(p, '')));
  file('a good output (the baseline of the path route)', 'ok', [], () =>
    pathOf('good.out', (p) => writeFileSync(p, `${GOOD}# via a path\n`)),
  );
  file('a file name with a newline and quotes', 'ok', [], () =>
    pathOf('job\n"1".out', (p) => writeFileSync(p, `${GOOD}# odd name\n`)),
  );
  return cases;
}

export function diagsCases(): HostileCase[] {
  const lab = labOutputs();
  const topo = lab.ibnetdiscover!.stdout!;
  const errs = lab[ERRS]!.stdout!;
  const cases: HostileCase[] = [];
  const add = (
    scan: 'topology' | 'pm' | 'sm',
    name: string,
    expect: 'failed' | 'partial' | 'ok',
    mentions: RegExp[],
    outputs: Record<string, CannedOutput>,
    check?: Extract<HostileCase, { format: 'infiniband-diags' }>['check'],
  ) =>
    cases.push({
      format: 'infiniband-diags',
      scan,
      name,
      expect,
      mentions,
      outputs: () => ({ ...lab, ...outputs }),
      check,
    });

  add(
    'topology',
    'ibnetdiscover node description of 10 KB (cut to 128)',
    'partial',
    [/1 node descriptions longer than 128 characters cut/],
    {
      ibnetdiscover: { stdout: topo.replace('"spine-02"', `"${'s'.repeat(10_000)}"`) },
    },
    (ctx) =>
      expect(ctx.db.prepare('SELECT MAX(length(description)) FROM nodes').pluck().get()).toBeLessThanOrEqual(128),
  );
  add('topology', 'ibnetdiscover node description with markup (stored as text)', 'ok', [], {
    ibnetdiscover: { stdout: topo.replace('"spine-02"', '"<img src=x onerror=alert(1)>"') },
  });
  add('pm', 'ibqueryerrors SymbolErrorCounter of 2^64 - 1 (a value, not "absent")', 'ok', [], {
    [ERRS]: { stdout: errs.replace('[PortRcvErrors == 7]', '[PortRcvErrors == 18446744073709551615]'), exitCode: 1 },
  });
  add('pm', 'ibqueryerrors counter of 2^64 (beyond 64 bits)', 'partial', [/ibqueryerrors-errors:\d+/], {
    [ERRS]: { stdout: errs.replace('[PortRcvErrors == 7]', '[PortRcvErrors == 18446744073709551616]'), exitCode: 1 },
  });
  add('pm', 'ibqueryerrors a 4 MB line', 'partial', [/ibqueryerrors-errors:\d+/], {
    [ERRS]: {
      stdout: errs.replace('Errors for "dgx-0009 mlx5_0"', `${'q'.repeat(4 << 20)}\nErrors for "dgx-0009 mlx5_0"`),
      exitCode: 1,
    },
  });
  return cases;
}
