import { describe, expect, it } from 'vitest';
import { createToolRunner, describeFailure, type ToolRun } from './tool-runner.ts';

const runner = createToolRunner({ timeoutMs: 5000, maxOutputBytes: 1 << 20 });

// Both ways of keeping stdout (decoded text, and bytes kept as their pipe chunks) behave alike.
for (const bytes of [false, true]) {
  describe(`createToolRunner() with real processes${bytes ? ', stdout as bytes' : ''}`, () => {
    const run = (tool: string, args: string[], opts: Parameters<typeof runner.run>[2] = {}) =>
      runner.run(tool, args, { ...opts, bytes });

    it('returns stdout and exit code 0 of a tool that succeeds', async () => {
      const r = await run('echo', ['hello', 'fabric']);
      expect(r).toMatchObject({
        tool: 'echo',
        args: ['hello', 'fabric'],
        stdout: 'hello fabric\n',
        stderr: '',
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        spawnError: null,
      });
      expect(describeFailure(r)).toBeNull();
    });

    it('passes arguments without a shell: metacharacters arrive verbatim', async () => {
      const r = await run('echo', ['$(id)', ';', '`true`', '*']);
      expect(r.stdout).toBe('$(id) ; `true` *\n');
    });

    it('reports a non-zero exit as data, not an exception', async () => {
      const r = await run('false', []);
      expect(r).toMatchObject({ exitCode: 1, timedOut: false, truncated: false, spawnError: null });
      expect(describeFailure(r)).toBe('false: exit 1');
    });

    it('keeps stderr of a tool that writes only to stderr and names it in the failure', async () => {
      const r = await run('ls', ['/nonexistent-ibwatch-path']);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('/nonexistent-ibwatch-path');
      expect(r.exitCode).not.toBe(0);
      expect(describeFailure(r)).toMatch(/^ls \/nonexistent-ibwatch-path: exit 2: .*nonexistent-ibwatch-path/);
    });

    it('reports a missing binary as ENOENT', async () => {
      const r = await run('ibwatch-no-such-tool', ['-x']);
      expect(r).toMatchObject({ spawnError: 'ENOENT', exitCode: null, timedOut: false });
      expect(describeFailure(r)).toBe('ibwatch-no-such-tool: not found on PATH');
    });

    it('kills a hanging tool at its timeout', async () => {
      const r = await run('sleep', ['30'], { timeoutMs: 200 });
      expect(r).toMatchObject({ timedOut: true, signal: 'SIGKILL', exitCode: null, truncated: false });
      expect(r.durationMs).toBeGreaterThanOrEqual(190);
      expect(r.durationMs).toBeLessThan(5000);
      expect(describeFailure(r)).toMatch(/^sleep 30: killed after timeout \(\d+ ms\)$/);
    });

    it('kills a tool whose stdout floods past maxOutputBytes', async () => {
      const r = await run('yes', ['port'], { maxOutputBytes: 64 * 1024 });
      expect(r).toMatchObject({ truncated: true, timedOut: false, spawnError: null, exitCode: null });
      expect(r.stdout.length).toBeLessThanOrEqual(64 * 1024);
      if (bytes) expect(r.stdoutSize).toBe(r.stdoutBytes!.length);
      expect(describeFailure(r)).toBe('yes: output exceeded the cap and the process was killed');
    });

    it('does not count output of exactly the cap as a flood', async () => {
      const r = await run('head', ['-c', '4096', '/dev/zero'], { maxOutputBytes: 8192 });
      expect(r).toMatchObject({ truncated: false, exitCode: 0 });
      expect(r.stdout.length).toBe(4096);
    });

    if (bytes)
      it('reads an output of many pipe chunks whole, larger and smaller than the one before', async () => {
        const many = createToolRunner({ timeoutMs: 20_000, maxOutputBytes: 16 << 20 });
        const expected = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
        for (const n of [1000, 300_000, 120_000, 300_000]) {
          const seen: Buffer[] = [];
          const r = await many.run('seq', ['1', String(n)], { bytes: true, onStdout: (c) => seen.push(c) });
          expect(r).toMatchObject({ exitCode: 0, truncated: false, timedOut: false });
          // The size is known before the chunks are joined, and the chunks seen are the output.
          expect(r.stdoutSize).toBe(expected(n).length);
          expect(Buffer.concat(seen).equals(Buffer.from(expected(n)))).toBe(true);
          expect(r.stdoutBytes!.equals(Buffer.from(expected(n)))).toBe(true);
          expect(r.stdout).toBe(expected(n));
        }
      });
  });
}

describe('createToolRunner() with real processes: concurrency', () => {
  it('runs at most maxConcurrent tools at once and queues the rest', async () => {
    const bounded = createToolRunner({ timeoutMs: 20_000, maxOutputBytes: 1024 }, 2);
    // Each child reports its own lifetime (wall clock at its first and last statement), so the
    // overlap is measured on the processes themselves, not on when their callbacks ran: the
    // check cannot be upset by a busy machine delaying the event loop.
    const child = 'const t0 = Date.now(); setTimeout(() => console.log(t0, Date.now()), 1000);';
    const runs = await Promise.all(Array.from({ length: 5 }, () => bounded.run(process.execPath, ['-e', child])));
    const spans = runs.map((r) => {
      expect(r.exitCode).toBe(0);
      const [start, end] = r.stdout.trim().split(' ').map(Number);
      return { start: start!, end: end! };
    });
    const events = spans
      .flatMap((s) => [
        { t: s.start, d: 1 },
        { t: s.end, d: -1 },
      ])
      .sort((a, b) => a.t - b.t || a.d - b.d);
    let live = 0;
    let peak = 0;
    for (const e of events) peak = Math.max(peak, (live += e.d));
    expect(peak).toBe(2);
    // Three rounds of 1-s children, each a Node start-up: 5 s is not enough on a loaded machine.
  }, 60_000);
});

describe('describeFailure()', () => {
  const base: ToolRun = {
    tool: 'perfquery',
    args: ['-x'],
    stdout: '',
    stderr: '',
    exitCode: 0,
    signal: null,
    durationMs: 5,
    timedOut: false,
    truncated: false,
    spawnError: null,
  };

  it.each<[Partial<ToolRun>, string | null]>([
    [{}, null],
    [{ spawnError: 'EACCES' }, 'perfquery: could not start (EACCES)'],
    [{ exitCode: null, signal: 'SIGSEGV' }, 'perfquery -x: exit SIGSEGV'],
    [
      { exitCode: 3, stderr: 'ibwarn: one\nibwarn: two\nibpanic: three\n' },
      'perfquery -x: exit 3: ibwarn: two | ibpanic: three',
    ],
  ])('describes %j as %j', (patch, text) => {
    expect(describeFailure({ ...base, ...patch })).toBe(text);
  });

  it('cuts a long stderr to 300 characters', () => {
    const d = describeFailure({ ...base, exitCode: 1, stderr: 'x'.repeat(1000) })!;
    expect(d.length).toBeLessThan(330);
  });
});
