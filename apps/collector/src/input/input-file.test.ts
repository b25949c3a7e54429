// Issue 14, defects 5 and 8: input files are checked for type and size before they are read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParseError } from '@ibwatch/parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_A as runA } from '../test-support.ts';
import { readIbdiagnetDir } from './ibdiagnet-dir.ts';
import { openInputFile, readInputFile } from './input-file.ts';

/** The ParseError `fn` throws (or rejects with); any other outcome fails the test. */
async function parseErrorAsync(fn: () => unknown): Promise<ParseError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error('expected a ParseError');
}

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
  it.each(SPECIAL)('refuses %s with a ParseError naming it, without blocking', async (_what, make, reason) => {
    const path = join(root, `special-${n++}`);
    make(path);
    const e = await parseErrorAsync(() => openInputFile(path, { format: 'nccl-tests' }));
    expect(e.format).toBe('nccl-tests');
    expect(e.file).toBe(path);
    expect(e.message).toMatch(reason);
  });

  it('refuses a file over the size limit before reading it, and reads one within it', async () => {
    const path = join(root, 'sized');
    writeFileSync(path, 'x'.repeat(100));
    expect((await parseErrorAsync(() => readInputFile(path, { format: 'f', maxBytes: 99 }))).message).toBe(
      `f:${path}: 100 bytes, more than the 99-byte limit; refused`,
    );
    expect(readInputFile(path, { format: 'f', maxBytes: 100 }).toString()).toBe('x'.repeat(100));
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
