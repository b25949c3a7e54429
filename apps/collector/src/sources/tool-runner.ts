// The only module of the collector that starts processes. Every tool runs through `execFile`
// (or, when its stdout is kept as bytes, `spawn`: see runBytes) with an argument array (no
// shell), a timeout that kills it, and a cap on stdout.
import { execFile, spawn } from 'node:child_process';

export interface ToolRun {
  tool: string;
  args: string[];
  /** Decoded stdout (with `bytes`, decoded only when read). */
  stdout: string;
  /** stdout as received, when the run was asked for `bytes` (its pipe chunks joined when first read). */
  stdoutBytes?: Buffer;
  /** The length of `stdoutBytes`, known without joining the chunks. */
  stdoutSize?: number;
  stderr: string;
  /** null when the process was killed by a signal (timeout, cap). */
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  timedOut: boolean;
  /** stdout passed the cap and the process was killed. */
  truncated: boolean;
  /** Spawn error such as ENOENT (tool not on PATH). */
  spawnError: string | null;
}

export interface RunOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Keep stdout as bytes (`stdoutBytes`): a 10k-GPU `ibqueryerrors --counters` is ~21 MB that
   * the parsers read faster as bytes than as a string, and it need not be decoded at all.
   */
  bytes?: boolean;
  /**
   * With `bytes`: each stdout chunk as it arrives, so that a caller can parse the output while
   * the tool still writes it (the chunks also make up `stdoutBytes`; they are never reused).
   */
  onStdout?: (chunk: Buffer) => void;
}

/** Runs tools; tests substitute their own to simulate hangs, floods and missing binaries. */
export interface ToolRunner {
  run(tool: string, args: string[], opts?: Partial<RunOptions>): Promise<ToolRun>;
}

/**
 * Runs a tool and resolves with what happened. A non-zero exit, a timeout or a missing binary
 * are data, not exceptions: the scan decides what they mean.
 */
export function createToolRunner(defaults: RunOptions, maxConcurrent = 6): ToolRunner {
  // ibsim serves at most 10 clients (SMs included), and a real fabric's SA also prefers a few
  // queries at a time over a burst: bound concurrent tool runs per process.
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = () =>
    active < maxConcurrent
      ? (active++, Promise.resolve())
      : new Promise<void>((r) => waiting.push(() => (active++, r())));
  const release = () => {
    active--;
    waiting.shift()?.();
  };

  return {
    async run(tool, args, opts = {}) {
      const o = { ...defaults, ...opts };
      await acquire();
      const started = performance.now();
      try {
        if (o.bytes) return await runBytes(tool, args, o, started);
        return await new Promise<ToolRun>((resolveRun) => {
          execFile(
            tool,
            args,
            {
              timeout: o.timeoutMs,
              killSignal: 'SIGKILL',
              maxBuffer: o.maxOutputBytes,
              env: o.env ?? process.env,
              cwd: o.cwd,
              encoding: 'utf8',
              windowsHide: true,
            },
            (err, stdout, stderr) => {
              const e = err as (NodeJS.ErrnoException & { killed?: boolean; signal?: string; code?: unknown }) | null;
              const spawnError =
                e && typeof e.code === 'string' && e.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? e.code : null;
              const truncated = e?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
              const signal = e?.signal ?? null;
              // A run kept as bytes went to runBytes: this one is text.
              resolveRun({
                tool,
                args,
                stdout: String(stdout ?? ''),
                stderr: String(stderr ?? ''),
                exitCode: e ? (typeof e.code === 'number' ? e.code : null) : 0,
                signal,
                durationMs: Math.round(performance.now() - started),
                timedOut: Boolean(e?.killed && signal === 'SIGKILL' && !truncated),
                truncated,
                spawnError,
              });
            },
          );
        });
      } finally {
        release();
      }
    },
  };
}

/**
 * A run whose stdout is kept as bytes: the pipe's chunks as they came, joined into one buffer
 * only when `stdoutBytes` is read. A PM sweep parses the chunks as they arrive and keeps the raw
 * output once an hour, so on most sweeps they are never joined. execFile keeps the chunks and
 * joins them too, so for a moment each output is held twice (200 MB for a 45k-GPU `ibqueryerrors
 * --counters` of 100 MB); copying each chunk into one buffer instead wrote every byte a second
 * time, into memory that is new every sweep (~25 MB at 10k GPUs: page faults were a large part of
 * a sweep's CPU time). The result is execFile's: timeout and cap kill with SIGKILL, a spawn error
 * is reported by its code.
 */
function runBytes(tool: string, args: string[], o: RunOptions, started: number): Promise<ToolRun> {
  const cap = o.maxOutputBytes;
  return new Promise<ToolRun>((resolveRun) => {
    let chunks: Buffer[] = [];
    let len = 0;
    let stderr = '';
    let truncated = false;
    let timedOut = false;
    let spawnError: string | null = null;
    let done = false;
    const child = spawn(tool, args, {
      env: o.env ?? process.env,
      cwd: o.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const kill = () => {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, o.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (truncated) return;
      let part = chunk;
      if (len + chunk.length > cap) {
        // execFile's maxBuffer: what fits is kept, the tool is killed.
        part = chunk.subarray(0, cap - len);
        truncated = true;
        kill();
      }
      chunks.push(part);
      len += part.length;
      o.onStdout?.(part);
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length + chunk.length > cap) {
        truncated = true;
        kill();
        return;
      }
      stderr += chunk;
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      let bytes: Buffer | undefined;
      let text: string | undefined;
      const joined = (): Buffer => {
        if (bytes === undefined) {
          bytes = Buffer.concat(chunks, len);
          chunks = []; // held once: the joined copy, not the chunks as well
        }
        return bytes;
      };
      resolveRun({
        tool,
        args,
        get stdout() {
          return (text ??= joined().toString('utf8'));
        },
        get stdoutBytes() {
          return joined();
        },
        stdoutSize: len,
        stderr,
        exitCode: spawnError ? null : code,
        signal: spawnError ? null : signal,
        durationMs: Math.round(performance.now() - started),
        timedOut: timedOut && !truncated,
        truncated,
        spawnError,
      });
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      spawnError = typeof err.code === 'string' ? err.code : 'spawn failed';
      kill();
      finish(null, null);
    });
    child.on('close', finish);
  });
}

/** One-line description of why a run failed, or null when it exited 0. */
export function describeFailure(r: ToolRun): string | null {
  // Without arguments `${tool} ${args}` would read "false : exit 1".
  const cmd = [r.tool, ...r.args].join(' ');
  if (r.spawnError === 'ENOENT') return `${r.tool}: not found on PATH`;
  if (r.spawnError) return `${r.tool}: could not start (${r.spawnError})`;
  if (r.timedOut) return `${cmd}: killed after timeout (${r.durationMs} ms)`;
  if (r.truncated) return `${r.tool}: output exceeded the cap and the process was killed`;
  if (r.exitCode !== 0) {
    const err = r.stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300);
    return `${cmd}: exit ${r.exitCode ?? r.signal}${err ? `: ${err}` : ''}`;
  }
  return null;
}
