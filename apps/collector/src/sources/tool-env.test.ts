import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_VERSION, writeState, type LabState } from '@ibwatch/lab';
import { testConfig, tempDir } from '../test-support.ts';
import { ScanError } from './types.ts';
import { toolEnvProvider } from './tool-env.ts';

const t = tempDir('ibwatch-tool-env-');
afterAll(() => t.cleanup());

/** A lab state file whose ibsim PID is a process that already exited (and was reaped). */
function deadLab(): { labDir: string; pid: number } {
  const labDir = join(t.dir, 'lab');
  const scratch = join(labDir, 'run', 'scratch');
  mkdirSync(scratch, { recursive: true });
  const pid = spawnSync('true').pid!;
  const state = {
    version: STATE_VERSION,
    dir: labDir,
    runDir: join(labDir, 'run'),
    sockName: 'ibwatch-test-dead',
    sms: [],
    paths: { scratch, umad2sim: '/nonexistent/libumad2sim.so', nodeNameMap: join(labDir, 'node-name-map') },
    ibsim: { pid },
  } as unknown as LabState;
  writeState(state);
  return { labDir, pid };
}

describe('toolEnvProvider() for the lab source', () => {
  const { labDir, pid } = deadLab();
  const envOf = toolEnvProvider(testConfig(t.dir, { IBWATCH_SOURCE: 'lab', IBWATCH_LAB_DIR: labDir }));

  it('fails at once with the dead ibsim PID instead of letting tools hang until their timeout', async () => {
    const err = await envOf().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScanError);
    expect((err as Error).message).toMatch(new RegExp(`ibsim \\(pid ${pid}\\) is not running`));
  });
});
