import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './client.ts';
import { prefetch, takePrefetched } from './prefetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete (globalThis as { __ibwatchPrefetch?: unknown }).__ibwatchPrefetch;
});

const EARLY = readFileSync(join(import.meta.dirname, '../../public/prefetch.js'), 'utf8');

/** A localStorage holding the write token (or none). */
function storage(token: string | null) {
  return { getItem: (k: string) => (k === 'ibwatch.token' ? token : null) };
}

/**
 * Runs public/prefetch.js as the page's <head> does, at `pathname`, with `fetch`; what it
 * leaves on `window` is put on globalThis, where the app finds it.
 */
function runEarly(url: string, fetch: (...a: unknown[]) => Promise<Response>, token: string | null = null) {
  const window: Record<string, unknown> = {};
  const location = new URL(url, 'http://ibwatch.test');
  runInNewContext(EARLY, { location, localStorage: storage(token), fetch, window, Date, URLSearchParams });
  if (window.__ibwatchPrefetch) (globalThis as Record<string, unknown>).__ibwatchPrefetch = window.__ibwatchPrefetch;
}

describe('prefetch', () => {
  it('hands the reply to the first reader of that path, once, and only while fresh', async () => {
    const fn = vi.fn(async () => new Response('{"format":2}', { status: 200 }));
    vi.stubGlobal('fetch', fn);
    prefetch('/api/topology');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(takePrefetched('/api/summary')).toBeUndefined();
    const got = takePrefetched('/api/topology');
    expect(await got).toEqual({ format: 2 });
    expect(takePrefetched('/api/topology')).toBeUndefined();

    vi.useFakeTimers({ now: 0 });
    prefetch('/api/topology');
    vi.setSystemTime(60_000);
    expect(takePrefetched('/api/topology')).toBeUndefined();
  });

  it('passes a failure on to its reader', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"no"}', { status: 500 }));
    prefetch('/api/topology');
    await expect(takePrefetched('/api/topology')).rejects.toThrow('no');
  });
});

describe('public/prefetch.js (the request the HTML starts)', () => {
  it('sends the request api.get sends, with and without a token, only on the topology page', async () => {
    for (const token of [null, ' s3cret ']) {
      vi.stubGlobal('localStorage', storage(token));
      const app = vi.fn(async (..._a: unknown[]) => new Response('{}'));
      vi.stubGlobal('fetch', app);
      await api.get('/api/topology');
      const early = vi.fn(async (..._a: unknown[]) => new Response('{}'));
      runEarly('/topology', early, token);
      // The first frame (topology-job.ts), then the reply.
      const calls = early.mock.calls as [string, RequestInit][];
      expect(calls.map(([path]) => path)).toEqual(['/api/topology/frame?group=rail', '/api/topology']);
      const [appPath, appInit] = app.mock.calls[0] as [string, RequestInit];
      expect(calls[1]![0]).toBe(appPath);
      for (const [, init] of calls) {
        expect({ method: init.method, headers: init.headers }).toEqual({
          method: appInit.method,
          headers: appInit.headers,
        });
        expect(init.headers).toHaveProperty('Accept', 'application/json');
        if (token) expect(init.headers).toHaveProperty('Authorization', 'Bearer s3cret');
      }
      delete (globalThis as { __ibwatchPrefetch?: unknown }).__ibwatchPrefetch;
    }
    const early = vi.fn(async () => new Response('{}'));
    runEarly('/topology/', early);
    expect(early).toHaveBeenCalledTimes(2);
    // A URL that selects, highlights or searches has no first frame to fetch; `group=name` its own.
    for (const [url, frame] of [
      ['/topology?sel=l:1', null],
      ['/topology?host=dgx-0001', null],
      ['/topology?q=leaf', null],
      ['/topology?group=name', '/api/topology/frame?group=name'],
    ] as const) {
      const fn = vi.fn(async (..._a: unknown[]) => new Response('{}'));
      runEarly(url, fn);
      expect(
        fn.mock.calls.map(([path]) => path),
        url,
      ).toEqual(frame ? [frame, '/api/topology'] : ['/api/topology']);
    }
    for (const other of ['/', '/ports', '/topology/x', '/topologyx']) {
      const none = vi.fn(async () => new Response('{}'));
      runEarly(other, none);
      expect(none, other).not.toHaveBeenCalled();
    }
  });

  it('is the one request the app reads: prefetch() adopts it instead of sending another', async () => {
    const app = vi.fn(async () => new Response('{"from":"app"}'));
    vi.stubGlobal('fetch', app);
    runEarly('/topology', async () => new Response('{"format":2,"from":"html"}'));
    prefetch('/api/topology');
    expect(await takePrefetched('/api/topology')).toEqual({ format: 2, from: 'html' });
    expect(app).not.toHaveBeenCalled();
    // Once: the next read is a request of the app's own.
    prefetch('/api/topology');
    expect(await takePrefetched('/api/topology')).toEqual({ from: 'app' });
    expect(app).toHaveBeenCalledTimes(1);
  });

  it('is taken by useApi’s first read even when nothing called prefetch()', async () => {
    runEarly('/topology', async () => new Response('{"format":2}'));
    expect(takePrefetched('/api/summary')).toBeUndefined();
    expect(await takePrefetched('/api/topology')).toEqual({ format: 2 });
    expect(takePrefetched('/api/topology')).toBeUndefined();
  });

  it('fails as the app’s own request would: HTTP errors and an unreachable collector', async () => {
    const cases: [() => Promise<Response>, number, string][] = [
      [async () => new Response('{"message":"token missing"}', { status: 500 }), 500, 'token missing'],
      [async () => new Response('<html>', { status: 200 }), 200, 'expected JSON from /api/topology, got text'],
      [async () => Promise.reject(new TypeError('Failed to fetch')), 0, 'cannot reach the collector'],
    ];
    for (const [reply, status, message] of cases) {
      vi.stubGlobal('fetch', reply);
      const own = await api.get('/api/topology').catch((e: unknown) => e);
      runEarly('/topology', reply);
      prefetch('/api/topology');
      const early = await takePrefetched('/api/topology')!.catch((e: unknown) => e);
      for (const e of [own, early]) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).status).toBe(status);
        expect((e as ApiError).message).toContain(message);
      }
      expect((early as ApiError).message).toBe((own as ApiError).message);
    }
  });

  it('is dropped when old, as any prefetched reply', () => {
    vi.useFakeTimers({ now: 0 });
    runEarly('/topology', async () => new Response('{}'));
    vi.setSystemTime(60_000);
    expect(takePrefetched('/api/topology')).toBeUndefined();
  });
});
