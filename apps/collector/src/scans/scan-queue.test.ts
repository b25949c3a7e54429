import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../context.ts';
import { openDb } from '../db/open-db.ts';
import type { ToolRun, ToolRunner } from '../sources/tool-runner.ts';
import { cannedToolCall, REPO_ROOT, tempDir, testConfig } from '../test-support.ts';

const lab = (name: string) => readFileSync(join(REPO_ROOT, 'packages/parsers/fixtures/diags', name), 'utf8');
const OUTPUTS: Record<string, { stdout: string; exitCode?: number }> = {
  ibnetdiscover: { stdout: lab('lab-ibnetdiscover.txt') },
  iblinkinfo: { stdout: lab('lab-iblinkinfo.txt') },
  'ibqueryerrors --data --threshold-file /dev/null': { stdout: lab('lab-ibqueryerrors-nothr.txt'), exitCode: 1 },
  'ibqueryerrors --counters': { stdout: lab('lab-ibqueryerrors-counters.txt') },
};

/** Answers from the lab captures and logs when each run starts and ends; ibnetdiscover takes a while. */
class LoggingRunner implements ToolRunner {
  log: string[] = [];

  async run(tool: string, args: string[]): Promise<ToolRun> {
    const { key, snapshot } = cannedToolCall(tool, args);
    const base = {
      tool,
      args,
      stderr: '',
      signal: null,
      durationMs: 1,
      timedOut: false,
      truncated: false,
      spawnError: null,
    };
    if (args[0] === '-V') return { ...base, stdout: '', stderr: `${tool} BUILD VERSION: 44.0`, exitCode: 0 };
    this.log.push(`start ${key}`);
    if (tool === 'ibnetdiscover') await new Promise((r) => setTimeout(r, 100));
    this.log.push(`end ${key}`);
    const o = snapshot ? { stdout: '' } : OUTPUTS[key]!;
    return { ...base, stdout: o.stdout, exitCode: o.exitCode ?? 0 };
  }
}

describe('scan service queues', () => {
  const t = tempDir();
  afterAll(() => t.cleanup());

  it('runs a PM sweep asked for during a topology scan after it, not alongside', async () => {
    const config = testConfig(t.dir, { IBWATCH_SOURCE: 'diags' });
    const runner = new LoggingRunner();
    const ctx = createContext(config, { db: openDb(config.dbFile), runner });
    try {
      expect((await ctx.scans.run('topology', 'cli')).status).not.toBe('failed'); // the ports a sweep needs
      runner.log = [];
      const [topo, pm] = await Promise.all([ctx.scans.run('topology', 'api'), ctx.scans.run('pm', 'schedule')]);
      expect([topo.status, pm.status]).not.toContain('failed');
      expect(pm.startedAt).toBeGreaterThanOrEqual(topo.finishedAt!);
      expect(runner.log.indexOf('start ibqueryerrors --counters')).toBeGreaterThan(
        runner.log.indexOf('end iblinkinfo'),
      );
    } finally {
      ctx.db.close();
    }
  });
});
