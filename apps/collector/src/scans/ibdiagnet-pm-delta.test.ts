import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_A, testContext } from '../test-support.ts';

/**
 * A copy of the real ndr-fat-tree-a run whose PM_DELTA section (ibdiagnet's second sample minus
 * the first, over its one-second sleep) shows symbol errors on one port. PM_INFO, the lifetime
 * totals, is left as it was.
 */
function runWithDeltaErrors(dir: string): { guid: string; port: number } {
  cpSync(SAMPLE_A, dir, { recursive: true });
  const file = join(dir, 'ibdiagnet2.db_csv');
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf('START_PM_DELTA');
  const header = lines[start + 1]!.split(',');
  const row = lines[start + 2]!.split(',');
  for (const col of ['SymbolErrorCounter', 'SymbolErrorCounterExt']) {
    const i = header.indexOf(col);
    if (i >= 0) row[i] = '40';
  }
  lines[start + 2] = row.join(',');
  writeFileSync(file, lines.join('\n'));
  return { guid: row[0]!, port: Number(row[2]) };
}

describe('importIbdiagnet() with PM_DELTA', () => {
  it('judges a port seen for the first time by the delta ibdiagnet measured, not its lifetime total', async () => {
    const ctx = testContext();
    const hit = runWithDeltaErrors(join(ctx.dir, 'run'));
    const scan = await ctx.scans.importIbdiagnet(join(ctx.dir, 'run'), 'cli');
    expect(scan.status).not.toBe('failed');
    const rows = ctx.db.prepare("SELECT kind, subject_key AS key FROM findings WHERE kind = 'symbol-errors'").all() as {
      kind: string;
      key: string;
    }[];
    expect(rows).toEqual([{ kind: 'symbol-errors', key: `port:${hit.guid}/${hit.port}` }]);
    const stored = ctx.db
      .prepare(
        'SELECT d.delta FROM counter_deltas d JOIN counter_names n ON n.id = d.counter_id JOIN ports p ON p.id ' +
          "= d.port_id WHERE n.name = 'SymbolErrorCounter' AND p.node_guid = ? AND p.port_num = ?",
      )
      .pluck()
      .all(hit.guid, hit.port);
    expect(stored).toEqual([40]);
    ctx.cleanup();
  });
});
