// Issue 14, defect 4: a line without an end cost quadratic time and its size in memory (a
// NUL-filled ibdiagnet2.log of 400 MB: 54 s, 1.7 GB; 1 GiB ran past 2 minutes). Lines over
// MAX_LINE_BYTES are not kept: their parser hears of them once, and reading goes on after them.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteLineSplitter, runLineParserChunks } from '../common/line-runner.ts';
import { LogParser } from './log.ts';
import { parseError } from '../common/parse-error.test-helper.ts';
import { fileChunks } from './fixtures.test-helper.ts';

const root = mkdtempSync(join(tmpdir(), 'ibw-lines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** The 1 MiB limit (MAX_LINE_BYTES), spelled out so that this test also runs against code without it. */
const LIMIT = 1 << 20;

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
    const line = Buffer.alloc(LIMIT, 0x62);
    for (let i = 0; i < line.length; i += 300_000) s.push(line.subarray(i, i + 300_000));
    s.push(Buffer.from('\nz'));
    s.end();
    expect(fed.map((l) => l.length)).toEqual([LIMIT, 1]);
  });

  it('a 1 GiB ibdiagnet2.log of NULs without a newline is refused at its first MiB: binary data, line 1', () => {
    const path = join(root, 'ibdiagnet2.log');
    writeFileSync(path, '');
    truncateSync(path, 1 << 30); // sparse: nothing written, reads as NULs
    const e = parseError(() => runLineParserChunks(new LogParser({ file: path }), fileChunks(path)));
    expect(e.message).toMatch(/^ibdiagnet2\.log:.*ibdiagnet2\.log:1: binary data/);
  });
});
