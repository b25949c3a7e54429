/**
 * The db_csv and the other ibdiagnet2 files parsed from their bytes (what `readIbdiagnetRun`
 * reads) give exactly what the decoded text gives: values, warnings and ParseErrors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbCsvParser, parseDbCsv, parseDbCsvAsync } from './db-csv.ts';
import { ByteLineSplitter } from '../common/line-runner.ts';
import { parseIbdiagnetFiles } from './parse-files.ts';
import { fixturesDir, runA, runB } from './fixtures.test-helper.ts';

const DB_CSVS = [
  ...readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.db_csv'))
    .map((f) => resolve(fixturesDir, f)),
  resolve(runA, 'ibdiagnet2.db_csv'),
  resolve(runB, 'ibdiagnet2.db_csv'),
];

/** The same output with CRLF, a BOM, a multi-byte node description, cut mid-line. */
const VARIANTS: [string, (b: Buffer) => Buffer][] = [
  ['as is', (b) => b],
  ['CRLF', (b) => Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')],
  ['BOM', (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
  ['multi-byte description', (b) => Buffer.from(b.toString('utf8').replace('"', '"ärger ☃ 日本 '))],
  ['cut mid-line', (b) => b.subarray(0, Math.floor(b.length / 3))],
  [
    'cut inside a multi-byte character',
    (b) => {
      const m = Buffer.from(b.toString('utf8').replace('"', '"☃'));
      return m.subarray(0, m.indexOf('☃') + 2);
    },
  ],
];

function outcome(parse: () => unknown): unknown {
  try {
    return parse();
  } catch (e) {
    const { format, file, line, text, message } = e as {
      format: string;
      file: string;
      line: number;
      text: string;
      message: string;
    };
    return { error: { name: (e as Error).constructor.name, format, file, line, text, message } };
  }
}

describe('parseDbCsv() from bytes', () => {
  for (const path of DB_CSVS) {
    it(`gives what the text gives: ${path.slice(path.lastIndexOf('/', path.lastIndexOf('/') - 1) + 1)}`, () => {
      for (const [name, variant] of VARIANTS) {
        const bytes = variant(readFileSync(path));
        const want = outcome(() => parseDbCsv(bytes.toString('utf8'), { file: 'x.db_csv' }));
        expect(
          outcome(() => parseDbCsv(bytes, { file: 'x.db_csv' })),
          name,
        ).toEqual(want);
      }
    });
  }

  it('reads rows cut by chunk boundaries as whole rows (1 MB chunks of a 60 MB file, here 7 bytes)', () => {
    const bytes = readFileSync(resolve(runA, 'ibdiagnet2.db_csv'));
    const parser = new DbCsvParser({ file: 'x.db_csv' });
    const splitter = new ByteLineSplitter(parser, false);
    // One re-used buffer, as the collector's file reader reads: what the splitter keeps must be a copy.
    const buf = Buffer.alloc(7);
    for (let i = 0; i < bytes.length; i += 7) {
      const n = bytes.copy(buf, 0, i, i + 7);
      splitter.push(buf.subarray(0, n));
    }
    splitter.end();
    expect(parser.finish()).toEqual(parseDbCsv(bytes, { file: 'x.db_csv' }));
  });

  it('gives what rows fed as strings give (an iterable of lines)', async () => {
    const bytes = readFileSync(resolve(fixturesDir, 'cut-quoted-row.good.db_csv'));
    const lines = bytes.toString('utf8').replace('"', '"ärger ☃ ').split('\n');
    expect(await parseDbCsvAsync(lines, { file: 'x' })).toEqual(
      parseDbCsv(Buffer.from(lines.join('\n')), { file: 'x' }),
    );
  });
});

describe('parseIbdiagnetFiles() from bytes', () => {
  it('gives what the texts give for every file of a real run, in every variant', () => {
    const files = {
      netDump: 'ibdiagnet2.net_dump',
      pm: 'ibdiagnet2.pm',
      log: 'ibdiagnet2.log',
      sm: 'ibdiagnet2.sm',
      dbCsv: 'ibdiagnet2.db_csv',
    } as const;
    for (const [name, variant] of VARIANTS) {
      const bytes = Object.fromEntries(
        Object.entries(files).map(([k, f]) => [k, variant(readFileSync(resolve(runA, f)))]),
      );
      const texts = Object.fromEntries(Object.entries(bytes).map(([k, b]) => [k, b.toString('utf8')]));
      expect(
        outcome(() => parseIbdiagnetFiles(bytes)),
        name,
      ).toEqual(outcome(() => parseIbdiagnetFiles(texts)));
    }
    // Every variant of five real files parsed twice: ~1 s alone, several on a loaded machine.
  }, 60_000);
});
