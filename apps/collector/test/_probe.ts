import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLab, stopLab, sleep } from '@ibwatch/lab';
const dir = mkdtempSync(join(tmpdir(), 'ibw-probe-'));
const lab = await startLab({ gpus: 256, tiers: 3, dir });
try {
  const t0 = Date.now();
  for (let i = 0; i < 8; i++) {
    const r = await lab.runTool('saquery', ['SMIR'], { timeoutMs: 15000 });
    const states = [...r.stdout.matchAll(/GUID\.+(0x[0-9a-f]+)|SMState\.+(\S+)|Priority\.+(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]).join(' ');
    const s2 = await lab.runTool('sminfo', [String(await lab.lidOf('head-02 mlx5_0'))], { timeoutMs: 15000 });
    console.log(((Date.now() - t0) / 1000).toFixed(1), r.exitCode, states, '| sminfo b:', s2.stdout.trim());
    await sleep(300);
  }
  if (process.env.SHOW) console.log((await lab.runTool('saquery', ['SMIR'])).stdout);
} finally { await stopLab(dir); rmSync(dir, { recursive: true, force: true }); }
