import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postJson, type DeliverDeps } from './deliver.ts';

const deps = (sleeps: number[]): DeliverDeps => ({
  fetch,
  sleep: async (ms) => void sleeps.push(ms),
  random: () => 0.5,
});

/** A port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('postJson()', () => {
  it('says "connection refused" after every attempt when nothing listens, backing off in between', async () => {
    const sleeps: number[] = [];
    const r = await postJson(
      `http://127.0.0.1:${await closedPort()}/x`,
      { a: 1 },
      {},
      { attempts: 4, backoffMs: 50, timeoutMs: 2000 },
      deps(sleeps),
    );
    expect(r).toEqual({ ok: false, attempts: 4, error: 'connection refused' });
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('gives up a try that gets no answer within the timeout', async () => {
    // Accepts the connection and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as AddressInfo;
      const r = await postJson(
        `http://127.0.0.1:${port}/x`,
        {},
        {},
        { attempts: 2, backoffMs: 0, timeoutMs: 200 },
        deps([]),
      );
      expect(r).toEqual({ ok: false, attempts: 2, error: 'no answer within 0.2 s' });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
