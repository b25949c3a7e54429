// Scaling beyond one fabric: one collector per fabric, each listing the others (IBWATCH_PEERS)
// and each exposing /metrics for a site-wide Prometheus. Two real server processes here.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVER = resolve(import.meta.dirname, '../src/server.ts');

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`collector exited ${child.exitCode}: ${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`collector at ${url} did not start: ${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('one collector per fabric, listing each other', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ibwatch-peers-'));
  const procs: ChildProcess[] = [];
  let a = '';
  let b = '';

  beforeAll(async () => {
    const [pa, pb] = [await freePort(), await freePort()];
    a = `http://127.0.0.1:${pa}`;
    b = `http://127.0.0.1:${pb}`;
    const start = (name: string, port: number, peers: string) => {
      let err = '';
      const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
        env: {
          ...process.env,
          IBWATCH_SOURCE: 'import-only',
          IBWATCH_DB: join(dir, `${name}.db`),
          IBWATCH_HOST: '127.0.0.1',
          IBWATCH_PORT: String(port),
          IBWATCH_PEERS: peers,
          IBWATCH_LOG_LEVEL: 'warn',
          IBWATCH_WEB_DIST: join(dir, 'no-web'),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
      });
      procs.push(child);
      return waitHealthy(`http://127.0.0.1:${port}`, child, () => err);
    };
    await Promise.all([start('fabric-a', pa, `fabric-b=${b}`), start('fabric-b', pb, `fabric-a=${a}`)]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((r) => {
            if (p.exitCode !== null) return r();
            p.once('exit', () => r());
            p.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET /api/peers on each collector lists the other', async () => {
    expect(await (await fetch(`${a}/api/peers`)).json()).toEqual({
      self: { source: 'import-only' },
      peers: [{ name: 'fabric-b', url: b }],
    });
    expect(await (await fetch(`${b}/api/peers`)).json()).toEqual({
      self: { source: 'import-only' },
      peers: [{ name: 'fabric-a', url: a }],
    });
  });

  it('GET /metrics on each collector answers Prometheus text for its own fabric', async () => {
    for (const url of [a, b]) {
      const r = await fetch(`${url}/metrics`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await r.text();
      expect(text).toMatch(/^# HELP ibwatch_/m);
      expect(text).toMatch(/^ibwatch_links\b/m);
    }
  });

  it('lets each dashboard fetch the other (the peer is in connect-src)', async () => {
    const csp = (await fetch(`${a}/api/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(b);
  });
});
