import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHead, socketLoad } from './socket-client.ts';
import { socketLoadFigures } from './socket-load.ts';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A keep-alive HTTP server on a free port that answers with `handler`; its URL's host and port. */
async function serve(handler: http.RequestListener): Promise<{ host: string; port: number; url: string }> {
  const srv = http.createServer(handler);
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  return { host: '127.0.0.1', port, url: `http://127.0.0.1:${port}` };
}

/** A raw TCP server that answers every request with `reply` (for replies http.Server would not send). */
async function rawServe(reply: Buffer): Promise<{ host: string; port: number }> {
  const srv = net.createServer((s) => s.on('data', () => s.write(reply)));
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { host: '127.0.0.1', port: (srv.address() as net.AddressInfo).port };
}

const counter = (n: number) => new Int32Array(new SharedArrayBuffer(4)).fill(n);

describe('the raw-socket load client', () => {
  it('reads status and Content-Length from a reply head, in any case', () => {
    expect(parseHead('HTTP/1.1 200 OK\r\nContent-Type: x\r\ncontent-length: 42')).toEqual({ status: 200, length: 42 });
    expect(parseHead('HTTP/1.1 304 Not Modified\r\nCONTENT-LENGTH:0')).toEqual({ status: 304, length: 0 });
    expect(() => parseHead('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked')).toThrow(/without Content-Length/);
    expect(() => parseHead('SSH-2.0-x')).toThrow(/not an HTTP reply/);
  });

  it('downloads every byte of every reply, however the server splits it, as gzip-accepting clients', async () => {
    const body = Buffer.alloc(300_000, 'x');
    const seen: (string | undefined)[] = [];
    const srv = await serve((req, res) => {
      seen.push(req.headers['accept-encoding']);
      res.writeHead(200, { 'content-length': body.length });
      // The head alone first, then the body in uneven pieces.
      res.flushHeaders();
      res.write(body.subarray(0, 1));
      setTimeout(() => res.end(body.subarray(1)), 2);
    });
    const r = await socketLoad({ ...srv, path: '/api/x', clients: 3, left: counter(10), until: 0 });
    // Each of the 3 clients stops once the shared count has run out: 10 requests in all.
    expect(r.lat).toHaveLength(10);
    expect(r.bytes).toBe(10 * body.length);
    expect(r.lat.every((ms) => ms >= 2)).toBe(true);
    expect(seen).toHaveLength(10);
    expect(seen.every((h) => h?.includes('gzip'))).toBe(true);
  });

  it('keeps loading until the given time even after the count ran out', async () => {
    const srv = await serve((_req, res) => setTimeout(() => res.end('{}'), 5));
    const t = Date.now();
    // One client, one request counted: every further request is made for the time alone.
    const r = await socketLoad({ ...srv, path: '/', clients: 1, left: counter(1), until: t + 1000 });
    expect(Date.now() - t).toBeGreaterThanOrEqual(995);
    expect(r.lat.length).toBeGreaterThanOrEqual(2);
    expect(r.bytes).toBe(2 * r.lat.length);
  });

  it('fails on a status other than 200, a chunked reply, extra bytes and a connection closed mid-reply', async () => {
    const load = (srv: { host: string; port: number }) =>
      socketLoad({ ...srv, path: '/p', clients: 1, left: counter(3), until: 0 });
    const notFound = await serve((_req, res) => {
      res.statusCode = 404;
      res.end('no');
    });
    await expect(load(notFound)).rejects.toThrow('/p: HTTP 404');
    const chunked = await serve((_req, res) => {
      res.write('a');
      res.end('b');
    });
    await expect(load(chunked)).rejects.toThrow(/without Content-Length/);
    await expect(load(await rawServe(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc')))).rejects.toThrow(
      /1 bytes past Content-Length/,
    );
    const cut = await serve((req, res) => {
      res.writeHead(200, { 'content-length': 100 });
      res.write('only this');
      setTimeout(() => req.socket.destroy(), 5);
    });
    await expect(load(cut)).rejects.toThrow(/closed mid-reply/);
  });

  it('spreads the clients over worker threads and counts the CPU of both sides', async () => {
    const body = Buffer.alloc(20_000, 'y');
    const srv = await serve((_req, res) => {
      res.setHeader('content-length', body.length);
      res.end(body);
    });
    const f = await socketLoadFigures(srv.url, '/api/y', 4, 40, 0, { serverPid: process.pid, threads: 2 });
    expect(f.lat.length).toBeGreaterThanOrEqual(40);
    expect(f.bytes).toBe(f.lat.length * body.length);
    expect(f.clientCpuMsPerReply).toBeGreaterThan(0);
    expect(f.serverCpuMsPerReply).toBeGreaterThanOrEqual(0);
    const bad = await serve((_req, res) => {
      res.statusCode = 500;
      res.end('x');
    });
    await expect(socketLoadFigures(bad.url, '/api/z', 2, 4, 0, { threads: 2 })).rejects.toThrow('/api/z: HTTP 500');
    // Each worker registers tsx and compiles its modules first: seconds on a loaded machine.
  }, 60_000);
});
