import { describe, expect, it } from 'vitest';
import { parseError } from '../common/parse-error.test-helper.ts';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTestsText } from './index.ts';

describe('damaged nccl-tests output', () => {
  it('keeps complete rows of output cut mid-table, flags it truncated and names the line', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.cut-mid-table.bad.txt'), {
      file: 'cut.txt',
    });
    expect(value.truncated).toBe(true);
    expect(value.rows).toHaveLength(27);
    expect(value.rows.at(-1)).toMatchObject({ line: 77, sizeBytes: 536870912, outOfPlace: { busbwGBs: 381.01 } });
    expect(value.avgBusBwGBs).toBeUndefined();
    expect(warnings).toEqual([
      {
        line: 78,
        file: 'cut.txt',
        message:
          'output cut mid-table: incomplete row at line 78 dropped (row has ' +
          '7 fields, expected 13); no "# Avg bus bandwidth" footer, 27 complete row(s) kept',
      },
    ]);
    // Everything before the cut is intact.
    expect(value.gdr.status).toBe('enabled');
    expect(value.hosts).toEqual(['dgx-h100-017', 'dgx-h100-018']);
  });

  it('skips a 5-field row in the middle of the table with a warning', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.short-row.bad.txt'));
    expect(value.rows).toHaveLength(30);
    expect(value.rows.some((r) => r.sizeBytes === 1048576)).toBe(false);
    expect(value.truncated).toBe(false);
    expect(warnings).toEqual([{ line: 49, message: 'row has 5 fields, expected 13; row skipped' }]);
  });

  it('parses CRLF output exactly like LF output', () => {
    const crlf = parseNcclTestsText(fixture('all_reduce_perf.crlf.bad.txt'));
    const lf = parseNcclTestsText(fixture('all_reduce_perf.multinode.good.txt'));
    expect(crlf).toEqual(lf);
    expect(crlf.value.rows).toHaveLength(31);
  });

  it('throws on empty input', () => {
    const err = parseError(() => parseNcclTestsText(fixture('empty.bad.txt'), { file: 'empty.bad.txt' }));
    expect(err).toMatchObject({ format: 'nccl-tests', file: 'empty.bad.txt', reason: 'empty input' });
    expect(err.line).toBeUndefined();
    expect(err.message).toBe('nccl-tests:empty.bad.txt: empty input');
    expect(() => parseNcclTestsText('\n\n  \n')).toThrow('nccl-tests: empty input');
  });

  it('throws on binary garbage naming line 1', () => {
    const err = parseError(() => parseNcclTestsText(fixture('binary-garbage.bad.txt')));
    expect(err.line).toBe(1);
    expect(err.reason).toBe('binary data, not nccl-tests output');
    expect(err.text?.startsWith('\u007fELF')).toBe(true);
  });

  it('throws on a table header without rows, naming the header line', () => {
    const err = parseError(() => parseNcclTestsText(fixture('header-only.bad.txt'), { file: 'h.txt' }));
    expect(err.line).toBe(30);
    expect(err.reason).toBe('table header without result rows');
    expect(err.message).toMatch(/^nccl-tests:h\.txt:30: table header without result rows: "#\s+size\s+count/);
  });

  it('throws when every row is malformed, naming the first', () => {
    const text = [
      '#       size         count      type   redop    root     time   ' +
        'algbw   busbw #wrong     time   algbw   busbw #wrong',
      '           8             2     float     sum      -1',
      '          16             4     float     sum      -1    123.2',
    ].join('\n');
    const err = parseError(() => parseNcclTestsText(text));
    expect(err.line).toBe(2);
    expect(err.reason).toBe('no usable result rows; row has 5 fields, expected 13');
    expect(err.text).toBe('           8             2     float     sum      -1');
  });

  it('throws on text that is not nccl-tests output', () => {
    const err = parseError(() => parseNcclTestsText('hello\nworld\n'));
    expect(err).toMatchObject({ line: 1, text: 'hello', reason: 'no nccl-tests result table found' });
  });

  it('ignores numeric lines before any table header and NCCL lines inside the table', () => {
    const text = [
      '42 7 things',
      '#       size         count      type   redop    root     time   ' +
        'algbw   busbw #wrong     time   algbw   busbw #wrong',
      'h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read',
      '        1024           256     float     sum      -1    20.00   ' +
        ' 0.05    0.10      0    19.00    0.05    0.11      0',
      '# Avg bus bandwidth    : 0.105 OK',
    ].join('\n');
    const { value, warnings } = parseNcclTestsText(text, { collective: 'all_reduce' });
    expect(warnings).toEqual([]);
    expect(value.rows).toHaveLength(1);
    expect(value.avgBusBwCheck).toBe('OK');
    expect(value.transports.kinds).toEqual({ 'P2P/CUMEM': 1 });
  });
});
