/**
 * Issue 37: a row with text before its first field (a damaged or prefixed line) was taken
 * silently in the sections whose first cell nothing checks: NODES (`xx"MF0;...",65,...` became a
 * node named `xx"MF0;..."`), RUN_INFO, WARNINGS_*, SM_INFO, INDEX_TABLE. Each is now skipped with
 * a warning naming file and line, as every other malformed row is (and a section left without a
 * valid row is refused, naming that line). Rows are the real run A's.
 */
import { describe, expect, it } from 'vitest';
import { parseError } from '../common/parse-error.test-helper.ts';
import { parseDbCsv } from './db-csv.ts';
import { real, runA } from './fixtures.test-helper.ts';

const FILE = 'ibdiagnet2.db_csv';
const LINES = real(runA, FILE).split('\n');

/** Run A with `prefix` put before the first data row of `section`; the row's 1-based line number. */
function prefixed(section: string, prefix: string): { text: string; line: number } {
  const lines = LINES.slice();
  const i = lines.indexOf(`START_${section}`) + 2;
  lines[i] = prefix + lines[i];
  return { text: lines.join('\n'), line: i + 1 };
}

const warningsOn = (text: string, line: number) =>
  parseDbCsv(text, { file: FILE })
    .warnings.filter((w) => w.line === line)
    .map((w) => `${w.file}:${w.line}: ${w.message}`);

describe('parseDbCsv() on a row with text before its first field', () => {
  it('skips a NODES row with text before its quoted NodeDesc, naming file and line', () => {
    const { text, line } = prefixed('NODES', 'xx');
    expect(line).toBe(31);
    expect(warningsOn(text, line)).toEqual([
      'ibdiagnet2.db_csv:31: NODES row skipped: stray quote in NodeDesc (text before its opening quote?)',
    ]);
    const r = parseDbCsv(text, { file: FILE });
    // The spine of that row is not taken under a name with quotes in it; the other nodes are.
    expect(r.value.nodes.find((n) => n.guid === '0xb0cf0e0300d33fc0')).toBeUndefined();
    expect(r.value.nodes.some((n) => n.description.includes('"'))).toBe(false);
    expect(r.value.nodes.length).toBe(parseDbCsv(LINES.join('\n')).value.nodes.length - 1);
  });

  it('skips a NODES row with garbage or a blank before its opening quote', () => {
    for (const prefix of ['#$%', ' ', '0x', '\u00e9']) {
      const { text, line } = prefixed('NODES', prefix);
      expect(warningsOn(text, line), JSON.stringify(prefix)).toEqual([
        `ibdiagnet2.db_csv:${line}: NODES row skipped: stray quote in NodeDesc (text before its opening quote?)`,
      ]);
    }
  });

  it('skips a quote inside an unquoted field of any later column too', () => {
    const lines = LINES.slice();
    const i = lines.indexOf('START_NODES') + 2;
    lines[i] = lines[i]!.replace(',65,', ',6"5,');
    expect(warningsOn(lines.join('\n'), i + 1)).toEqual([
      `ibdiagnet2.db_csv:${i + 1}: NODES row skipped: stray quote in NumPorts (text before its opening quote?)`,
    ]);
  });

  it('refuses a file whose only RUN_INFO row is prefixed, naming its line', () => {
    const { text, line } = prefixed('RUN_INFO', 'xx');
    const e = parseError(() => parseDbCsv(text, { file: FILE }));
    expect(e.line).toBe(line);
    expect(e.reason).toBe(
      'section RUN_INFO unusable, no valid row (stray quote in IBDIAGNET_Version (text before its opening quote?))',
    );
  });

  it('still reads a control character before a row as binary data, naming its line', () => {
    const { text, line } = prefixed('NODES', '\u0001');
    const e = parseError(() => parseDbCsv(text, { file: FILE }));
    expect(e.line).toBe(line);
    expect(e.reason).toBe('binary data in section NODES');
  });

  it('skips a WARNINGS_ row whose Scope has text before it', () => {
    const { text, line } = prefixed('WARNINGS_FW_CHECK', 'xx');
    expect(warningsOn(text, line)).toEqual([
      `ibdiagnet2.db_csv:${line}: WARNINGS_FW_CHECK row skipped: bad Scope "xxNODE"`,
    ]);
  });

  it('skips an SM_INFO row whose NodeGUID has text before it', () => {
    const { text, line } = prefixed('SM_INFO', 'xx');
    const e = parseError(() => parseDbCsv(text, { file: FILE }));
    // Run A's SM_INFO has one row: with it gone the section is unusable, named at that row.
    expect(e.line).toBe(line);
    expect(e.reason).toBe('section SM_INFO unusable, no valid row (bad NodeGUID "xx0xb0cf0e0300d33fc0")');
  });

  it('keeps an SM_INFO row whose NodeGUID is empty or all zeros', () => {
    for (const cell of ['', '0x0000000000000000']) {
      const lines = LINES.slice();
      const i = lines.indexOf('START_SM_INFO') + 2;
      lines[i] = lines[i]!.replace(/^[^,]*/, cell);
      const r = parseDbCsv(lines.join('\n'), { file: FILE });
      expect(r.value.sms.map((s) => s.nodeGuid)).toEqual([undefined]);
    }
  });

  it('skips an INDEX_TABLE row whose section name has text before it', () => {
    const { text, line } = prefixed('INDEX_TABLE', 'xx');
    expect(warningsOn(text, line)).toEqual([
      `ibdiagnet2.db_csv:${line}: INDEX_TABLE row skipped: bad section name "xxRUN_INFO"`,
    ]);
  });

  it('refuses a NODES section all of whose rows are prefixed, naming the first', () => {
    const lines = LINES.slice();
    const s = lines.indexOf('START_NODES');
    const e = lines.indexOf('END_NODES');
    for (let i = s + 2; i < e; i++) lines[i] = `xx${lines[i]}`;
    const err = parseError(() => parseDbCsv(lines.join('\n'), { file: FILE }));
    expect(err.line).toBe(s + 3);
    expect(err.reason).toMatch(/^section NODES unusable, no valid row \(stray quote in NodeDesc/);
  });
});
