// Issue 14, defects 4, 5 and 8: input files are checked for type and size before they are read,
// and a line without an end costs neither quadratic time nor its size in memory.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInputFile, readInputFile } from './input-file.ts';
import { readIbdiagnetDir } from './ibdiagnet/directory.ts';
import { ByteLineSplitter, MAX_LINE_BYTES } from './ibdiagnet/line-source.ts';
import { parseFile } from './ibdiagnet/read-file.ts';
import { LogParser } from './ibdiagnet/log.ts';
import { parseErrorAsync, parseError } from './ibdiagnet/test-errors.ts';
import { runA } from './ibdiagnet/test-support.ts';

const root = mkdtempSync(join(tmpdir(), 'ibw-input-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A copy of run A (symlinks to its files) with `name` replaced by what `make(path)` puts there. */
function runWith(name: string, make: (path: string) => void): string {
  const dir = join(root, `run-${n++}`);
  mkdirSync(dir);
  for (const f of readdirSync(runA)) if (f !== name) symlinkSync(join(runA, f), join(dir, f));
  make(join(dir, name));
  return dir;
}

const fifo = (path: string) => execFileSync('mkfifo', [path]);
const SPECIAL: [string, (path: string) => void, RegExp][] = [
  ['a FIFO', fifo, /not a regular file \(FIFO\)/],
  ['a symlink to /dev/zero', (p) => symlinkSync('/dev/zero', p), /not a regular file \(character device\)/],
  ['a directory', (p) => mkdirSync(p), /not a regular file \(directory\)/],
  ['a symlink to nothing', (p) => symlinkSync(join(root, 'nothing-here'), p), /no such file/],
];

describe('openInputFile()', () => {
  it.each(SPECIAL)('refuses %s with a ParseError naming it, without blocking', (_what, make, reason) => {
    const path = join(root, `special-${n++}`);
    make(path);
    const e = parseError(() => openInputFile(path, { format: 'nccl-tests' }));
    expect(e.format).toBe('nccl-tests');
    expect(e.file).toBe(path);
    expect(e.message).toMatch(reason);
  });

  it('refuses a file over the size limit before reading it, and reads one within it', () => {
    const path = join(root, 'sized');
    writeFileSync(path, 'x'.repeat(100));
    expect(parseError(() => readInputFile(path, { format: 'f', maxBytes: 99 })).message).toBe(
      `f:${path}: 100 bytes, more than the 99-byte limit; refused`,
    );
    expect(readInputFile(path, { format: 'f', maxBytes: 100 }).toString()).toBe('x'.repeat(100));
  });
});

describe('ByteLineSplitter and over-long lines', () => {
  it('hands the parser only the head of a line over the limit, keeps nothing of it, and goes on after it', () => {
    const fed: string[] = [];
    const skipped: string[] = [];
    const s = new ByteLineSplitter({ feed: (l) => void fed.push(l), skipLine: (h) => void skipped.push(h) }, false);
    const chunk = Buffer.alloc(1 << 20, 0x41);
    s.push(Buffer.from('first\n'));
    // 64 chunks of 1 MiB without a newline: the parser hears of the line once, when it passes the limit.
    for (let i = 0; i < 64; i++) {
      s.push(chunk);
      if (i === 0) expect(skipped).toEqual([]);
      if (i === 1) expect(skipped).toHaveLength(1);
    }
    s.push(Buffer.from('AAAA\nnext line\nlast'));
    s.end();
    expect(fed).toEqual(['first', 'next line', 'last']);
    expect(skipped).toEqual(['A'.repeat(256)]);
  });

  it('keeps a line of exactly the limit, cut by chunk boundaries', () => {
    const fed: string[] = [];
    const s = new ByteLineSplitter({ feed: (l) => void fed.push(l), skipLine: () => expect.fail('skipped') }, false);
    const line = Buffer.alloc(MAX_LINE_BYTES, 0x62);
    for (let i = 0; i < line.length; i += 300_000) s.push(line.subarray(i, i + 300_000));
    s.push(Buffer.from('\nz'));
    s.end();
    expect(fed.map((l) => l.length)).toEqual([MAX_LINE_BYTES, 1]);
  });

  it('a 1 GiB ibdiagnet2.log of NULs without a newline is refused at its first MiB: binary data, line 1', async () => {
    const path = join(root, 'ibdiagnet2.log');
    writeFileSync(path, '');
    truncateSync(path, 1 << 30); // sparse: nothing written, reads as NULs
    const e = await parseErrorAsync(() => parseFile(path, new LogParser({ file: path })));
    expect(e.message).toMatch(/^ibdiagnet2\.log:.*ibdiagnet2\.log:1: binary data/);
  });
});

describe('readIbdiagnetDir() and files that are not regular files', () => {
  it.each(SPECIAL)('db_csv as %s fails the read, naming the file and why', async (_what, make, reason) => {
    const dir = runWith('ibdiagnet2.db_csv', make);
    const e = await parseErrorAsync(() => readIbdiagnetDir(dir));
    expect(e.format).toBe('ibdiagnet2.db_csv');
    expect(e.message).toMatch(reason);
  });

  it.each(SPECIAL)('ibdiagnet2.sm as %s is skipped with a warning naming it', async (_what, make, reason) => {
    const dir = runWith('ibdiagnet2.sm', make);
    const { value, warnings } = await readIbdiagnetDir(dir);
    const w = warnings.find((x) => x.file?.endsWith('ibdiagnet2.sm'));
    expect(w?.message).toMatch(reason);
    expect(w?.message).toMatch(/^file skipped: /);
    expect(value.nodes).toHaveLength(272);
    // With strict, the same file fails the read.
    await expect(readIbdiagnetDir(dir, { strict: true })).rejects.toThrow(reason);
  });

  it('ibdiagnet2.log as a symlink to /dev/zero, and a 1 GiB log of NULs, are skipped, the rest is read', async () => {
    const zero = await readIbdiagnetDir(runWith('ibdiagnet2.log', (p) => symlinkSync('/dev/zero', p)));
    expect(zero.warnings.map((w) => w.message)).toContain(
      `file skipped: ibdiagnet2.log:${zero.warnings[0]?.file}: not a regular file (character device); refused`,
    );
    const nuls = await readIbdiagnetDir(
      runWith('ibdiagnet2.log', (p) => {
        writeFileSync(p, '');
        truncateSync(p, 1 << 30);
      }),
    );
    expect(nuls.warnings.some((w) => /ibdiagnet2\.log:1: binary data/.test(w.message))).toBe(true);
    expect(nuls.value.links).toHaveLength(271);
  });

  it('a file over the size limit is refused like a special file', async () => {
    // ibdiagnet2.pm is 1,197,143 bytes; the db_csv 968,119.
    const { value, warnings } = await readIbdiagnetDir(runA, { maxFileBytes: 1_000_000 });
    expect(warnings.map((w) => w.message)).toContain(
      `file skipped: ibdiagnet2.pm:${runA}/ibdiagnet2.pm: 1197143 bytes, more than the 1000000-byte limit; refused`,
    );
    expect(value.counters.rows).toBe(542);
    const e = await parseErrorAsync(() => readIbdiagnetDir(runA, { maxFileBytes: 900_000 }));
    expect(e.message).toMatch(/ibdiagnet2\.db_csv:.*: 968119 bytes, more than the 900000-byte limit; refused/);
  });
});
