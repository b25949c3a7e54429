/**
 * The fast db_csv reader (db-csv.ts: bytes read in place, GUID interning, counter tables) gives
 * what the small reference reader (db-csv-reference.test-helper.ts) reads from the same file: on
 * both real runs and on generated directories of several sizes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchFabric } from '../../bench/fabric.ts';
import { writeIbdiagnetDir } from '../../bench/generate.ts';
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

  // The fat-tree of 8 GPUs is the smallest 3-tier one; 64 and 256 GPUs add SUs, pods and firmware drift.
  it.each([8, 64, 256])('on the generated directory of the %i-GPU fat-tree', async (gpus) => {
    const f = benchFabric(gpus);
    const dir = join(tmp, `gen-${gpus}`);
    await writeIbdiagnetDir(dir, f);
    const { fast, ref, warnings } = both(join(dir, 'ibdiagnet2.db_csv'));
    expect(warnings).toEqual([]);
    expect(ref.nodes).toHaveLength(f.topo.nodes.length);
    expect(ref.pmInfo).toHaveLength(f.connected.length);
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
