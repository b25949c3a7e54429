/**
 * Parsers against their floor (issue 3): the ibdiagnet2 directory through packages/parsers'
 * own benchmark (benchIbdiagnet: parse vs read + split into lines), and one sweep's
 * `ibqueryerrors --counters` output through `ibqueryerrorsTable` the same way. Parse times
 * include reading, as the floor's do: the parsers get the bytes as read (a Buffer, as the
 * collector hands over the tool's stdout), the floor reads and splits the text into lines.
 */
import { writeFileSync, createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchIbdiagnet } from '../../packages/parsers/bench/ibdiagnet.bench.ts';
import { ChunkLineSplitter } from '../../packages/parsers/src/ibdiagnet/line-source.ts';
import { ibqueryerrorsTable } from '../../packages/parsers/src/index.ts';
import { readFileSync } from 'node:fs';
import { benchFabric, sizeLabel } from '../lib/fabric.ts';
import { writeIbdiagnetDir } from '../gen/ibdiagnet.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { median, mb, times, type Row } from '../lib/stats.ts';
import type { Stage } from '../lib/stage.ts';

async function readAndSplit(path: string): Promise<void> {
  const splitter = new ChunkLineSplitter(() => undefined);
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) splitter.push(chunk as string);
  splitter.end();
}

export const parseStage: Stage = async (ctx) => {
  const rows: Row[] = [];
  const f = benchFabric(ctx.big);
  const dir = ctx.tmp('ibdiagnet');
  ctx.log(`generating ibdiagnet2 dir for ${sizeLabel(f)}`);
  await writeIbdiagnetDir(dir, f);
  const ib = await benchIbdiagnet(dir, ctx.runs);
  const size = `${sizeLabel(f)}, ${mb(ib.bytes).toFixed(0)} MB`;
  rows.push({ stage: 'parse', what: 'ibdiagnet2 dir: read bytes + parse (best of runs)', size, value: ib.parseMs, unit: 'ms', runs: ctx.runs,
    floor: { what: 'read+split lines', value: ib.floorMs }, ratioMax: 3 });
  rows.push({ stage: 'parse', what: 'ibdiagnet2 dir: throughput', size, value: ib.parseMBps, unit: 'MB/s', runs: ctx.runs,
    target: { op: '>=', value: 50 }, note: `floor ${ib.floorMBps.toFixed(0)} MB/s` });

  const tools = new FakeFabricTools(f);
  const s = tools.nextSweep();
  const file = join(dir, 'ibqueryerrors-counters.txt');
  writeFileSync(file, s.counters);
  const bytes = statSync(file).size;
  const parse = await times(ctx.runs, () => ibqueryerrorsTable(readFileSync(file), { file }), 1);
  const floor = await times(ctx.runs, () => readAndSplit(file), 1);
  const p = median(parse);
  rows.push({ stage: 'parse', what: 'ibqueryerrors --counters: read bytes + parse', size: `${f.ports.length} ports, ${mb(bytes).toFixed(0)} MB`, value: p, unit: 'ms',
    runs: ctx.runs, floor: { what: 'read+split lines', value: median(floor) }, ratioMax: 3 });
  rows.push({ stage: 'parse', what: 'ibqueryerrors --counters: throughput', size: `${mb(bytes).toFixed(0)} MB`, value: mb(bytes) / (p / 1000), unit: 'MB/s',
    runs: ctx.runs, target: { op: '>=', value: 50 } });
  return rows;
};
