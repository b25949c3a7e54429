// Issue 14, defect 9: a db_csv cut short, or missing sections its INDEX_TABLE lists, says so.
import { describe, expect, it } from 'vitest';
import { parseDbCsv } from './db-csv.ts';
import { parseError } from '../common/parse-error.test-helper.ts';
import { real, runA, runB } from './fixtures.test-helper.ts';

const LINES = real(runA, 'ibdiagnet2.db_csv').split('\n');
const upTo = (marker: string) => LINES.slice(0, LINES.indexOf(marker) + 1).join('\n') + '\n';
const without = (name: string) => {
  const s = LINES.indexOf(`START_${name}`);
  const e = LINES.indexOf(`END_${name}`);
  return [...LINES.slice(0, s), ...LINES.slice(e + 1)].join('\n');
};

describe('parseDbCsv() against the INDEX_TABLE ibdiagnet wrote', () => {
  it('reads the INDEX_TABLE of the real runs, which list exactly the sections they hold', () => {
    for (const run of [runA, runB]) {
      const r = parseDbCsv(real(run, 'ibdiagnet2.db_csv'));
      expect(r.warnings).toEqual([]);
      const names = r.value.sections.map((s) => s.name).filter((n) => n !== 'INDEX_TABLE');
      expect(r.value.index.map((e) => e.name)).toEqual(names);
    }
    const a = parseDbCsv(real(runA, 'ibdiagnet2.db_csv')).value;
    expect(a.indexLine).toBe(6214);
    expect(a.index.find((e) => e.name === 'PM_INFO')).toEqual({ name: 'PM_INFO', line: 3949, rows: 542 });
  });

  it('a file cut right after END_LINKS (its INDEX_TABLE gone) is a warning naming where it stops', () => {
    const r = parseDbCsv(upTo('END_LINKS'), { file: 'ibdiagnet2.db_csv' });
    expect(r.value.links).toHaveLength(271);
    expect(r.value.pmInfo.rows).toBe(0);
    expect(r.warnings).toEqual([
      {
        file: 'ibdiagnet2.db_csv',
        line: 3095,
        message:
          'file ends at line 3095, but its first line puts the INDEX_TABLE at line 6214: truncated, ' +
          'the sections written after LINKS are missing',
      },
    ]);
  });

  it('with strict, the same file fails', () => {
    const e = parseError(() => parseDbCsv(upTo('END_LINKS'), { file: 'ibdiagnet2.db_csv', strict: true }));
    expect(e.message).toMatch(/^ibdiagnet2\.db_csv:ibdiagnet2\.db_csv:3095: file ends at line 3095, but/);
  });

  it('sections the INDEX_TABLE lists but the file lacks are named, with their rows', () => {
    const text = without('SM_INFO').split('\n');
    const cut = text.slice(0, text.indexOf('START_PM_INFO')).concat(text.slice(text.indexOf('END_PM_INFO') + 1));
    const r = parseDbCsv(cut.join('\n'));
    expect(r.warnings.map((w) => w.message)).toEqual([
      'section(s) listed in INDEX_TABLE but missing from the file: SM_INFO (1 rows), PM_INFO (542 rows)',
    ]);
    expect(parseError(() => parseDbCsv(cut.join('\n'), { strict: true })).reason).toMatch(/SM_INFO \(1 rows\)/);
  });

  it('a file whose first line promises no INDEX_TABLE (line 0, hand-made files) is not held to one', () => {
    const text = ['# INDEX_TABLE offset:      0, line:        0', 'START_FOO', 'a,b', 'END_FOO'].join('\n');
    expect(parseDbCsv(text).warnings.filter((w) => /INDEX_TABLE/.test(w.message))).toEqual([]);
  });
});
