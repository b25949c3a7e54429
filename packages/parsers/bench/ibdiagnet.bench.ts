/**
 * Benchmark of `readIbdiagnetRun` (over 1 MB chunks read from disk, as the collector reads) and
 * of `ibqueryerrorsTable` against a floor: the time
 * Node needs merely to read the same files and split them into lines as strings (1 MB UTF-8
 * stream + splitter, no parsing). The parse figures include reading: the parsers get the files'
 * bytes (the directory in 1 MB chunks, ibqueryerrorsTable a Buffer read with readFile),
 * exactly as the floor includes its reading. Both produce their counters as CounterTables, as
 * the collector uses them. Targets: ≥ 50 MB/s and ≤ 3× the floor. CPU and wall time are both
 * reported (best and median of the runs; see measure.ts for why).
 *
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts [dir]
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts --generate [gpus] [runs]
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts --json <dir> <runs>
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts --json-ibqueryerrors <runs> <file...>
 * Without a dir it generates, in a temp dir, the ibdiagnet2 directory of the 3-tier fat-tree of
 * `gpus` GPUs (default 10 000: 929 switches, 10 002 HCAs; see fabric.ts) and the two
 * ibqueryerrors outputs of a fabric of as many switches and HCAs.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readRunDir } from '../src/ibdiagnet/fixtures.test-helper.ts';
import { benchFabric, sizeLabel } from './fabric.ts';
import { writeIbdiagnetDir } from './generate.ts';
import { benchIbqueryerrors, reportIbqueryerrors } from './ibqueryerrors.bench.ts';
import { generateIbqueryerrors } from './ibqueryerrors-generate.ts';
import { line, measureRounds, readAndSplit, readAndTouch } from './measure.ts';
import type { Timing } from './measure.ts';

export interface BenchFigures {
  dir: string;
  /** Files the reader parsed (from the snapshot's `meta.filesUsed`) and their total size. */
  files: string[];
  bytes: number;
  /** Best of `runs` wall-clock times. */
  parseMs: number;
  floorMs: number;
  parseMBps: number;
  floorMBps: number;
  /** parseMs / floorMs. */
  ratio: number;
  /** CPU and wall time, best and median, of the parse and of the floor. */
  parse: Timing;
  floor: Timing;
  /** Reading the files and looking at every byte once in JavaScript (see `readAndTouch`). */
  touch: Timing;
  /** parse.cpuMs / floor.cpuMs: the figure that holds on a busy machine. */
  cpuRatio: number;
  counts: { nodes: number; ports: number; links: number; counters: number };
}

/** Parse `dir` `runs` times and compare with reading + line-splitting the same files. */
export async function benchIbdiagnet(dir: string, runs = 5): Promise<BenchFigures> {
  const first = readRunDir(dir);
  const files = (first.value.meta.filesUsed ?? '').split(',').filter(Boolean);
  let bytes = 0;
  for (const f of files) bytes += (await stat(join(dir, f))).size;
  const { parse, floor, touch } = await measureRounds(runs, {
    parse: async () => readRunDir(dir),
    floor: async () => {
      for (const f of files) await readAndSplit(join(dir, f));
    },
    touch: async () => {
      for (const f of files) await readAndTouch(join(dir, f));
    },
  });
  const mb = bytes / 1e6;
  const s = first.value;
  return {
    dir,
    files,
    bytes,
    parseMs: parse.wallMs,
    floorMs: floor.wallMs,
    parseMBps: mb / (parse.wallMs / 1000),
    floorMBps: mb / (floor.wallMs / 1000),
    ratio: parse.wallMs / floor.wallMs,
    parse,
    floor,
    touch,
    cpuRatio: parse.cpuMs / floor.cpuMs,
    counts: { nodes: s.nodes.length, ports: s.ports.length, links: s.links.length, counters: s.counters.rows },
  };
}

function report(f: BenchFigures): string {
  const mb = f.bytes / 1e6;
  return [
    `dir      ${f.dir}`,
    `files    ${f.files.join(', ')}  (${mb.toFixed(1)} MB)`,
    `fabric   ${f.counts.nodes} nodes, ${f.counts.ports} ports, ${f.counts.links} links, ${f.counts.counters} PM rows`,
    line('parse', f.parse, mb) + '  (read the bytes + parse)',
    line('floor', f.floor, mb) + '  (read + split into lines)',
    line('touch', f.touch, mb) +
      `  (read + a JS loop over every byte: ${(f.touch.wallMs / f.floor.wallMs).toFixed(2)}x the floor)`,
    `ratio    ${f.cpuRatio.toFixed(2)}x floor (cpu), ${f.ratio.toFixed(2)}x (wall)   (targets: >= 50 MB/s, <= 3x)`,
  ].join('\n');
}

/**
 * `--json <dir> <runs>` and `--json-ibqueryerrors <runs> <file...>`: the figures as one JSON
 * line, for `pnpm bench`, which runs each in a process of its own so that the generator's, the
 * other stages' and the other benchmark's heaps do not weigh on the parsers' garbage collection.
 */
async function json(args: string[]): Promise<void> {
  const [dir, runs] = args;
  console.log(JSON.stringify(await benchIbdiagnet(dir!, Number(runs))));
}

async function jsonIbqueryerrors(args: string[]): Promise<void> {
  const [runs, ...files] = args;
  console.log(JSON.stringify(await benchIbqueryerrors(files, Number(runs))));
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--json') return json(args.slice(1));
  if (args[0] === '--json-ibqueryerrors') return jsonIbqueryerrors(args.slice(1));
  if (args[0] && args[0] !== '--generate') {
    console.log(report(await benchIbdiagnet(args[0])));
    return;
  }
  const gpus = Number(args[1] ?? 10000);
  const runs = Number(args[2] ?? 5);
  const dir = await mkdtemp(join(tmpdir(), 'ibdiagnet-bench-'));
  try {
    const f = benchFabric(gpus);
    const run = join(dir, 'ibdiagnet2');
    await writeIbdiagnetDir(run, f);
    console.log(`generated ${sizeLabel(f)}, ${f.topo.links.length} links`);
    console.log(report(await benchIbdiagnet(run, runs)));
    const q = generateIbqueryerrors({ switches: f.switches.length, hcas: f.cas.length });
    const counters = join(dir, 'ibqueryerrors-counters.txt');
    const data = join(dir, 'ibqueryerrors-data.txt');
    await writeFile(counters, q.counters);
    await writeFile(data, q.data);
    // The figure of issue 3: the --counters output (every port, every sweep) through ibqueryerrorsTable.
    console.log(`\nibqueryerrors --counters: ${q.counterPorts} ports -> ibqueryerrorsTable`);
    console.log(reportIbqueryerrors(await benchIbqueryerrors([counters], runs)));
    console.log(`\nibqueryerrors --data --threshold-file /dev/null: ${q.dataPorts} port lines -> ibqueryerrorsTable`);
    console.log(reportIbqueryerrors(await benchIbqueryerrors([data], runs)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
