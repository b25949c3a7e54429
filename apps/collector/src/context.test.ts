import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STATE_VERSION, writeState, type LabState } from '@ibwatch/lab';
import { createContext, openContext, readNames } from './context.ts';
import { loadSourceAdapter } from './sources/tool-env.ts';
import { tempDir, testConfig } from './test-support.ts';

const t = tempDir('ibwatch-context-');
afterAll(() => t.cleanup());

const GUID = '0xb83fd20300002010';

/** A lab state file (the lab itself need not run) whose node-name map names one HCA. */
function labWithNameMap(): string {
  const labDir = join(t.dir, 'lab');
  mkdirSync(labDir, { recursive: true });
  const map = join(labDir, 'node-name-map');
  writeFileSync(map, `${GUID} "dgx-0001 mlx5_0"  # rack=R01 u=2\n`);
  writeState({
    version: STATE_VERSION,
    dir: labDir,
    runDir: join(labDir, 'run'),
    sockName: 'ibwatch-test-context',
    sms: [],
    paths: { scratch: join(labDir, 'run', 'scratch'), umad2sim: '/nonexistent.so', nodeNameMap: map },
    ibsim: { pid: 0 },
  } as unknown as LabState);
  return labDir;
}

describe('the lab source adapter', () => {
  const labDir = labWithNameMap();
  const config = (db: string) => testConfig(join(t.dir, db), { IBWATCH_SOURCE: 'lab', IBWATCH_LAB_DIR: labDir });
  mkdirSync(join(t.dir, 'a'));
  mkdirSync(join(t.dir, 'b'));

  it('is loaded for IBWATCH_SOURCE=lab and gives the lab node-name map', async () => {
    const adapter = await loadSourceAdapter(config('a'));
    expect(adapter.nodeNameMap()).toBe(join(labDir, 'node-name-map'));
    expect((await readNames(config('a'))).names.nameOrNull(GUID)).toBe('dgx-0001 mlx5_0');
  });

  it('is not loaded for other sources: no node-name map comes with them', async () => {
    const adapter = await loadSourceAdapter(testConfig(join(t.dir, 'a'), { IBWATCH_SOURCE: 'diags' }));
    expect(adapter.nodeNameMap()).toBeNull();
  });

  it('names the fabric through openContext; createContext without it says the map was not read', async () => {
    const opened = await openContext(config('a'));
    expect(opened.names.nameOrNull(GUID)).toBe('dgx-0001 mlx5_0');
    expect(opened.names.rack(GUID)).toBe('R01');
    expect(opened.nameWarnings).toEqual([]);
    opened.db.close();
    const bare = createContext(config('b'));
    expect(bare.names.nameOrNull(GUID)).toBeNull();
    expect(bare.nameWarnings.join('\n')).toMatch(/node-name map was not read/);
    bare.db.close();
  });
});
