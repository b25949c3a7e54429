import { describe, expect, it } from 'vitest';
import { openDb } from './open-db.ts';
import { createScansRepo } from './scans-repo.ts';

describe('lastOkPerKind()', () => {
  it('lists only kinds with a completed scan, at the start of the latest one, and none on an empty database', () => {
    const db = openDb(':memory:');
    const scans = createScansRepo(db);
    expect(scans.lastOkPerKind()).toEqual([]);
    const run = (kind: 'pm' | 'topology' | 'import-nccl', at: number, status: 'ok' | 'partial' | 'failed') =>
      scans.finish(scans.start(kind, 'schedule', at), at + 5, { status });
    run('pm', 1_000, 'ok');
    run('pm', 2_000, 'partial');
    run('pm', 3_000, 'failed');
    run('topology', 1_500, 'failed');
    run('import-nccl', 2_500, 'ok');
    expect(scans.lastOkPerKind()).toEqual([
      { kind: 'import-nccl', lastOkAt: 2_500 },
      { kind: 'pm', lastOkAt: 2_000 },
    ]);
  });
});
