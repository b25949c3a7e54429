// The long soak: `node --import tsx scripts/soak.ts --sweeps 3000 --gpus 256 [--fault-every 5] [--report-every 500]`,
// or timed: `... --minutes 120 --sample-every-s 60 --warmup-min 10 --heap-snapshots DIR --api --samples FILE`.
// Starts its own lab in a temp dir, runs PM sweeps back to back with random faults, prints the
// figures every --report-every sweeps (and every --sample-every-s seconds), and exits 1 if memory
// or database size kept growing over the second half of the run (more than 10%). Prints the
// least-squares RSS and heap slopes (MB/h) after the warm-up; --heap-snapshots writes V8 heap
// snapshots at the end of the warm-up and at the end (compare them with scripts/heap-diff.ts).
// The engine is in apps/collector/test/reliability/soak-run.ts (also run, shorter, by the CI test).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { runSoak, secondHalfGrowth, slopePerHour, stopLab } from '../apps/collector/test/reliability/soak-run.ts';

const { values } = parseArgs({
  options: {
    sweeps: { type: 'string' },
    minutes: { type: 'string' },
    gpus: { type: 'string', default: '256' },
    'fault-every': { type: 'string', default: '5' },
    'report-every': { type: 'string', default: '500' },
    'sample-every-s': { type: 'string' },
    'warmup-min': { type: 'string' },
    'heap-snapshots': { type: 'string' },
    api: { type: 'boolean', default: false },
    samples: { type: 'string' },
    seed: { type: 'string', default: '42' },
  },
});
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const dir = makeTempDir('ibwatch-soak');
const heapDir = values['heap-snapshots'] ? resolve(values['heap-snapshots']) : undefined;
if (heapDir) mkdirSync(heapDir, { recursive: true });
const o = {
  // A timed run has no sweep limit unless one is given; an untimed one defaults to 3000 sweeps.
  sweeps: num(values.sweeps) ?? (values.minutes ? Number.POSITIVE_INFINITY : 3000),
  minutes: num(values.minutes),
  gpus: Number(values.gpus),
  faultEvery: Number(values['fault-every']),
  reportEvery: Number(values['report-every']),
  sampleEverySec: num(values['sample-every-s']),
  warmupMin: num(values['warmup-min']),
  heapSnapshotDir: heapDir,
  api: values.api,
  seed: Number(values.seed),
  dir,
};
const length = o.minutes ? `${o.minutes} minutes of` : `${o.sweeps}`;
console.log(
  `soak: ${length} PM sweeps on a ${o.gpus}-GPU lab, a fault every ${o.faultEvery} ` +
    `sweeps${o.api ? ', API read after each sweep' : ''} (dir ${dir}, node ${process.version}, started ` +
    `${new Date().toISOString()})`,
);
// Ctrl-C / TERM: stop the lab this run started (ibsim, both OpenSMs) before leaving.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void stopLab(join(dir, 'lab')).finally(() => {
      removeDir(dir);
      process.exit(130);
    });
  });
}
try {
  const r = await runSoak(o);
  const rss = secondHalfGrowth(r.samples, 'rssMb');
  const db = secondHalfGrowth(r.samples, 'pagesMb');
  const sweeps = r.samples.at(-1)?.sweep ?? 0;
  console.log(
    `done in ${r.seconds} s, ${sweeps} PM sweeps; faults ${JSON.stringify(r.faults)}; failed scans ` +
      `${r.failedScans}; pruned ${JSON.stringify(r.pruned)}; API reads ${r.apiReads} (${r.apiFailures} not 200)`,
  );
  const f = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(2));
  const from = r.warmupEndS;
  console.log(
    `least-squares slope from ${from} s (after the warm-up) to the end: RSS ` +
      `${f(slopePerHour(r.samples, 'rssMb', from))} MB/h, heap used ` +
      `${f(slopePerHour(r.samples, 'heapMb', from))} MB/h; whole run: RSS ${f(slopePerHour(r.samples, 'rssMb'))} MB/h`,
  );
  console.log(`second-half growth: RSS ${(rss * 100).toFixed(1)}%, database ${(db * 100).toFixed(1)}% (bound: 10%)`);
  for (const h of r.heapSnapshots) console.log(`heap snapshot at ${h.atS} s: ${h.file}`);
  if (values.samples) writeFileSync(values.samples, `${JSON.stringify({ options: o, ...r }, null, 1)}\n`);
  process.exitCode = rss < 0.1 && db < 0.1 ? 0 : 1;
} finally {
  removeDir(dir);
}
