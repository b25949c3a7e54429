/**
 * The fast db_csv reader (db-csv.ts: bytes read in place, GUID interning, counter tables) gives
 * what the small reference reader (db-csv-reference.test-helper.ts) reads from the same file: on
 * both real runs and on generated directories of several sizes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateIbdiagnetDir } from '../../bench/generate.ts';
import { parseDbCsv } from './db-csv.ts';
import { dbCsvView, referenceDbCsv } from './db-csv-reference.test-helper.ts';
import { runA, runB } from './fixtures.test-helper.ts';

const tmp = mkdtempSync(join(tmpdir(), 'db-csv-ref-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Both readers on one file: the fast one from its bytes, as the collector hands them over. */
function both(path: string) {
  const bytes = readFileSync(path);
  const fast = parseDbCsv(bytes);
  return { fast: dbCsvView(fast.value), ref: referenceDbCsv(bytes.toString('utf8')), warnings: fast.warnings };
}

describe('the fast db_csv reader equals the reference reader', () => {
  it.each([
    ['ndr-fat-tree-a', runA],
    ['ndr-fat-tree-b', runB],
  ])('on the real run %s', (_name, dir) => {
    const { fast, ref, warnings } = both(resolve(dir, 'ibdiagnet2.db_csv'));
    expect(warnings).toEqual([]);
    // Not vacuous: the run has nodes, ports and links (and run A counters) to compare.
    expect(ref.nodes.length).toBeGreaterThan(200);
    expect(ref.links.length).toBeGreaterThan(200);
    expect(fast).toEqual(ref);
  });

  it.each([
    [1, 2],
    [3, 20],
    [12, 150],
  ])('on a generated directory of %i switches and %i HCAs', async (switches, hcas) => {
    const g = await generateIbdiagnetDir(join(tmp, `gen-${switches}-${hcas}`), { switches, hcas });
    const { fast, ref, warnings } = both(join(g.dir, 'ibdiagnet2.db_csv'));
    expect(warnings).toEqual([]);
    expect(ref.nodes).toHaveLength(g.nodes);
    expect(ref.pmInfo.length).toBeGreaterThan(0);
    expect(fast).toEqual(ref);
  });

  it('tells them apart when one cell differs (the comparison can fail)', () => {
    const text = readFileSync(resolve(runA, 'ibdiagnet2.db_csv'), 'utf8');
    // One PM_INFO SymbolErrorCounter cell of the first row, 0 -> 7, seen by the reference only.
    const [head, pm] = text.split('START_PM_INFO\n');
    const lines = pm!.split('\n');
    const cells = lines[1]!.split(',');
    cells[5] = '7';
    lines[1] = cells.join(',');
    const edited = `${head}START_PM_INFO\n${lines.join('\n')}`;
    const fast = dbCsvView(parseDbCsv(text).value);
    const ref = referenceDbCsv(edited);
    expect(ref.pmInfo[0]!.counters.SymbolErrorCounter).toBe(7n);
    expect(fast).not.toEqual(ref);
    expect(dbCsvView(parseDbCsv(edited).value)).toEqual(ref);
  });
});
