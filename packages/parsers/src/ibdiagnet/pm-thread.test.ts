import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateIbdiagnetDir } from '../../bench/generate.ts';
import { ParseError } from '../parse-error.ts';
import { DbCsvParser } from './db-csv.ts';
import { readIbdiagnetDir } from './directory.ts';
import { joinPmPart, PmThread, postedTable, readDbCsvOnTwoThreads } from './pm-thread.ts';
import { parseFile } from './read-file.ts';
import { parseErrorAsync } from './test-errors.ts';
import { fixture, runA, runB } from './test-support.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'pm-thread-'));

/** readIbdiagnetDir on one thread and on two. */
async function bothWays(dir: string) {
  return {
    one: await readIbdiagnetDir(dir, { pmThread: false }),
    two: await readIbdiagnetDir(dir, { pmThread: true }),
  };
}

/** A copy of run A whose db_csv is `edit`ed. */
function runAWith(edit: (dbCsv: string) => string): string {
  const dir = tmp();
  cpSync(runA, dir, { recursive: true });
  const path = join(dir, 'ibdiagnet2.db_csv');
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

/** Replace the first data row of `section` (the line after its header) by `row`. */
const firstRow = (text: string, section: string, row: string): string => {
  const lines = text.split('\n');
  const at = lines.indexOf(`START_${section}`) + 2;
  lines[at] = row;
  return lines.join('\n');
};

describe('the PM rows of a db_csv read on a worker thread', () => {
  it('give the same snapshot and warnings as one thread, for both real runs', async () => {
    for (const dir of [runA, runB]) {
      const { one, two } = await bothWays(dir);
      expect(two).toEqual(one);
    }
    const read = await readDbCsvOnTwoThreads(join(runA, 'ibdiagnet2.db_csv'));
    expect(read.main.value.pmInfo.rows).toBe(0);
    const joined = await read.join();
    expect(read.pmReadBy).toBe('worker');
    expect([joined.value.pmInfo.rows, joined.value.pmDelta.rows]).toEqual([542, 542]);
  });

  it('give the same snapshot for a generated 1k-HCA fabric, 64-bit counters included', async () => {
    const g = await generateIbdiagnetDir(join(tmp(), 'ibdiagnet2'), { switches: 48, hcas: 1000 });
    const { one, two } = await bothWays(g.dir);
    expect(two).toEqual(one);
    const c = two.value.counters;
    // A PM row per port that is up: every port but the DOWN ones .net_dump adds.
    expect(c.rows).toBe(g.ports - g.downPorts);
    const data = c.columns.find((col) => col.name === 'PortXmitDataExtended')!;
    expect(data.hi.some((h) => h > 0)).toBe(true);
    // Generating and reading 1k HCAs three ways takes ~3 s alone, more on a busy 2-core machine.
  }, 60_000);

  it('merge the warnings of both threads in file order', async () => {
    const dir = runAWith((t) => {
      let out = firstRow(t, 'PORTS', '0xb0cf0e0300d33fc0,0xb0cf0e0300d33fc0,1,2,3');
      out = firstRow(out, 'LINKS', 'garbage,1,0xb0cf0e0300d33fc0,2');
      out = firstRow(
        out,
        'PM_INFO',
        out.split('\n')[out.split('\n').indexOf('START_PM_INFO') + 2]!.replace(/,0,/, ',zz,'),
      );
      return firstRow(
        out,
        'PM_DELTA',
        'not-a-guid' + out.split('\n')[out.split('\n').indexOf('START_PM_DELTA') + 2]!.slice(18),
      );
    });
    const { one, two } = await bothWays(dir);
    expect(two).toEqual(one);
    const messages = two.warnings.map((w) => w.message);
    expect(messages.map((m) => m.split(' ')[0])).toEqual([
      'ibdiagnet2.cables',
      'PORTS',
      'LINKS',
      'PM_INFO',
      'PM_DELTA',
    ]);
    expect(messages[3]).toMatch(/^PM_INFO column \w+: 1 invalid value\(s\) skipped \(first: "zz"/);
  });

  it('throw the ParseError a single thread throws, the earlier one in the file first', async () => {
    const rows =
      (section: string) =>
      (t: string, row: (r: string) => string): string => {
        const lines = t.split('\n');
        const start = lines.indexOf(`START_${section}`) + 2;
        const end = lines.indexOf(`END_${section}`);
        for (let i = start; i < end; i++) lines[i] = row(lines[i]!);
        return lines.join('\n');
      };
    const pmInfoRows = rows('PM_INFO');
    const cases = [
      // Every PM_INFO row refused: the worker's error.
      runAWith((t) => pmInfoRows(t, (r) => 'x' + r)),
      // Binary data in a PM_DELTA row.
      runAWith((t) => firstRow(t, 'PM_DELTA', '\u0000\u0001\u0002\u0003garbage')),
      // An unusable PORTS section (earlier) and an unusable PM_INFO (later): PORTS's error.
      runAWith((t) =>
        pmInfoRows(
          firstRow(t, 'PORTS', 'x').replace(/\n0x[^\n]*(?=\n(?:0x[^\n]*\n)*END_PORTS)/g, '\nx'),
          (r) => 'x' + r,
        ),
      ),
      // Cut inside PM_DELTA: both threads find the missing END_PM_DELTA.
      runAWith((t) => t.slice(0, t.indexOf('END_PM_DELTA'))),
      // An unusable PM_INFO (the worker's) before an unusable TEMP_SENSING (the main thread's).
      runAWith((t) =>
        rows('TEMP_SENSING')(
          pmInfoRows(t, (r) => 'x' + r),
          (r) => 'x' + r,
        ),
      ),
    ];
    const reasons: string[] = [];
    for (const dir of cases) {
      const one = await parseErrorAsync(() => readIbdiagnetDir(dir, { pmThread: false }));
      const two = await parseErrorAsync(() => readIbdiagnetDir(dir, { pmThread: true }));
      expect(two.message).toBe(one.message);
      reasons.push(one.reason);
    }
    expect(reasons[0]).toMatch(/^section PM_INFO unusable, no valid row \(bad NodeGUID/);
    expect(reasons[1]).toBe('binary data in section PM_DELTA');
    expect(reasons[2]).toMatch(/^section PORTS unusable/);
    expect(reasons[3]).toBe('section PM_DELTA never ends (END_PM_DELTA missing: file truncated?)');
    expect(reasons[4]).toMatch(/^section PM_INFO unusable/);
  });

  it('are read on the main thread after all when the worker cannot start', async () => {
    const broken = new PmThread(new URL('./no-such-worker.mjs', import.meta.url));
    const path = join(runA, 'ibdiagnet2.db_csv');
    const read = await readDbCsvOnTwoThreads(path, broken);
    const joined = await read.join();
    expect(read.pmReadBy).toBe('main thread');
    const alone = await parseFile(path, new DbCsvParser({ file: path }));
    expect(joined).toEqual(alone);
  });

  it('wait for a worker that is loaded: the first call starts it, and reports ready once it is', async () => {
    const t = new PmThread();
    expect(t.warm()).toBe(false);
    const until = Date.now() + 20_000;
    while (!t.warm() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(t.warm()).toBe(true);
    const broken = new PmThread(new URL('./no-such-worker.mjs', import.meta.url));
    broken.warm();
    await new Promise((r) => setTimeout(r, 200));
    expect(broken.warm()).toBe(false);
  });

  it('refuse to join two parts that read different runs of the file', async () => {
    const text = fixture('minimal.good.db_csv');
    const dir = tmp();
    const path = join(dir, 'ibdiagnet2.db_csv');
    writeFileSync(path, text);
    const mainParser = new DbCsvParser({ file: path, pm: 'skip' });
    const main = await parseFile(path, mainParser);
    writeFileSync(path, text.replace('2025-03-31 23:43:18', '2025-04-01 00:00:00'));
    const pmParser = new DbCsvParser({ file: path, pm: 'only' });
    const { value, warnings } = await parseFile(path, pmParser);
    const part = {
      pmInfo: postedTable(value.pmInfo),
      pmDelta: postedTable(value.pmDelta),
      runTimestamp: value.runTimestamp,
      sections: value.sections,
      warnings,
      warnedAt: pmParser.warnedAt,
    };
    const err = (() => {
      try {
        joinPmPart(path, main, mainParser.warnedAt, part);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).reason).toMatch(/^file changed while it was read/);
  });
});
