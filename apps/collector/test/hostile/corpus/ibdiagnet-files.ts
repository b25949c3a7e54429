// Hostile ibdiagnet2 directories, file by file: special files where a file should be, files of
// absurd size or without a newline, and db_csv files cut short at every section boundary.
// The base is run A without its .cables (a file of an older run): it imports clean ('ok').
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../reliability/support.ts';
import { DB, dbLines, runDir, section, without } from '../../reliability/corpus/run-dirs.ts';
import type { HostileCase } from './types.ts';

type Ibd = Extract<HostileCase, { format: 'ibdiagnet2' }>;
const CABLES = 'ibdiagnet2.cables';

/** Run A (without .cables) with `file` made by `make(path)` instead. */
function runWith(name: string, file: string, make: (path: string) => void): string {
  const dir = runDir(name.replace(/\W+/g, '-'), { [CABLES]: null, [file]: null });
  make(join(dir, file));
  return dir;
}

const fifo = (p: string) => void execFileSync('mkfifo', [p]);
/** A sparse file of `bytes` NULs: nothing written to the disk, read back as zeros. */
const sparse = (bytes: number) => (p: string) => {
  writeFileSync(p, '');
  truncateSync(p, bytes);
};
const SPECIAL: [string, (p: string) => void, RegExp][] = [
  ['a FIFO', fifo, /not a regular file \(FIFO\)/],
  ['a symlink to /dev/zero', (p) => symlinkSync('/dev/zero', p), /not a regular file \(character device\)/],
  ['a directory', (p) => mkdirSync(p), /not a regular file \(directory\)/],
  ['a dangling symlink', (p) => symlinkSync(`${p}.gone`, p), /no such file \(or a symbolic link to nothing\)/],
];

export function ibdiagnetFileCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: Omit<Ibd, 'format'>) => cases.push({ format: 'ibdiagnet2', ...c });

  // The primary file as something that is not a file: the import fails saying what it is.
  for (const [what, make, reason] of SPECIAL) {
    add({
      name: `db_csv is ${what}`,
      expect: 'failed',
      mentions: [/ibdiagnet2\.db_csv/, reason],
      input: () => runWith(`db-${what}`, DB, make),
    });
  }
  // A secondary file as one: skipped with a warning naming it, the rest imported.
  for (const file of ['ibdiagnet2.log', 'ibdiagnet2.sm', 'ibdiagnet2.net_dump']) {
    for (const [what, make, reason] of SPECIAL) {
      add({
        name: `${file.slice(11)} is ${what}`,
        expect: 'partial',
        mentions: [new RegExp(`file skipped: ${file.replace('.', '\\.')}:.*`), reason],
        input: () => runWith(`${file}-${what}`, file, make),
      });
    }
  }
  for (const file of ['ibdiagnet2.pm', 'ibdiagnet2.lst', CABLES]) {
    add({
      name: `${file.slice(11)} is a FIFO (a file db_csv makes redundant is checked too)`,
      expect: 'partial',
      mentions: [/not a regular file \(FIFO\)/],
      input: () => runWith(`${file}-fifo`, file, fifo),
    });
  }
  add({
    name: '.log a symlink loop',
    expect: 'partial',
    mentions: [/ibdiagnet2\.log.*symbolic link loop/],
    input: () => runWith('loop', 'ibdiagnet2.log', (p) => symlinkSync(p, p)),
  });

  // Sizes and lines (defect 4): linear, bounded, and refused fast.
  add({
    name: '.log 1 GiB of NULs, no newline (sparse)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.log:1: binary data/],
    input: () => runWith('log-nul', 'ibdiagnet2.log', sparse(1 << 30)),
  });
  add({
    name: '.sm 64 MiB of "x", no newline',
    expect: 'partial',
    mentions: [/file skipped: ibdiagnet2\.sm:.*: no ibdiagnet content/],
    input: () => runWith('sm-x', 'ibdiagnet2.sm', (p) => writeFileSync(p, Buffer.alloc(64 << 20, 0x78))),
  });
  add({
    name: 'db_csv 1 GiB of NULs (sparse)',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:1: binary data, not a db_csv/],
    input: () => runWith('db-nul', DB, sparse(1 << 30)),
  });
  add({
    name: 'db_csv of 2 GiB (over the 1 GiB limit, sparse)',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:.*2147483648 bytes, more than the 1073741824-byte limit; refused/],
    input: () => runWith('db-2g', DB, sparse(2 * 2 ** 30)),
  });
  add({
    name: 'db_csv with a 3 MB line inside PORTS (row skipped)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+: PORTS row skipped: line longer than 1048576 bytes/],
    input: () => {
      const l = dbLines();
      l.splice(section(l, 'PORTS')[0] + 3, 0, '9'.repeat(3 << 20));
      return runDir('db-long-ports', { [CABLES]: null, [DB]: l.join('\n') });
    },
  });
  add({
    name: 'the directory is a FIFO',
    expect: 'failed',
    mentions: [/not a directory/],
    input: () => {
      const p = join(tempDir('ibd'), 'fifo-dir');
      fifo(p);
      return p;
    },
  });
  add({
    name: 'the directory is /dev/null',
    expect: 'failed',
    mentions: [/not a directory/],
    input: () => '/dev/null',
  });

  // db_csv cut short (defect 9): at each section end its first line still promises the
  // INDEX_TABLE at line 6214; every cut is a warning naming where the file stops.
  for (const after of ['NODES', 'PORTS', 'LINKS', 'SM_INFO', 'PM_INFO', 'PM_DELTA', 'TEMP_SENSING']) {
    add({
      name: `db_csv cut right after END_${after}`,
      expect: 'partial',
      mentions: [new RegExp(`truncated, the sections written after ${after} are missing`)],
      input: () => {
        const l = dbLines();
        return runDir(`cut-${after}`, { [CABLES]: null, [DB]: l.slice(0, section(l, after)[1] + 1).join('\n') });
      },
    });
  }
  add({
    name: 'db_csv cut inside its INDEX_TABLE',
    expect: 'failed',
    mentions: [/section INDEX_TABLE never ends/],
    input: () => {
      const l = dbLines();
      return runDir('cut-index', { [CABLES]: null, [DB]: l.slice(0, section(l, 'INDEX_TABLE')[0] + 5).join('\n') });
    },
  });
  add({
    name: 'db_csv without SM_INFO and PM_DELTA its INDEX_TABLE lists',
    expect: 'partial',
    mentions: [/listed in INDEX_TABLE but missing from the file: SM_INFO \(1 rows\), PM_DELTA \(542 rows\)/],
    input: () =>
      runDir('gone', { [CABLES]: null, [DB]: without(without(dbLines(), 'SM_INFO'), 'PM_DELTA').join('\n') }),
  });
  add({
    name: 'db_csv cut right after END_LINKS, strict import',
    expect: 'failed',
    strict: true,
    mentions: [/ibdiagnet2\.db_csv:3095: file ends at line 3095/],
    input: () => {
      const l = dbLines();
      return runDir('cut-strict', { [CABLES]: null, [DB]: l.slice(0, section(l, 'LINKS')[1] + 1).join('\n') });
    },
  });
  return cases;
}
