/**
 * Timing for the parser benchmarks. The build machine is shared, so wall time alone says more
 * about the neighbours than about the parser: every run records CPU time (`process.cpuUsage`,
 * all threads of the process, GC helpers included) as well, and figures are the best and the
 * median of the runs.
 */
import { createReadStream } from 'node:fs';
import { ChunkLineSplitter } from '../src/common/line-runner.ts';

export interface Timing {
  /** Best and median wall-clock ms. */
  wallMs: number;
  wallMedianMs: number;
  /** Best and median CPU ms (user + system). */
  cpuMs: number;
  cpuMedianMs: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Run each of `fns` once per round, in turn, for `runs` rounds. Interleaved, so that a parse
 * and the floor it is compared with meet the same spells of a busy neighbour: timed one block
 * after the other, a noisy half-minute lands on one side only and moves the ratio by itself.
 */
export async function measureRounds<K extends string>(
  runs: number,
  fns: Record<K, () => Promise<unknown>>,
): Promise<Record<K, Timing>> {
  const names = Object.keys(fns) as K[];
  const wall = new Map<K, number[]>(names.map((k) => [k, []]));
  const cpu = new Map<K, number[]>(names.map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const k of names) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await fns[k]();
      wall.get(k)!.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.get(k)!.push((c.user + c.system) / 1000);
    }
  }
  const out = {} as Record<K, Timing>;
  for (const k of names) {
    const w = wall.get(k)!;
    const c = cpu.get(k)!;
    out[k] = { wallMs: Math.min(...w), wallMedianMs: median(w), cpuMs: Math.min(...c), cpuMedianMs: median(c) };
  }
  return out;
}

/**
 * The floor: read a file and split it into lines as strings, nothing else: 1 MB UTF-8 chunks
 * through `ChunkLineSplitter`, faster than `node:readline` (an async iterator step and an event
 * per line). The parsers themselves read bytes and decode only what they keep (bytes.ts).
 */
export async function readAndSplit(path: string): Promise<number> {
  let lines = 0;
  const splitter = new ChunkLineSplitter(() => {
    lines++;
  });
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }))
    splitter.push(chunk as string);
  splitter.end();
  return lines;
}

/**
 * Not a floor, a yardstick: read a file in the same 1 MB chunks and look at every byte once in
 * a JavaScript loop (sum them), parsing nothing. Any parser here that reads a cell's bytes pays
 * at least this for them; on the 2-core build VM it costs about as much as the whole floor.
 */
export async function readAndTouch(path: string): Promise<number> {
  let sum = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const b = chunk as Buffer;
    for (let i = 0; i < b.length; i++) sum = (sum + b[i]!) | 0;
  }
  return sum;
}

/** One line of the report: `label  cpu best/median ms  MB/s  (wall best/median ms)`. */
export function line(label: string, t: Timing, mb: number): string {
  const f = (n: number): string => n.toFixed(0).padStart(6);
  return (
    `${label.padEnd(8)} cpu ${f(t.cpuMs)} ms (median ${f(t.cpuMedianMs)})  ` +
    `${(mb / (t.cpuMs / 1000)).toFixed(1).padStart(7)} MB/s  | wall ${f(t.wallMs)} ms (median ` +
    `${f(t.wallMedianMs)})  ${(mb / (t.wallMs / 1000)).toFixed(1)} MB/s`
  );
}
