// Issue 14, one regression test per defect, through entry points that also existed before the
// fixes (createContext, importIbdiagnet, buildApp), so each can be run against the old code to
// see it fail. Defect 1 is concurrent-writers.test.ts, 2 and 3 drop-dir-server.test.ts; 7 and
// 11 belong to the nccl work; the hostile corpus holds the wider net.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext, loadNames, type Context } from '../../src/context.ts';
import { DATE, DB, dbLines, runDir, section, setColumn } from '../reliability/corpus/run-dirs.ts';
import { cleanupTemp, RUN_A, tempDir, testConfig, TOKEN } from '../reliability/support.ts';

let ctx: Context;
beforeAll(async () => {
  ctx = createContext(testConfig(tempDir('defects')));
  expect((await ctx.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
}, 60_000);
afterAll(() => {
  ctx.db.close();
  cleanupTemp();
});

const CABLES = 'ibdiagnet2.cables';
const text = (r: { error: string | null; warnings: string[] }) => [r.error ?? '', ...r.warnings].join('\n');
/** A node description of run A's NODES replaced by `desc`. */
function withDescription(name: string, desc: string): string {
  const l = dbLines();
  const row = section(l, 'NODES')[0] + 11;
  l[row] = l[row]!.replace(/^"[^"]*"/, `"${desc}"`);
  return runDir(name, { [CABLES]: null, [DB]: l.join('\n') });
}

describe('issue 14 defects', { timeout: 60_000 }, () => {
  it(
    '5: ibdiagnet2.log linked to /dev/zero and ibdiagnet2.sm a FIFO are refused with a warning each, the rest ' +
      'imported',
    async () => {
      const dir = runDir('special', { [CABLES]: null, 'ibdiagnet2.log': null, 'ibdiagnet2.sm': null });
      symlinkSync('/dev/zero', join(dir, 'ibdiagnet2.log'));
      execFileSync('mkfifo', [join(dir, 'ibdiagnet2.sm')]);
      const row = await ctx.scans.importIbdiagnet(dir, 'cli');
      expect(row.status, text(row)).toBe('partial');
      expect(text(row)).toMatch(/ibdiagnet2\.log.*not a regular file \(character device\)/);
      expect(text(row)).toMatch(/ibdiagnet2\.sm.*not a regular file \(FIFO\)/);
      expect(row.summary['topology.links']).toBe(271);
    },
  );

  it('5: a node-name map that is a FIFO is refused with a warning, and the collector starts without names', () => {
    const fifo = join(tempDir('map'), 'node-name-map');
    execFileSync('mkfifo', [fifo]);
    const { names, warnings } = loadNames(testConfig(tempDir('map-db'), { IBWATCH_NODE_NAME_MAP: fifo }));
    expect(names.size).toBe(0);
    expect(warnings).toEqual([`node-name map:${fifo}: not a regular file (FIFO); refused`]);
  });

  it(
    '6: a node description of 300 KB is cut to 128 characters; one of 50 MB skips its row; /api/topology ' +
      'stays sane',
    async () => {
      const cut = await ctx.scans.importIbdiagnet(withDescription('desc-300k', 'D'.repeat(300_000)), 'cli');
      expect(text(cut)).toMatch(/1 node descriptions longer than 128 characters cut to 128/);
      const huge = await ctx.scans.importIbdiagnet(withDescription('desc-50m', 'E'.repeat(50 << 20)), 'cli');
      expect(text(huge)).toMatch(/NODES row skipped: line longer than 1048576 bytes/);
      expect(ctx.db.prepare('SELECT MAX(length(description)) FROM nodes').pluck().get()).toBeLessThanOrEqual(128);
      const app = await buildApp(ctx);
      const headers = { authorization: `Bearer ${TOKEN}` };
      const topology = await app.inject({ url: '/api/topology', headers });
      expect(topology.statusCode).toBe(200);
      expect(topology.body.length).toBeLessThan(1 << 20);
      const search = await app.inject({ url: '/api/ports?q=DDDD&limit=1000', headers });
      expect(search.statusCode).toBe(200);
      expect(search.body.length).toBeLessThan(1 << 20);
    },
  );

  it('8: a db_csv that is not a regular file fails the import, naming it, and stores nothing', async () => {
    for (const [what, make] of [
      ['FIFO', (p: string) => void execFileSync('mkfifo', [p])],
      ['directory', (p: string) => mkdirSync(p)],
      ['character device', (p: string) => symlinkSync('/dev/null', p)],
    ] as const) {
      const dir = runDir(`db-${what.replace(/\W/g, '')}`, { [DB]: null });
      make(join(dir, DB));
      const states = ctx.db.prepare('SELECT COUNT(*) FROM port_state_history').pluck().get();
      const row = await ctx.scans.importIbdiagnet(dir, 'cli');
      expect(row.status, text(row)).toBe('failed');
      expect(row.error).toMatch(new RegExp(`ibdiagnet2\\.db_csv.*not a regular file \\(${what}\\)`));
      expect(ctx.db.prepare('SELECT COUNT(*) FROM port_state_history').pluck().get()).toBe(states);
    }
  });

  it(
    '9: a db_csv cut right after END_LINKS (no .pm, no .sm) is partial with a warning saying it is ' + 'truncated',
    async () => {
      const l = dbLines();
      const dir = runDir('cut-links', {
        [CABLES]: null,
        'ibdiagnet2.pm': null,
        'ibdiagnet2.sm': null,
        [DB]: l.slice(0, section(l, 'LINKS')[1] + 1).join('\n'),
      });
      const row = await ctx.scans.importIbdiagnet(dir, 'cli');
      expect(row.status, text(row)).toBe('partial');
      expect(text(row)).toMatch(
        new RegExp(
          /ibdiagnet2\.db_csv:3095: file ends at line 3095, but its first line puts the INDEX_TABLE at line 6214: /
            .source + /truncated, the sections written after LINKS are missing/.source,
        ),
      );
    },
  );

  it('10: a counter of 2^64 - 1 is a value: stored, and a saturation finding opened', async () => {
    const dir = join(tempDir('max64'), 'run');
    mkdirSync(dir);
    const lines = setColumn(dbLines(), 'PM_INFO', 'SymbolErrorCounterExt', () => '18446744073709551615', 1);
    writeFileSync(join(dir, DB), lines.join('\n').replace(DATE, '2025-04-09 00:43:18 UTC +0000'));
    const row = await ctx.scans.importIbdiagnet(dir, 'cli');
    expect(row.status, text(row)).not.toBe('failed');
    // The first PM_INFO row: spine 0xb0cf0e0300d33fc0, port 1.
    const findings = ctx.db
      .prepare(
        "SELECT title FROM findings WHERE kind LIKE 'counter-saturated:%' AND subject_key LIKE ? AND state = 'open'",
      )
      .pluck()
      .all('%0xb0cf0e0300d33fc0%') as string[];
    expect(findings).toEqual([
      expect.stringMatching(/^SymbolErrorCounter saturated on .* port 1: rate unknown, clear the counters/),
    ]);
    // LID 0 names no port: the advice never tells a technician to clear `perfquery -R 0`.
    expect(findings[0]).not.toContain('perfquery -R 0 ');
    const vals = ctx.db
      .prepare(
        'SELECT c.vals FROM counter_last c JOIN ports p ON p.id = c.port_id WHERE p.node_guid = ' +
          "'0xb0cf0e0300d33fc0' AND p.port_num = 1",
      )
      .pluck()
      .get() as string;
    expect(vals).toContain('18446744073709551615');
  });
});
