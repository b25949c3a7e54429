/** Integration: a partially populated 3-tier tree comes up with ftree (thanks to the roots file). */
import { describe, it, expect, afterAll } from 'vitest';
import type { Lab } from './lab.ts';
import { isAlive } from './proc.ts';
import { startLab } from './runner.ts';
import { makeTempDir, removeDir } from '@ibwatch/testkit';

let lab: Lab | undefined;
const dir = makeTempDir('ibwatch-lab3-it');

afterAll(async () => {
  await lab?.stop();
  removeDir(dir);
}, 60_000);

describe('3-tier lab', () => {
  it('routes 256 GPUs in 2 pods with ftree and shows every switch', async () => {
    lab = await startLab({ dir, gpus: 256, tiers: 3 });
    expect(lab.state.shape).toMatchObject({ tiers: 3, pods: 2, cores: 8 });
    expect(lab.state.routing).toBe('ftree');
    const out = await lab.runToolOk('ibswitches', []);
    expect(out.trim().split('\n')).toHaveLength(lab.state.counts.switches);
    expect(out).toMatch(/"core-08"/);
    const pid = lab.state.ibsim.pid;
    await lab.stop();
    expect(isAlive(pid)).toBe(false);
  }, 180_000); // bring-up on a loaded 2-core box; startLab has its own 90 s deadline
});
