// runTool's retry: a tool that dies of a signal (umad2sim's SIGSEGV) is run once more and the
// retry is logged; one that exits with an error of its own, or hits its timeout, is not.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runTool, type ToolEnv } from './tools.ts';

const dir = mkdtempSync(join(tmpdir(), 'ibwatch-lab-tools-'));
const te: ToolEnv = { cwd: dir, env: { LD_PRELOAD: '', IBSIM_SOCKNAME: 'none' }, nodeNameMap: '' };
const runs = join(dir, 'runs');

/** A tool script that counts its runs in `runs` and then does `body` ($n: this run's number). */
function tool(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho x >> '${runs}'\nn=$(wc -l < '${runs}')\n${body}\n`);
  chmodSync(path, 0o755);
  rmSync(runs, { force: true });
  return path;
}
const runCount = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length;

afterEach(() => vi.restoreAllMocks());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runTool', () => {
  it('runs a tool that died of SIGSEGV once more, says so, and returns the second run', async () => {
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const cmd = tool(
      'crash-once',
      `if [ "$n" = 1 ]; then echo 'ibwarn: sim_connect: attached as client 2' >&2; kill -SEGV $$; fi; echo ok $n`,
    );
    const r = await runTool(te, cmd, ['--data']);
    expect(runCount()).toBe(2);
    expect(r).toMatchObject({ exitCode: 0, signal: null, stdout: 'ok 2\n', timedOut: false });
    const said = log.mock.calls.map((c) => String(c[0])).join('');
    expect(said).toContain(`${cmd} --data died of SIGSEGV under ibsim`);
    expect(said).toContain('attached as client 2');
  });

  it('returns the second crash as it is: one retry only', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const r = await runTool(te, tool('crash-always', 'kill -SEGV $$'), []);
    expect(runCount()).toBe(2);
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGSEGV', timedOut: false });
  });

  it('does not retry a tool that exited with an error of its own', async () => {
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const r = await runTool(te, tool('exit-3', 'echo failed >&2; exit 3'), []);
    expect(runCount()).toBe(1);
    expect(r).toMatchObject({ exitCode: 3, signal: null, stderr: 'failed\n' });
    expect(log).not.toHaveBeenCalled();
  });

  it('does not retry a tool killed at its timeout', async () => {
    const killed: (number | undefined)[] = [];
    const r = await runTool(te, tool('hang', 'exec sleep 30'), [], {
      timeoutMs: 300,
      onKilled: (pid) => void killed.push(pid),
    });
    expect(runCount()).toBe(1);
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: true });
    expect(killed).toHaveLength(1);
  });
});
