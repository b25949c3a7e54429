import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { topologyColumns } from '@ibwatch/fabric';
import { api, ApiError } from '../../api/client.ts';
import { takePrefetched } from '../../api/prefetch.ts';
import { parseQuery } from '../../router.ts';
import { firstFrame } from './first-frame.ts';
import { ndrWithSharp } from './fixtures.ts';
import { jobOptions, startJob } from './topology-job.ts';
import { handleAsk, type WorkerAsk } from './worker-ask.ts';

const EARLY = readFileSync(join(import.meta.dirname, '../../../public/prefetch.js'), 'utf8');
const FILES = { worker: '/assets/topo-worker-abc.js', chunks: ['/assets/TopologyPage-def.js'] };
const REPLY = JSON.stringify(topologyColumns(ndrWithSharp()));
const ok = async () => new Response(REPLY, { status: 200, headers: { 'content-type': 'application/json' } });

/** A module worker that runs topo-worker.ts's code (worker-ask.ts) on what it is sent. */
class FakeWorker {
  static made: FakeWorker[] = [];
  /** What the worker's fetch() gets. */
  static net: () => Promise<Response> = ok;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  asks: WorkerAsk[] = [];
  terminated = false;
  constructor(
    readonly url: string | URL,
    readonly opts: object,
  ) {
    FakeWorker.made.push(this);
  }
  postMessage(ask: WorkerAsk) {
    this.asks.push(ask);
    // As a real worker: nothing is delivered once terminated.
    const post = (data: unknown) => setTimeout(() => this.terminated || this.onmessage?.({ data }), 0);
    void handleAsk(ask, post, () => FakeWorker.net());
  }
  terminate() {
    this.terminated = true;
  }
}

/** Runs public/prefetch.js as the built page's <head> does (with its <meta>, or without). */
function runEarly(
  url: string,
  reply: () => Promise<Response>,
  meta: object | null = FILES,
  token: string | null = null,
) {
  FakeWorker.net = reply;
  const u = new URL(url, 'http://ibwatch.test');
  const links: { rel: string; href: string; crossOrigin: string | null }[] = [];
  const document = {
    querySelector: (sel: string) =>
      sel === 'meta[name="ibwatch-topology"]' && meta ? { getAttribute: () => JSON.stringify(meta) } : null,
    createElement: () => ({ rel: '', href: '', crossOrigin: null }),
    head: { appendChild: (l: (typeof links)[number]) => links.push(l) },
  };
  const window: Record<string, unknown> = {};
  const pageFetch = vi.fn(reply);
  const context = { location: u, localStorage: { getItem: () => token }, fetch: pageFetch, window, Date, document };
  runInNewContext(EARLY, { ...context, Worker: FakeWorker, URLSearchParams, performance, Response, TypeError });
  (globalThis as Record<string, unknown>).__ibwatchPrefetch = window.__ibwatchPrefetch;
  return { links, pageFetch };
}

const bytesOf = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

afterEach(() => {
  FakeWorker.made = [];
  vi.unstubAllGlobals();
  delete (globalThis as { __ibwatchPrefetch?: unknown }).__ibwatchPrefetch;
});

describe('the topology worker started by public/prefetch.js', () => {
  it('sends the request before the app runs, and the view’s job takes its answer', async () => {
    const { links, pageFetch } = runEarly('/topology?group=name', ok, FILES, ' s3cret ');
    expect(links).toEqual([{ rel: 'modulepreload', href: FILES.chunks[0], crossOrigin: '' }]);
    expect(FakeWorker.made.map((w) => [w.url, w.opts])).toEqual([[FILES.worker, { type: 'module' }]]);
    // One request, from the worker, with the headers of the app's own (client.ts).
    expect(pageFetch).not.toHaveBeenCalled();
    const [early] = FakeWorker.made;
    expect(early!.asks).toEqual([
      {
        fetch: { path: '/api/topology', headers: { Accept: 'application/json', Authorization: 'Bearer s3cret' } },
        groupBy: 'name',
      },
    ]);
    // The app's own worker must not be started: the job takes the early one's answer.
    vi.stubGlobal('Worker', function never() {
      throw new Error('a second worker');
    });
    const job = await startJob(jobOptions(parseQuery('?group=name')));
    expect(early!.terminated).toBe(true);
    expect(job.answer).toEqual({ ok: true, frame: firstFrame(bytesOf(REPLY), 'name') });
    // The page keeps the same bytes, status and headers to parse them after the first frame.
    expect(new TextDecoder().decode(job.bytes!)).toBe(REPLY);
    expect([job.res?.status, job.res?.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(job.t0).toBeGreaterThan(0);
    expect(job.t0).toBeLessThanOrEqual(performance.now());
  });

  it('is not used for other options: the job then lays the reply out with a worker of its own', async () => {
    runEarly('/topology', ok);
    vi.stubGlobal('Worker', FakeWorker);
    const job = await startJob(jobOptions(parseQuery('?group=name')));
    expect(FakeWorker.made).toHaveLength(2);
    expect(FakeWorker.made.map((w) => w.asks.map((a) => a.groupBy))).toEqual([['rail'], ['name']]);
    expect(job.answer).toEqual({ ok: true, frame: firstFrame(bytesOf(REPLY), 'name') });
  });

  it('is not started for a deep link, nor without the <meta> (the dev server): the page sends it', () => {
    for (const url of ['/topology?sel=l:1', '/topology?host=gpu1', '/topology?q=leaf']) {
      const { links, pageFetch } = runEarly(url, ok);
      expect(links).toHaveLength(1);
      expect(pageFetch).toHaveBeenCalledTimes(1);
      expect(FakeWorker.made, url).toEqual([]);
    }
    const { links, pageFetch } = runEarly('/topology', ok, null);
    expect(links).toEqual([]);
    expect(pageFetch).toHaveBeenCalledTimes(1);
    expect(FakeWorker.made).toEqual([]);
    expect(runEarly('/ports', ok).pageFetch).not.toHaveBeenCalled();
    expect(FakeWorker.made).toEqual([]);
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
      FakeWorker.made = [];
      runEarly('/topology', reply);
      const early = await takePrefetched('/api/topology')!.catch((e: unknown) => e);
      expect(early).toBeInstanceOf(ApiError);
      expect([(early as ApiError).status, (early as ApiError).message]).toEqual([status, (own as ApiError).message]);
      expect((early as ApiError).message).toContain(message);
      await new Promise((r) => setTimeout(r, 0));
      expect(FakeWorker.made.map((w) => [w.asks.length, w.terminated])).toEqual([[1, true]]);
    }
  });

  it('falls back to the page’s own request when the worker does not load', async () => {
    const { pageFetch } = runEarly('/topology', ok);
    FakeWorker.made[0]!.onerror?.({ message: 'failed to load' });
    expect(pageFetch).toHaveBeenCalledTimes(1);
    vi.stubGlobal('Worker', function never() {
      throw new Error('no workers');
    });
    const job = await startJob(jobOptions(parseQuery('')));
    expect([job.res?.status, new TextDecoder().decode(job.bytes!), job.answer]).toEqual([200, REPLY, null]);
  });
});
