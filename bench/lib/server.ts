/** Starts the real collector server (a child process we own), and samples its RSS. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = net.createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => done(port));
    });
  });
}

export async function startServer(env: Record<string, string>, port: number): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'apps/collector/src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, IBWATCH_HOST: '127.0.0.1', IBWATCH_PORT: String(port), IBWATCH_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${err}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    },
  };
}

/** VmRSS of `pid` in MB, or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples RSS every `ms` until stopped; returns the samples. */
export function sampleRss(pid: number, ms = 200): { stop: () => number[]; peek: () => number[] } {
  const xs: number[] = [];
  const t = setInterval(() => {
    const v = rssMb(pid);
    if (!Number.isNaN(v)) xs.push(v);
  }, ms);
  return {
    stop: () => {
      clearInterval(t);
      return xs;
    },
    peek: () => [...xs],
  };
}

/**
 * `clients` concurrent loops fetching `path` until `total` requests are done; latencies in ms,
 * from sending the request to the last byte of the reply. The client asks for gzip, as browsers
 * do, and does not decompress: with Node's `fetch` each client inflated every 10 MB topology
 * reply on the bench's one thread, and that (60-90 ms a reply, 20 at a time) was what got
 * measured, not the server. A keep-alive agent per client, like a browser's connection.
 * With `durationMs`, the clients keep going until at least that long has passed.
 */
export async function load(
  url: string,
  path: string,
  clients: number,
  total: number,
  durationMs = 0,
): Promise<number[]> {
  const lat: number[] = [];
  let left = total;
  const until = performance.now() + durationMs;
  const target = new URL(path, url);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (left-- > 0 || performance.now() < until) {
          const t = performance.now();
          const status = await new Promise<number>((resolve, reject) => {
            const req = http.get(target, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
              res.on('data', () => undefined);
              res.on('end', () => resolve(res.statusCode ?? 0));
              res.on('error', reject);
            });
            req.on('error', reject);
          });
          if (status !== 200) throw new Error(`${path}: HTTP ${status}`);
          lat.push(performance.now() - t);
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return lat;
}
