/**
 * Benchmark of `readIbdiagnetDir` against a floor: the time Node needs merely to read the same
 * files and split them into lines (same 1 MB UTF-8 stream + splitter, no parsing). Targets:
 * ≥ 50 MB/s and ≤ 3× the floor.
 *
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts [dir]
 *   node --import tsx packages/parsers/bench/ibdiagnet.bench.ts --generate [switches] [hcas]
 * Without a dir it generates a 10k-GPU directory (480 switches, 10 000 HCAs) in a temp dir.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ChunkLineSplitter } from '../src/ibdiagnet/line-source.ts';
import { readIbdiagnetDir } from '../src/ibdiagnet/directory.ts';
import { generateIbdiagnetDir } from './generate.ts';

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
  counts: { nodes: number; ports: number; links: number; counters: number };
}

async function readAndSplit(path: string): Promise<number> {
  let lines = 0;
  const splitter = new ChunkLineSplitter(() => { lines++; });
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) splitter.push(chunk as string);
  splitter.end();
  return lines;
}

async function best(runs: number, fn: () => Promise<unknown>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

/** Parse `dir` `runs` times and compare with reading + line-splitting the same files. */
export async function benchIbdiagnet(dir: string, runs = 3): Promise<BenchFigures> {
  const first = await readIbdiagnetDir(dir);
  const files = (first.value.meta.filesUsed ?? '').split(',').filter(Boolean);
  let bytes = 0;
  for (const f of files) bytes += (await stat(join(dir, f))).size;
  const parseMs = await best(runs, () => readIbdiagnetDir(dir));
  const floorMs = await best(runs, async () => { for (const f of files) await readAndSplit(join(dir, f)); });
  const mb = bytes / 1e6;
  const s = first.value;
  return {
    dir, files, bytes, parseMs, floorMs, parseMBps: mb / (parseMs / 1000), floorMBps: mb / (floorMs / 1000), ratio: parseMs / floorMs,
    counts: { nodes: s.nodes.length, ports: s.ports.length, links: s.links.length, counters: s.counters.length },
  };
}

function report(f: BenchFigures): string {
  return [
    `dir      ${f.dir}`,
    `files    ${f.files.join(', ')}  (${(f.bytes / 1e6).toFixed(1)} MB)`,
    `fabric   ${f.counts.nodes} nodes, ${f.counts.ports} ports, ${f.counts.links} links, ${f.counts.counters} PM rows`,
    `parse    ${f.parseMs.toFixed(0)} ms  ${f.parseMBps.toFixed(1)} MB/s`,
    `floor    ${f.floorMs.toFixed(0)} ms  ${f.floorMBps.toFixed(1)} MB/s  (read + split into lines)`,
    `ratio    ${f.ratio.toFixed(2)}x floor   (targets: >= 50 MB/s, <= 3x)`,
  ].join('\n');
}

async function main(args: string[]): Promise<void> {
  if (args[0] && args[0] !== '--generate') {
    console.log(report(await benchIbdiagnet(args[0])));
    return;
  }
  const switches = Number(args[1] ?? 480);
  const hcas = Number(args[2] ?? 10000);
  const dir = await mkdtemp(join(tmpdir(), 'ibdiagnet-bench-'));
  try {
    const g = await generateIbdiagnetDir(dir, { switches, hcas });
    console.log(`generated ${switches} switches, ${hcas} HCAs: ${g.nodes} nodes, ${g.ports} ports, ${g.links} links`);
    console.log(report(await benchIbdiagnet(dir)));
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
