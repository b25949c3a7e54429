import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { topologyColumns } from '@ibwatch/fabric';
import { ApiError } from '../../api/client.ts';
import { takePrefetched } from '../../api/prefetch.ts';
import { parseQuery } from '../../router.ts';
import { firstFrame } from './first-frame.ts';
import { ndrWithSharp } from './fixtures.ts';
import { jobOptions, startJob } from './topology-job.ts';
import type { WorkerAsk } from './topo-worker.ts';

const EARLY = readFileSync(join(import.meta.dirname, '../../../public/prefetch.js'), 'utf8');
const FILES = {
  worker: '/assets/topo-worker-abc.js',
  chunks: ['/assets/TopologyPage-def.js'],
  css: ['/assets/TopologyPage-ghi.css'],
};
const REPLY = JSON.stringify(topologyColumns(ndrWithSharp()));

/** A module worker that runs topo-worker.ts's code (firstFrame) on what it is sent. */
class FakeWorker {
  static made: FakeWorker[] = [];
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
    setTimeout(() => this.onmessage?.({ data: { ok: true, frame: firstFrame(ask.bytes, ask.groupBy) } }), 0);
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
  Resp: typeof Response = Response,
) {
  const u = new URL(url, 'http://ibwatch.test');
  const links: { rel: string; href: string; crossOrigin: string | null; as?: string }[] = [];
  const document = {
    querySelector: (sel: string) =>
      sel === 'meta[name="ibwatch-topology"]' && meta ? { getAttribute: () => JSON.stringify(meta) } : null,
    createElement: () => ({ rel: '', href: '', crossOrigin: null }),
    head: { appendChild: (l: (typeof links)[number]) => links.push(l) },
  };
  const window: Record<string, unknown> = {};
  const context = { location: u, localStorage: { getItem: () => null }, fetch: reply, window, Date, document };
  runInNewContext(EARLY, { ...context, Worker: FakeWorker, URLSearchParams, performance, Response: Resp });
  (globalThis as Record<string, unknown>).__ibwatchPrefetch = window.__ibwatchPrefetch;
  return links;
}

const ok = async () => new Response(REPLY, { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  FakeWorker.made = [];
  vi.unstubAllGlobals();
  delete (globalThis as { __ibwatchPrefetch?: unknown }).__ibwatchPrefetch;
});

describe('the topology worker started by public/prefetch.js', () => {
  it('gets the reply’s bytes before the app runs, and the view’s job takes its answer', async () => {
    const links = runEarly('/topology?group=name', ok);
    // The view's chunk and its stylesheet, in the CORS mode Vite's preload helper asks for them.
    expect(links).toEqual([
      { rel: 'modulepreload', href: FILES.chunks[0], crossOrigin: '' },
      { rel: 'preload', as: 'style', href: FILES.css[0], crossOrigin: '' },
    ]);
    expect(FakeWorker.made.map((w) => [w.url, w.opts])).toEqual([[FILES.worker, { type: 'module' }]]);
    // The app's own worker must not be started: the job takes the early one's answer.
    vi.stubGlobal('Worker', function never() {
      throw new Error('a second worker');
    });
    const job = await startJob(jobOptions(parseQuery('?group=name')));
    const [early] = FakeWorker.made;
    expect(early!.asks.map((a) => a.groupBy)).toEqual(['name']);
    expect(early!.terminated).toBe(true);
    const bytes = new TextEncoder().encode(REPLY).buffer as ArrayBuffer;
    expect(job.answer).toEqual({ ok: true, frame: firstFrame(bytes, 'name') });
    // The page keeps the same bytes, status and headers to parse them after the first frame.
    expect(new TextDecoder().decode(job.bytes!)).toBe(REPLY);
    expect([job.res?.status, job.res?.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(job.t0).toBeLessThanOrEqual(performance.now());
  });

  it('is not used for other options: the job then lays the reply out with a worker of its own', async () => {
    runEarly('/topology', ok);
    vi.stubGlobal('Worker', FakeWorker);
    const job = await startJob(jobOptions(parseQuery('?group=name')));
    expect(FakeWorker.made).toHaveLength(2);
    expect(FakeWorker.made.map((w) => w.asks.map((a) => a.groupBy))).toEqual([['rail'], ['name']]);
    const bytes = new TextEncoder().encode(REPLY).buffer as ArrayBuffer;
    expect(job.answer).toEqual({ ok: true, frame: firstFrame(bytes, 'name') });
  });

  it('is not started for a deep link, nor without the <meta> (the dev server)', () => {
    for (const url of ['/topology?sel=l:1', '/topology?host=gpu1', '/topology?q=leaf']) {
      expect(runEarly(url, ok)).toHaveLength(2);
      expect(FakeWorker.made, url).toEqual([]);
    }
    expect(runEarly('/topology', ok, null)).toEqual([]);
    expect(FakeWorker.made).toEqual([]);
    expect(runEarly('/ports', ok)).toEqual([]);
    expect(FakeWorker.made).toEqual([]);
  });

  it('hands the view the bytes it read, and makes a response of them only for another reader', async () => {
    const made: unknown[] = [];
    class Counted extends Response {
      constructor(...a: ConstructorParameters<typeof Response>) {
        super(...a);
        made.push(a[0]);
      }
    }
    runEarly('/topology', ok, FILES, Counted);
    const job = await startJob(jobOptions(parseQuery('')));
    expect(new TextDecoder().decode(job.bytes!)).toBe(REPLY);
    expect(job.answer).toEqual({ ok: true, frame: firstFrame(job.bytes!, 'rail') });
    // No copy of the 7 MB into a second response, read again, on the page's main thread.
    expect(made).toEqual([]);

    runEarly('/topology', ok, FILES, Counted);
    expect(await takePrefetched('/api/topology')).toEqual(JSON.parse(REPLY));
    expect(made).toHaveLength(1);
  });

  it('leaves a failed reply to the app, which reports it as before', async () => {
    runEarly('/topology', async () => new Response('{"message":"token missing"}', { status: 500 }));
    const err = await takePrefetched('/api/topology')!.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain('token missing');
    await new Promise((r) => setTimeout(r, 0));
    expect(FakeWorker.made.map((w) => [w.asks.length, w.terminated])).toEqual([[0, true]]);
  });
});
