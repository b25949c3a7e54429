import { describe, expect, it } from 'vitest';
import { checkSizes, isCheckedSource, MAX_COLUMNS, MAX_LINES, sizeProblems } from './check-size.mjs';

const linesOf = (count, width = 10) => `${Array.from({ length: count }, () => 'x'.repeat(width)).join('\n')}\n`;

describe('check-size', () => {
  it('accepts a file of exactly 400 lines of 120 columns', () => {
    expect(sizeProblems('a.ts', linesOf(MAX_LINES, MAX_COLUMNS))).toEqual([]);
  });

  it('reports a file of 401 lines, and a line of 121 columns with its line number', () => {
    expect(sizeProblems('a.ts', linesOf(MAX_LINES + 1))).toEqual(['a.ts: 401 lines (max 400): split it by concern']);
    const text = `ok\n${'y'.repeat(MAX_COLUMNS + 1)}\r\nok\n`;
    expect(sizeProblems('b.tsx', text)).toEqual(['b.tsx:2: 121 columns (max 120)']);
  });

  it('counts characters, not bytes: 120 box-drawing characters fit', () => {
    expect(sizeProblems('c.ts', `${'─'.repeat(MAX_COLUMNS)}\n`)).toEqual([]);
  });

  it('checks source by extension and leaves fixtures and data alone', () => {
    expect(isCheckedSource('apps/web/src/styles.css')).toBe(true);
    expect(isCheckedSource('scripts/setup.sh')).toBe(true);
    expect(isCheckedSource('packages/parsers/fixtures/ibdiagnet2.db_csv')).toBe(false);
    expect(isCheckedSource('packages/parsers/fixtures/gen/big.ts')).toBe(false);
    expect(isCheckedSource('README.md')).toBe(false);
  });

  it('skips files under an exception and reports an exception that covers nothing', () => {
    const long = { path: 'pkg/src/long.ts', text: linesOf(MAX_LINES + 1) };
    const fine = { path: 'other/fine.ts', text: linesOf(3) };
    const exceptions = [
      { path: 'pkg/src/', owner: 'x', why: 'y' },
      { path: 'other/fine.ts', owner: 'x', why: 'y' },
    ];
    expect(checkSizes([long, fine], exceptions)).toEqual([
      "scripts/check-size.mjs: exception 'other/fine.ts' covers no file over the limits: remove it",
    ]);
    expect(checkSizes([long, fine], [])).toEqual(['pkg/src/long.ts: 401 lines (max 400): split it by concern']);
  });
});
