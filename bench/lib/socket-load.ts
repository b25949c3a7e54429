/**
 * The API load of the bench: `clients` concurrent raw-socket clients (socket-client.ts) spread
 * over worker threads, and the CPU both sides spent on it, so that a figure says whether it
 * measured the server or the client. Also the CPU of the older one-thread http client (`load`
 * in server.ts), kept to show the change of instrument beside the new figures.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { clockTicks, cpuSecondsOfStat } from './cpu.ts';
import { socketLoad, type SocketLoadResult, type SocketLoadSpec } from './socket-client.ts';

export interface LoadFigures {
  lat: number[];
  /** Body bytes received in all. */
  bytes: number;
  /** CPU ms of the bench's process (all its threads) per reply while loading. */
  clientCpuMsPerReply: number;
  /** CPU ms of the server's process per reply (sweeps included when it sweeps), when its pid is known. */
  serverCpuMsPerReply: number;
}

let ticks = 0;

/** CPU ms `pid` has used so far, or NaN when it cannot be read. */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), (ticks ||= clockTicks())) * 1000;
  } catch {
    return NaN;
  }
}

const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs `run` and says the CPU it (this process) and the server `pid` spent per reply meanwhile. */
export async function withCpu(
  serverPid: number | undefined,
  run: () => Promise<{ lat: number[]; bytes: number }>,
): Promise<LoadFigures> {
  const c0 = selfCpuMs();
  const s0 = processCpuMs(serverPid);
  const r = await run();
  const s1 = processCpuMs(serverPid);
  const c1 = selfCpuMs();
  const n = Math.max(1, r.lat.length);
  return { ...r, clientCpuMsPerReply: (c1 - c0) / n, serverCpuMsPerReply: (s1 - s0) / n };
}

/**
 * A worker's first code: Node 20 does not pass the bench's `--import tsx` hooks on to worker
 * threads, so the worker registers tsx itself before it loads this module.
 */
const BOOT =
  'const { workerData: d } = require("node:worker_threads");' +
  'import(d.tsx).then((m) => { m.register(); return import(d.self); });';
const TSX = import.meta.resolve('tsx/esm/api');

/** Worker threads for `clients` clients: as many as the cores, the server's own included. */
export const loadThreads = (clients: number) => Math.max(1, Math.min(clients, availableParallelism()));

/**
 * `clients` keep-alive clients requesting `path` until `total` requests are done and at least
 * `durationMs` have passed, over `threads` worker threads. The workers are loaded before the
 * clock (and the CPU count) starts.
 */
export async function socketLoadFigures(
  url: string,
  path: string,
  clients: number,
  total: number,
  durationMs = 0,
  opts: { serverPid?: number; threads?: number } = {},
): Promise<LoadFigures> {
  const u = new URL(url);
  const threads = Math.min(clients, opts.threads ?? loadThreads(clients));
  const left = new Int32Array(new SharedArrayBuffer(4));
  left[0] = total;
  const workers = Array.from({ length: threads }, (_, i) => {
    const share = Math.floor(clients / threads) + (i < clients % threads ? 1 : 0);
    const spec: Omit<SocketLoadSpec, 'until'> = { host: u.hostname, port: Number(u.port), path, clients: share, left };
    return new Worker(BOOT, { eval: true, workerData: { spec, tsx: TSX, self: import.meta.url } });
  });
  try {
    await Promise.all(workers.map((w) => once(w, 'ready')));
    return await withCpu(opts.serverPid, async () => {
      const until = Date.now() + durationMs;
      for (const w of workers) w.postMessage({ until });
      const parts = await Promise.all(workers.map((w) => once<SocketLoadResult>(w, 'result')));
      return { lat: parts.flatMap((p) => p.lat), bytes: parts.reduce((a, p) => a + p.bytes, 0) };
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** The next message of `kind` from a worker (rejects on its error or exit first). */
function once<T = unknown>(w: Worker, kind: string): Promise<T> {
  return new Promise((done, fail) => {
    const onMsg = (m: { kind: string; value?: T; error?: string }) => {
      if (m.kind !== kind && m.kind !== 'error') return;
      off();
      if (m.kind === 'error') fail(new Error(m.error));
      else done(m.value as T);
    };
    const onErr = (e: Error) => (off(), fail(e));
    const onExit = (code: number) => (off(), fail(new Error(`load worker exited (${code}) before ${kind}`)));
    const off = () => {
      w.off('message', onMsg);
      w.off('error', onErr);
      w.off('exit', onExit);
    };
    w.on('message', onMsg);
    w.on('error', onErr);
    w.on('exit', onExit);
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const spec = (workerData as { spec: Omit<SocketLoadSpec, 'until'> }).spec;
  port.once('message', ({ until }: { until: number }) => {
    socketLoad({ ...spec, until }).then(
      (value) => port.postMessage({ kind: 'result', value }),
      (err: Error) => port.postMessage({ kind: 'error', error: err.message }),
    );
  });
  port.postMessage({ kind: 'ready' });
}
