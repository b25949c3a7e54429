// The long soak: `node --import tsx scripts/soak.ts --sweeps 3000 --gpus 256 [--fault-every 5] [--report-every 500]`.
// Starts its own lab in a temp dir, runs PM sweeps back to back with random faults, prints the
// figures every --report-every sweeps, and exits 1 if memory or database size kept growing
// over the second half of the run (more than 10%). The engine is in
// apps/collector/test/reliability/soak-run.ts (also run, shorter, by the CI test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runSoak, secondHalfGrowth, stopLab } from '../apps/collector/test/reliability/soak-run.ts';

const { values } = parseArgs({
  options: {
    sweeps: { type: 'string', default: '3000' },
    gpus: { type: 'string', default: '256' },
    'fault-every': { type: 'string', default: '5' },
    'report-every': { type: 'string', default: '500' },
    seed: { type: 'string', default: '42' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'ibwatch-soak-'));
const o = {
  sweeps: Number(values.sweeps),
  gpus: Number(values.gpus),
  faultEvery: Number(values['fault-every']),
  reportEvery: Number(values['report-every']),
  seed: Number(values.seed),
  dir,
};
console.log(`soak: ${o.sweeps} PM sweeps on a ${o.gpus}-GPU lab, a fault every ${o.faultEvery} sweeps (dir ${dir})`);
// Ctrl-C / TERM: stop the lab this run started (ibsim, both OpenSMs) before leaving.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void stopLab(join(dir, 'lab')).finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}
try {
  const r = await runSoak(o);
  const rss = secondHalfGrowth(r.samples, 'rssMb');
  const db = secondHalfGrowth(r.samples, 'pagesMb');
  console.log(
    `done in ${r.seconds} s; faults ${JSON.stringify(r.faults)}; failed scans ${r.failedScans}; pruned ${JSON.stringify(r.pruned)}`,
  );
  console.log(`second-half growth: RSS ${(rss * 100).toFixed(1)}%, database ${(db * 100).toFixed(1)}% (bound: 10%)`);
  process.exitCode = rss < 0.1 && db < 0.1 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
