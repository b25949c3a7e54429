// A huge upload against a listening server with the default body limit (32 MB): 413, and the
// server does not buffer the body (RSS does not grow by its size). Real HTTP over 127.0.0.1.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { cleanupTemp, tempDir, testConfig, TOKEN } from './support.ts';

const MB = 1 << 20;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const config = testConfig(tempDir('upload'));
  expect(config.bodyLimitBytes).toBe(32 * MB);
  app = await buildApp(createContext(config));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app.close();
  cleanupTemp();
});

/** Streams `totalBytes` of JSON-ish body in 1 MB chunks, stopping as soon as the server answers. */
function upload(
  totalBytes: number,
  declareLength: boolean,
): Promise<{ status: number; sent: number; peakRssGrowth: number; body: string }> {
  const chunk = Buffer.alloc(MB, 'x');
  const rss0 = process.memoryUsage().rss;
  let peak = 0;
  let sent = 0;
  return new Promise((resolveUpload, fail) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/nccl-runs',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        ...(declareLength ? { 'content-length': String(totalBytes) } : {}),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        req.destroy();
        resolveUpload({ status: res.statusCode!, sent, peakRssGrowth: peak, body });
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (answered) return;
      // The server answers 413 and closes while we still write; the reset can beat the answer
      // to the client (status 0 = "refused by closing the connection").
      if (e.code === 'EPIPE' || e.code === 'ECONNRESET')
        resolveUpload({ status: 0, sent, peakRssGrowth: peak, body: '' });
      else fail(e);
    });
    const pump = () => {
      while (!answered && sent < totalBytes) {
        peak = Math.max(peak, process.memoryUsage().rss - rss0);
        sent += MB;
        if (sent === MB) req.write('{"text":"');
        if (!req.write(sent >= totalBytes ? Buffer.concat([chunk.subarray(0, MB - 2), Buffer.from('"}')]) : chunk))
          return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('upload size limit', () => {
  it('a declared 1 GB upload is refused with 413 before its body is read', async () => {
    const r = await upload(1024 * MB, true);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ statusCode: 413 });
    expect(r.sent).toBeLessThan(256 * MB);
    expect(r.peakRssGrowth).toBeLessThan(64 * MB);
  }, 60_000);

  it('a 64 MB chunked upload (no length declared) gets 413 at the limit; memory stays well under the body ' +
    'size', async () => {
    const r = await upload(64 * MB, false);
    expect(r.status === 413 || (r.status === 0 && r.sent > 32 * MB), `status ${r.status} after ${r.sent / MB} MB`).toBe(
      true,
    );
    expect(r.peakRssGrowth).toBeLessThan(64 * MB);
    // The process still serves, and nothing was imported.
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/api/scans')).json()).toEqual([]);
    console.log(
      `upload limit: 64 MB chunked body -> ${r.status} after ${r.sent / MB} MB sent, peak RSS growth ` +
        `${(r.peakRssGrowth / MB).toFixed(1)} MB`,
    );
  }, 60_000);
});
