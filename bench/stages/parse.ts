/**
 * Parsers against their floor (issue 3): the ibdiagnet2 directory and one sweep's
 * `ibqueryerrors --counters` output through packages/parsers' own benchmark (parse vs read +
 * split into lines, best of the runs, wall time; the CPU-time ratio is in the note). Parse times
 * include reading, as the floor's do: the parsers get the bytes as read (a Buffer, as the
 * collector hands over the tool's stdout), the floor reads and splits the text into lines.
 *
 * Each benchmark runs in a Node process of its own, as the collector's parse runs beside its own
 * state only: in this process the generated 10k-GPU fabric and the other stages' leftovers made
 * every garbage collection of the parse slower (7.2x here against 4.5-6.2x standalone), and after
 * the directory's runs the ibqueryerrors parse was 3-4x its floor against 2.2-2.8x on its own.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { BenchFigures } from '../../packages/parsers/bench/ibdiagnet.bench.ts';
import type { IbqeBenchFigures } from '../../packages/parsers/bench/ibqueryerrors.bench.ts';
import type { Timing } from '../../packages/parsers/bench/measure.ts';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { writeIbdiagnetDir } from '../../packages/parsers/bench/generate.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { mb, type Row } from '../lib/stats.ts';
import type { Stage } from '../lib/stage.ts';
import { ratioFor, targetFor } from '../lib/targets.ts';

const BENCH = resolve(import.meta.dirname, '../../packages/parsers/bench/ibdiagnet.bench.ts');

export const parseStage: Stage = async (ctx) => {
  const rows: Row[] = [];
  const f = benchFabric(ctx.big);
  const dir = ctx.tmp('ibdiagnet');
  ctx.log(`generating ibdiagnet2 dir for ${sizeLabel(f)}`);
  await writeIbdiagnetDir(dir, f);
  const file = join(dir, 'ibqueryerrors-counters.txt');
  writeFileSync(file, new FakeFabricTools(f).nextSweep().counters);

  // Rounds of parse + floor, interleaved (measure.ts); at least 9: a round takes under a second,
  // and on a shared 2-core VM the best of 5 still moved the ratio by 0.5 from run to run.
  const runs = Math.max(ctx.runs, 9);
  const bench = async (args: string[]): Promise<unknown> => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', BENCH, ...args], {
      maxBuffer: 1 << 20,
      timeout: 600_000,
    });
    return JSON.parse(stdout);
  };
  const ib = (await bench(['--json', dir, String(runs)])) as BenchFigures;
  const q = (await bench(['--json-ibqueryerrors', String(runs), file])) as IbqeBenchFigures;
  const cpu = (p: Timing, fl: Timing) =>
    `cpu ${p.cpuMs.toFixed(0)} ms vs ${fl.cpuMs.toFixed(0)} ms: ${(p.cpuMs / fl.cpuMs).toFixed(2)}x; ` +
    `median wall ${p.wallMedianMs.toFixed(0)} ms vs ${fl.wallMedianMs.toFixed(0)} ms: ` +
    `${(p.wallMedianMs / fl.wallMedianMs).toFixed(2)}x`;

  const size = `${sizeLabel(f)}, ${mb(ib.bytes).toFixed(0)} MB`;
  rows.push({
    stage: 'parse',
    what: 'ibdiagnet2 dir: read bytes + parse (best of runs)',
    size,
    value: ib.parse.wallMs,
    unit: 'ms',
    runs,
    floor: { what: 'read+split lines', value: ib.floor.wallMs },
    ratioMax: ratioFor('parse.ratio', ctx.big),
    note: cpu(ib.parse, ib.floor),
  });
  rows.push({
    stage: 'parse',
    what: 'ibdiagnet2 dir: throughput',
    size,
    value: mb(ib.bytes) / (ib.parse.wallMs / 1000),
    unit: 'MB/s',
    runs,
    target: targetFor('parse.throughput', ctx.big),
    note: `floor ${(mb(ib.bytes) / (ib.floor.wallMs / 1000)).toFixed(0)} MB/s`,
  });
  const qSize = `${q.ports} ports, ${mb(q.bytes).toFixed(0)} MB`;
  rows.push({
    stage: 'parse',
    what: 'ibqueryerrors --counters: read bytes + parse (best of runs)',
    size: qSize,
    value: q.parse.wallMs,
    unit: 'ms',
    runs,
    floor: { what: 'read+split lines', value: q.floor.wallMs },
    ratioMax: ratioFor('parse.ratio', ctx.big),
    note: cpu(q.parse, q.floor),
  });
  rows.push({
    stage: 'parse',
    what: 'ibqueryerrors --counters: throughput',
    size: `${mb(q.bytes).toFixed(0)} MB`,
    value: mb(q.bytes) / (q.parse.wallMs / 1000),
    unit: 'MB/s',
    runs,
    target: targetFor('parse.throughput', ctx.big),
  });
  return rows;
};
