/**
 * Benchmark of `ibqueryerrorsTable` on whole files, as the collector uses it (the tool's stdout
 * as one Buffer of bytes, straight into a CounterTable), against the read-and-split floor. The
 * parse time includes reading the file into that Buffer, as the floor's includes reading it.
 * Run through ibdiagnet.bench.ts, or:
 *
 *   node --import tsx packages/parsers/bench/ibqueryerrors.bench.ts <file>...
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ibqueryerrorsTable } from '../src/diags/ibqueryerrors-table.ts';
import { line, measureRounds, readAndSplit } from './measure.ts';
import type { Timing } from './measure.ts';

export interface IbqeBenchFigures {
  files: string[];
  bytes: number;
  /** Table rows (ports) the parser returned, over all files. */
  ports: number;
  parse: Timing;
  floor: Timing;
  /** parse.cpuMs / floor.cpuMs. */
  cpuRatio: number;
  /** parse.wallMs / floor.wallMs. */
  ratio: number;
}

const parseAll = async (files: string[]): Promise<number> => {
  let ports = 0;
  for (const f of files) ports += ibqueryerrorsTable(await readFile(f), { file: f }).value.table.rows;
  return ports;
};

/** Parse `files` `runs` times and compare with reading + line-splitting them. */
export async function benchIbqueryerrors(files: string[], runs = 5): Promise<IbqeBenchFigures> {
  let bytes = 0;
  for (const f of files) bytes += (await stat(f)).size;
  // Warm: the collector parses this output every sweep, so its steady state is the figure.
  // One run of a 5 MB error-mode output is too short for V8 to have optimised the reader: 3
  // runs and at least half a second (its parse took 28 ms after 3 runs, 16 ms after 20).
  let ports = 0;
  const warmUntil = performance.now() + 500;
  for (let i = 0; i < 3 || performance.now() < warmUntil; i++) ports = await parseAll(files);
  const { parse, floor } = await measureRounds(runs, {
    parse: () => parseAll(files),
    floor: async () => {
      for (const f of files) await readAndSplit(f);
    },
  });
  return { files, bytes, ports, parse, floor, cpuRatio: parse.cpuMs / floor.cpuMs, ratio: parse.wallMs / floor.wallMs };
}

export function reportIbqueryerrors(f: IbqeBenchFigures): string {
  const mb = f.bytes / 1e6;
  return [
    `files    ${f.files.map((p) => basename(p)).join(', ')}  (${mb.toFixed(1)} MB, ${f.ports} table rows)`,
    line('parse', f.parse, mb) + '  (read into a Buffer + parse the bytes)',
    line('floor', f.floor, mb) + '  (read + split into lines)',
    `ratio    ${f.cpuRatio.toFixed(2)}x floor (cpu), ${f.ratio.toFixed(2)}x (wall)   (targets: >= 50 MB/s, <= 3x)`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchIbqueryerrors(process.argv.slice(2)).then(
    (f) => console.log(reportIbqueryerrors(f)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
