// Hostile things in the nccl drop directory (defects 2 and 3): each is put there, one round of
// the watcher runs, and the file is imported once, moved to failed/, or left where it is with a
// warning, while the watcher goes on with the rest.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARSER_FIXTURES, tempDir } from '../../reliability/support.ts';
import type { HostileCase } from './types.ts';

const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
let n = 0;
/** The good output made unique (the drop directory imports a content once). */
const good = (tag: string) => `${GOOD}# drop-dir case ${tag} ${++n}\n`;
/** Writes `content` to `p`, last modified 10 s ago: old enough for the watcher to take it. */
function put(p: string, content: string | Buffer): void {
  writeFileSync(p, content);
  const t = (Date.now() - 10_000) / 1000;
  utimesSync(p, t, t);
}

export function dropDirCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (
    file: string,
    name: string,
    expect: 'imported' | 'duplicate' | 'failed' | 'left',
    mentions: RegExp[],
    input: (path: string) => void,
  ) => cases.push({ format: 'drop-dir', file, name, expect, mentions, input });
  const special = /not a regular file \((.+)\): skipped; copy the output in instead/;

  add('dangling.out', 'a dangling symlink', 'left', [special, /symbolic link/], (p) => symlinkSync(`${p}.gone`, p));
  add('fifo.out', 'a FIFO', 'left', [/not a regular file \(FIFO\)/], (p) => void execFileSync('mkfifo', [p]));
  add('zero.out', 'a symlink to /dev/zero', 'left', [special], (p) => symlinkSync('/dev/zero', p));
  add('link.out', 'a symlink to a good output elsewhere (refused: copy, do not link)', 'left', [special], (p) => {
    const target = join(tempDir('drop-target'), 'job.out');
    writeFileSync(target, good('link'));
    symlinkSync(target, p);
  });
  add('job-dir.out', 'a directory named like an output (ignored, no warning)', 'left', [], (p) => mkdirSync(p));
  add('huge.out', 'a file of 65 MiB (sparse; moved to failed/ unread)', 'failed', [/too large/], (p) => {
    writeFileSync(p, '');
    truncateSync(p, 65 << 20);
    const t = (Date.now() - 10_000) / 1000;
    utimesSync(p, t, t);
  });
  add('empty.out', 'an empty file', 'failed', [/empty\.out/], (p) => put(p, ''));
  add('garbage.out', 'binary garbage', 'failed', [/garbage\.out:1: binary data/], (p) =>
    put(p, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256))),
  );
  // Written now: a job may still be writing it.
  add('fresh.out', 'a file still being written (modified just now)', 'left', [], (p) =>
    writeFileSync(p, good('fresh')),
  );
  add('-rf --no-preserve-root', 'a name starting with dashes', 'imported', [], (p) => put(p, good('dash')));
  add('job\nwith newline "and quotes".out', 'a name with a newline and quotes', 'imported', [], (p) =>
    put(p, good('newline')),
  );
  add(`${'n'.repeat(250)}.out`, 'a 254-character name', 'imported', [], (p) => put(p, good('long')));
  add('ジョブ-😀.out', 'a name in Japanese with an emoji', 'imported', [], (p) => put(p, good('utf8')));
  // The same content under a second name: the first is imported, the copy moved to imported/ without a second run.
  const twice = good('twice');
  add('first.out', 'a content dropped for the first time', 'imported', [], (p) => put(p, twice));
  add('again.out', 'the same content dropped again under another name (not imported again)', 'duplicate', [], (p) =>
    put(p, twice),
  );
  return cases;
}
